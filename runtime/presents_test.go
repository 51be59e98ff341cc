package runtime_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// fakeFrames is a runtime's present count and telemetry ring.
type fakeFrames struct {
	presented uint64
	frames    []timing.TelemetryFrame
}

func (f *fakeFrames) Stats() runtime.Stats { return runtime.Stats{FramesPresented: f.presented} }

func (f *fakeFrames) TelemetryFrames(dst []timing.TelemetryFrame) []timing.TelemetryFrame {
	return append(dst, f.frames[max(len(f.frames)-timing.TelemetryWindow, 0):]...)
}

func (f *fakeFrames) present(d time.Duration) {
	f.presented++
	f.frames = append(f.frames, timing.TelemetryFrame{Interval: d})
}

// A watch counts the presents from the moment counting begins: those
// before are passed over, and so is the interval of the first counted
// (it follows a present from before); looks far apart still see every
// interval the ring holds.
func TestPresentWatchCountsFromTheStart(t *testing.T) {
	frames := &fakeFrames{}
	w := runtime.NewPresentWatch(frames)
	frames.present(500 * time.Millisecond) // the window opening
	w.Look(false)
	frames.present(time.Second) // the first present of the match follows it
	for i := range 99 {
		d := 10 * time.Millisecond
		if i == 60 {
			d = 26 * time.Millisecond
		}
		frames.present(d)
		if i%50 == 0 {
			w.Look(true)
		}
	}
	w.Look(true)
	if got, want := w.Count(), uint64(100); got != want {
		t.Errorf("Count = %d, want %d", got, want)
	}
	if got, want := w.Longest(), 26*time.Millisecond; got != want {
		t.Errorf("Longest = %v, want %v", got, want)
	}
}
