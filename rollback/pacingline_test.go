package rollback_test

import (
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// The pacing line gives what the ticks and the presents showed: the
// advantage settles at the last tick it was over one tick (up to a
// second before the end), a gap of two steps is a whole-frame wait (a
// held update leaves one), held updates count apart after 2 s, and the
// timeline stamps every 60th tick in wall-clock time.
func TestPacingLines(t *testing.T) {
	clock := timing.NewManualClock(0)
	p := rollback.NewPacing(clock, 10*time.Millisecond, 450) // --ticks 450: the last second is left out
	base := clock.Now()
	var tc runtime.TickContext
	for i := range 400 {
		gap := 10 * time.Millisecond
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
			tc.Owed.Held = 10 * time.Millisecond // held at 2.5 s
		}
		p.Record(&tc, advantage)
	}
	var b strings.Builder
	p.WriteLines(&b, 400, 26*time.Millisecond, 10*time.Millisecond, 1_000_000, base)
	got := b.String()
	if _, tl, _ := strings.Cut(got, "ticks after: "); len(strings.Fields(tl)) != 6 || strings.Fields(tl)[0] != "1600000" {
		t.Errorf("timeline %q: want 6 stamps, ticks 60 to 360, the first at 1600000 (0.6 s after the wall clock's 1 s)", tl)
	}
	for _, want := range []string{
		"pacing: presents 400, longest 26ms of cap 10ms (2.60x)",
		"advantage within 1 tick from 1.50s, worst after 2s 0.50 ticks",
		"ticks longest apart 25ms (2.50 steps, at 2.99s), 2 whole-frame waits", // the held update left a gap too
		"1 held (1 after 2s)",
		"\ntimeline: unix µs at tick 60 and every 60 ticks after: ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("pacing line %q lacks %q", got, want)
		}
	}
}

// With no frame cap the pacing line says so, instead of comparing the
// longest present with a cap of 0s; with one it keeps its ratio (the form
// scripts/netem.sh reads).
func TestPacingLineWithoutCap(t *testing.T) {
	for _, tt := range []struct {
		cap        time.Duration
		want, lack string
	}{
		{0, "presents 3, longest 17ms with no frame cap;", "of cap"},
		{10 * time.Millisecond, "presents 3, longest 17ms of cap 10ms (1.70x);", "no frame cap"},
	} {
		clock := timing.NewManualClock(0)
		p := rollback.NewPacing(clock, 10*time.Millisecond, 0)
		for range 3 {
			clock.Advance(10 * time.Millisecond)
			var tc runtime.TickContext
			p.Record(&tc, 0)
		}
		var b strings.Builder
		p.WriteLines(&b, 3, 17*time.Millisecond, tt.cap, 0, 0)
		if got := b.String(); !strings.Contains(got, tt.want) || strings.Contains(got, tt.lack) {
			t.Errorf("cap %v: pacing line %q, want %q in it and no %q", tt.cap, got, tt.want, tt.lack)
		}
	}
}
