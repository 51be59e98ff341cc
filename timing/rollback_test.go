package timing_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

func TestResimulationAndAdvantageAreNamedDebt(t *testing.T) {
	s := schStart(t, repayOpts())
	if err := s.AddResimulation(8, 3*msec); err != nil {
		t.Fatal(err)
	}
	if err := s.AdjustAdvantage(-2 * timing.DefaultInterval); err != nil {
		t.Fatal(err)
	}
	if err := s.AddResimulation(-1, 0); err == nil {
		t.Error("AddResimulation accepted negative ticks")
	}
	st := s.Stats()
	l := st.Ledger
	if st.Resimulated != 8 || l.Resimulation != 3*msec || l.Advantage != -2*timing.DefaultInterval {
		t.Errorf("resimulated %d ticks, %v; advantage %v; want 8, 3ms, %v", st.Resimulated, l.Resimulation, l.Advantage, -2*timing.DefaultInterval)
	}
	if want := 3*msec - 2*timing.DefaultInterval; l.Adjusted != want || !l.Balanced() {
		t.Errorf("adjusted %v (balanced %v), want %v in balance", l.Adjusted, l.Balanced(), want)
	}
	// Ahead: pacing runs slow, within MaxSlowDown, never stopping.
	if _, err := s.Advance(schEpoch + timing.Instant(20*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if r := s.Stats().Rate; r >= 1 || r < 0.9 {
		t.Errorf("rate %v while ahead, want in [0.9, 1)", r)
	}
}

// A lead of less than a step (the frame advantage a networked peer is
// handed in small corrections) is repaid by pacing, a few percent slower a
// tick, never by one update that comes a whole step late: the runtime
// waits until NextUpdateAt, as here, and every interval between two
// updates stays within the step at MaxSlowDown.
func TestALeadUnderAStepIsPacedNotWaited(t *testing.T) {
	for _, lead := range []time.Duration{2 * msec, 8 * msec, 12 * msec, 16 * msec, 20 * msec, 40 * msec} {
		o := repayOpts()
		o.MaxFixedUpdates = 1
		s := schStart(t, o)
		now := schEpoch
		var last timing.Instant
		var longest time.Duration
		ticks := 0
		for i := 0; i < 600; i++ {
			now = max(s.NextUpdateAt(), now+1)
			b := schAdvance(t, s, now)
			if len(b.Updates) == 0 {
				continue
			}
			if ticks > 0 {
				longest = max(longest, time.Duration(now-last))
			}
			last = now
			ticks++
			if ticks == 60 {
				if err := s.AdjustAdvantage(-lead); err != nil {
					t.Fatal(err)
				}
			}
		}
		step := timing.DefaultInterval
		if limit := time.Duration(float64(step)/o.Debt.MaxSlowDown) + 1; longest > limit {
			t.Errorf("lead %v: longest interval between updates %v, want at most %v (the step at MaxSlowDown %v)", lead, longest, limit, o.Debt.MaxSlowDown)
		}
		if st := s.Stats(); st.Debt < 0 || !st.Ledger.Balanced() {
			t.Errorf("lead %v: after %d ticks debt %v (balanced %v), want the lead repaid, in balance", lead, ticks, st.Debt, st.Ledger.Balanced())
		}
	}
}
