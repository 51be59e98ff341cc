package rollback_test

import (
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// The pacing figures say what the updates did: the advantage settles
// after the last tick it was over one tick (up to a second before the
// match's end), a gap of two steps is a whole-frame wait (a held update
// leaves one), and held updates after SettleAfter count apart.
func TestPacingKeepsTheMatchsFigures(t *testing.T) {
	const step = 10 * time.Millisecond
	clock := timing.NewManualClock(0)
	p := rollback.NewPacing(clock, step, 450) // the last second, from 3.5 s, is left out
	var tc runtime.TickContext
	if p.Started() {
		t.Error("the pacing has started before any update")
	}
	for i := range 400 {
		gap := step
		if i == 300 {
			gap = 25 * time.Millisecond // a whole frame's wait and more, at 3 s
		}
		clock.Advance(gap)
		advantage := 0.5
		if i >= 360 {
			advantage = 4 // the other peer has stopped
		}
		if i < 150 {
			advantage = -1.5 // behind until 1.5 s
		}
		tc.Owed.Held = 0
		if i == 250 {
			tc.Owed.Held = step // held at 2.5 s
		}
		p.Record(&tc, advantage)
	}
	want := &rollback.Pacing{Ticks: 399, Held: 1, HeldLate: 1, Outside: 1490 * time.Millisecond, Worst: 0.5,
		Gap: 25 * time.Millisecond, GapAt: 2990 * time.Millisecond, Waits: 2}
	got := p
	if got.Ticks != want.Ticks || got.Held != want.Held || got.HeldLate != want.HeldLate || got.Outside != want.Outside ||
		got.Worst != want.Worst || got.Gap != want.Gap || got.GapAt != want.GapAt || got.Waits != want.Waits {
		t.Errorf("pacing %+v, want %+v", got, want)
	}
	// The stamps are the instants of ticks 60, 120, ... 360: the held
	// update at 2.5 s ran none, the 25 ms gap came at tick 300.
	ms := timing.Instant(time.Millisecond)
	wantStamps := []timing.Instant{600 * ms, 1200 * ms, 1800 * ms, 2400 * ms, 3025 * ms, 3625 * ms}
	if !p.Started() || !slices.Equal(p.Stamps, wantStamps) {
		t.Errorf("started %v, stamps %v: want started, stamps %v", p.Started(), p.Stamps, wantStamps)
	}
	if got, want := p.SettledFrom(), 1500*time.Millisecond; got != want {
		t.Errorf("settled from %v, want %v", got, want)
	}
}
