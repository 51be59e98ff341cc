//go:build !race

package runtime_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// A look at the presents, once per platform cycle, allocates nothing.
func TestPresentWatchAllocatesNothing(t *testing.T) {
	frames := &fakeFrames{frames: make([]timing.TelemetryFrame, 0, 1<<16)}
	w := runtime.NewPresentWatch(frames)
	allocs := testing.AllocsPerRun(1000, func() {
		frames.present(10 * time.Millisecond)
		w.Look(true)
	})
	if allocs != 0 {
		t.Errorf("a look allocates %v times, want 0", allocs)
	}
}
