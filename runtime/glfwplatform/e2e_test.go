package glfwplatform_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/glfwplatform"
)

// fullscreenGame switches its window to fullscreen from an update, then
// back, and records the window its ticks saw.
type fullscreenGame struct {
	runtime.Base
	rt      *runtime.GameRuntime
	future  *runtime.Future[struct{}]
	stage   int
	errs    []error
	full    input.Window // the first tick window reported fullscreen
	back    input.Window // the first tick window after leaving it
	updates int
}

func (g *fullscreenGame) Update(t *runtime.TickContext) error {
	g.updates++
	w := t.Window
	switch {
	case g.stage == 0 && g.updates == 5:
		g.future, g.stage = g.rt.SetFullscreen(true), 1
	case g.stage == 1 && w.Fullscreen && w.Size.Width > 160:
		g.full, g.stage = w, 2
		if _, err := g.future.Result(); err != nil {
			g.errs = append(g.errs, err)
		}
		g.future = g.rt.SetFullscreen(false)
	case g.stage == 2 && !w.Fullscreen && w.Size == (input.Size{Width: 160, Height: 120}):
		g.back, g.stage = w, 3
		return t.RequestStop()
	case g.updates > 3000:
		return fmt.Errorf("stage %d after %d updates: window %+v", g.stage, g.updates, w)
	}
	return nil
}

// TestFullscreenFromTheSimulation: GameRuntime.SetFullscreen reaches the
// real display on the platform thread, and ticks see the new mode with the
// monitor's size, then the window's again.
func TestFullscreenFromTheSimulation(t *testing.T) {
	testdisplay.Require(t)
	for _, mode := range []runtime.Mode{runtime.Sequential, runtime.Concurrent} {
		t.Run(mode.String(), func(t *testing.T) {
			g := &fullscreenGame{}
			opts := runtime.DefaultOptions()
			opts.Mode = mode
			rt, _ := startWindow(t, "metronome fullscreen", 160, 120, g, opts)
			g.rt = rt
			var runErr error
			testdisplay.OnMain(func() { runErr = rt.Run() })
			if runErr != nil || len(g.errs) > 0 {
				t.Fatalf("Run: %v; SetFullscreen: %v", runErr, g.errs)
			}
			if !g.full.Fullscreen || g.full.Framebuffer.Width <= 160 || !g.back.Visible() || g.back.Fullscreen {
				t.Errorf("fullscreen tick window %+v, back %+v: want the monitor's size, then 160x120 in a window", g.full, g.back)
			}
		})
	}
}

// startWindow opens a real w×h window titled title on the main thread and
// builds a runtime for g on it with opts. Without a display it skips, or
// fails in CI.
func startWindow(t *testing.T, title string, w, h int, g runtime.Game, opts runtime.Options) (*runtime.GameRuntime, *glfwplatform.Display) {
	t.Helper()
	var rt *runtime.GameRuntime
	var display *glfwplatform.Display
	var windowErr, runtimeErr error
	testdisplay.OnMain(func() {
		cfg := glfwplatform.DefaultConfig()
		cfg.Title = title
		cfg.Width, cfg.Height = w, h
		ctx, err := glfwplatform.New(cfg)
		if err != nil {
			windowErr = err
			return
		}
		display = ctx.Display.(*glfwplatform.Display)
		rt, runtimeErr = runtime.New(g, ctx, opts)
		if runtimeErr != nil {
			ctx.Close()
		}
	})
	if windowErr != nil {
		testdisplay.Unavailable(t, windowErr) // no display or GL context: skips, or fails in CI
	}
	if runtimeErr != nil {
		t.Fatalf("runtime.New: %v", runtimeErr)
	}
	return rt, display
}

// runAsync runs rt on the main thread and returns Run's result and a wait
// for ch that fails the test if Run returns first or 30 s pass.
func runAsync(t *testing.T, rt *runtime.GameRuntime) (<-chan error, func(what string, ch <-chan struct{})) {
	result := make(chan error, 1)
	go testdisplay.OnMain(func() { result <- rt.Run() })
	return result, func(what string, ch <-chan struct{}) {
		t.Helper()
		select {
		case <-ch:
		case err := <-result:
			t.Fatalf("waiting for %s: Run returned %v", what, err)
		case <-time.After(30 * time.Second):
			rt.Stop()
			t.Fatalf("waiting for %s: timed out after 30s (stats %+v)", what, rt.Stats())
		}
	}
}
