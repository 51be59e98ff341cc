package rollback_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
)

// A window of 0 is lockstep: over 150 ms round trip with jitter and loss
// neither peer predicts or rolls back, both run the same ticks with the
// same inputs and end on the same state; with no input delay as with one.
func TestLockstepNeverPredicts(t *testing.T) {
	opts := netsim.Options{Latency: 75 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05, Seed: 33}
	for _, delay := range []int{0, 2} {
		peers := match(t, 2, opts, 0, delay, 1, 600, nil)
		for i, p := range peers {
			st := p.s.Stats()
			if st.Rollbacks != 0 || st.Predicted != 0 || st.Resimulated != 0 {
				t.Errorf("delay %d, peer %d: %d rollbacks, %d predicted player-ticks; lockstep wants none", delay, i, st.Rollbacks, st.Predicted)
			}
			if st.Held == 0 {
				t.Errorf("delay %d, peer %d never held over 150 ms round trip", delay, i)
			}
			if st.Desyncs != 0 || st.Hashes < 500 {
				t.Errorf("delay %d, peer %d: %d desyncs in %d hashes compared", delay, i, st.Desyncs, st.Hashes)
			}
		}
		if a, b := peers[0].sim, peers[1].sim; a.pos != b.pos || a.steps != b.steps {
			t.Errorf("delay %d: states %v (%d steps) and %v (%d steps) differ", delay, a.pos, a.steps, b.pos, b.steps)
		}
	}
}

func TestLockstepIsAValidWindow(t *testing.T) {
	o := rollback.DefaultMatchOptions()
	o.Window = 0
	if err := o.Validate(); err != nil {
		t.Errorf("[net] window = 0: %v", err)
	}
	o.Window = -1
	if err := o.Validate(); err == nil {
		t.Error("window -1 accepted")
	}
}
