//go:build !race

package rollback_test

import (
	"io"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback/netsim"
)

// A networked update that records the match (its settled ticks with
// every player's input, a checkpoint every tick, its pacing) allocates
// nothing in steady state, with rollbacks.
func TestRecorderAllocatesNothing(t *testing.T) {
	m := newRecordedMatch(t, netsim.Options{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Seed: 4}, 1, 0, io.Discard)
	for range 600 {
		m.update()
	}
	if got := testing.AllocsPerRun(300, m.update); got != 0 {
		t.Errorf("a recorded networked update allocates %v times, want 0", got)
	}
	for i, s := range m.sides {
		if st := s.Stats(); st.Rollbacks == 0 || st.Desyncs != 0 {
			t.Errorf("peer %d: stats %+v: want rollbacks and no desync", i, st)
		}
		if w := m.ws[i]; w.Ticks() < 800 || w.Checkpoints() < 800 {
			t.Errorf("peer %d recorded %d ticks and %d checkpoints in 900 updates", i, w.Ticks(), w.Checkpoints())
		}
	}
}
