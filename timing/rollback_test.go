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
