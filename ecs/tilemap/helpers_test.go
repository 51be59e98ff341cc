package tilemap_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

const step = 20 * time.Millisecond

func newApp(t testing.TB, opts ecs.Options) *ecs.App {
	t.Helper()
	a, err := ecs.NewApp(opts)
	if err != nil {
		t.Fatalf("NewApp: %v", err)
	}
	return a
}

// tick is update n of a 320x240 window at interpolation alpha.
func tick(n uint64, alpha float64) *runtime.TickContext {
	return &runtime.TickContext{
		Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: step, Number: n, Final: true},
		Timing: timing.Stats{Alpha: alpha},
		Window: input.Window{Size: input.Size{Width: 320, Height: 240}, Framebuffer: input.Size{Width: 320, Height: 240}},
	}
}

// steadyAllocs runs ticks and frames of a until they stop growing, then
// fails on any allocation per tick or per frame; it returns the frame.
func steadyAllocs(t *testing.T, a *ecs.App, tk *runtime.TickContext) *render2d.Frame {
	t.Helper()
	frame := &render2d.Frame{}
	fw := render2d.NewFrameWriter(frame)
	runTick := func() {
		tk.Number++
		if err := a.Update(tk); err != nil {
			t.Fatal(err)
		}
	}
	runFrame := func() {
		frame.Reset()
		if err := a.PrepareFrame(fw); err != nil {
			t.Fatal(err)
		}
	}
	for range 10 {
		runTick()
		runFrame()
	}
	if got := testing.AllocsPerRun(20, runTick); got != 0 {
		t.Errorf("allocations per tick: got %v, want 0", got)
	}
	if got := testing.AllocsPerRun(20, runFrame); got != 0 {
		t.Errorf("allocations per frame: got %v, want 0", got)
	}
	return frame
}

// prepareWith prepares a's frame and has rec render it, returning the
// frame rec recorded.
func prepareWith(t *testing.T, a *ecs.App, rec *rendertest.Recorder) *render2d.Frame {
	t.Helper()
	var f render2d.Frame
	if err := a.PrepareFrame(render2d.NewFrameWriter(&f)); err != nil {
		t.Fatalf("PrepareFrame: %v", err)
	}
	before := len(rec.Frames)
	if err := rec.Render(&f); err != nil {
		t.Fatalf("recording renderer refused the frame: %v", err)
	}
	if len(rec.Frames) != before+1 {
		t.Fatalf("recorded frames: got %d, want %d", len(rec.Frames), before+1)
	}
	return &rec.Frames[before]
}
