//go:build !race

package framework

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// The report's per-tick and per-cycle work allocates nothing.
func TestMatchReportAllocatesNothing(t *testing.T) {
	clock := timing.NewManualClock(0)
	frames := &fakeFrames{frames: make([]timing.TelemetryFrame, 0, 1<<16)}
	r := newTestReport(clock, frames, 0)
	var tc runtime.TickContext
	allocs := testing.AllocsPerRun(1000, func() {
		clock.Advance(10 * time.Millisecond)
		r.pacing.Record(&tc, 0)
		frames.present(10 * time.Millisecond)
		r.presents.look(r.pacing.Started())
	})
	if allocs != 0 {
		t.Errorf("a tick and a look allocate %v times, want 0", allocs)
	}
}
