package framework

import (
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

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
		clock, frames := timing.NewManualClock(0), &fakeFrames{}
		r := newTestReport(clock, frames, 0)
		r.presents.cap = tt.cap
		frames.present(time.Second) // before the match
		r.presents.look(r.pacing.Started())
		for _, d := range []time.Duration{16, 17, 15} {
			clock.Advance(10 * time.Millisecond)
			var tc runtime.TickContext
			r.pacing.Record(&tc, 0)
			frames.present(d * time.Millisecond)
		}
		var b strings.Builder
		r.write(&b)
		if got := b.String(); !strings.Contains(got, tt.want) || strings.Contains(got, tt.lack) {
			t.Errorf("cap %v: pacing line %q, want %q in it and no %q", tt.cap, got, tt.want, tt.lack)
		}
	}
}
