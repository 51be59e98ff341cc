package glfwplatform_test

import (
	"errors"
	"testing"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/glfwplatform"
	"github.com/metronome-go/metronome/runtime/glfwplatform/internal/xwin"
	"github.com/metronome-go/metronome/window"
)

// The tests in this file read the X server's view of a window: Linux only.

// TestWindowHints: the size limits and the aspect ratio reach the window
// manager (Xvfb runs none, so the hints themselves are checked).
func TestWindowHints(t *testing.T) {
	testdisplay.Require(t)
	var ctxErr, hintErr error
	var at, changed xwin.Hints
	testdisplay.OnMain(func() {
		cfg := glfwplatform.DefaultConfig()
		cfg.Width, cfg.Height, cfg.Hidden = 400, 300, true
		cfg.MinSize, cfg.MaxSize = input.Size{Width: 160, Height: 120}, input.Size{Width: 800, Height: 600}
		cfg.AspectRatio = window.Ratio{Width: 4, Height: 3}
		ctx, err := glfwplatform.New(cfg)
		if err != nil {
			ctxErr = err
			return
		}
		defer ctx.Close()
		d := ctx.Display.(*glfwplatform.Display)
		d.PollEvents()
		if at, hintErr = xwin.NormalHints(testdisplay.Name(), d.X11Window()); hintErr != nil {
			return
		}
		d.SetSizeLimits(input.Size{Width: 320}, input.Size{})
		d.SetAspectRatio(0, 0)
		d.PollEvents()
		changed, hintErr = xwin.NormalHints(testdisplay.Name(), d.X11Window())
	})
	if ctxErr != nil {
		testdisplay.Unavailable(t, ctxErr)
	}
	if hintErr != nil {
		t.Fatal(hintErr)
	}
	want := xwin.Hints{MinWidth: 160, MinHeight: 120, MaxWidth: 800, MaxHeight: 600, MinAspect: [2]int{4, 3}, MaxAspect: [2]int{4, 3}}
	if at != want {
		t.Errorf("hints from the config: got %+v, want %+v", at, want)
	}
	if want := (xwin.Hints{MinWidth: 320, MinHeight: 1}); changed != want {
		t.Errorf("hints after SetSizeLimits(320x0, none) and a free ratio: got %+v, want %+v (an open side is 1)", changed, want)
	}
}

// Without a display New returns ErrNoDisplay instead of letting GLFW log and
// panic.
func TestNewWithoutDisplay(t *testing.T) {
	testdisplay.Require(t)
	t.Setenv("DISPLAY", "")
	var err error
	testdisplay.OnMain(func() {
		var ctx *runtime.Adapters
		ctx, err = glfwplatform.New(glfwplatform.DefaultConfig())
		if ctx != nil {
			ctx.Close()
		}
	})
	if !errors.Is(err, glfwplatform.ErrNoDisplay) {
		t.Fatalf("New without DISPLAY: %v, want ErrNoDisplay", err)
	}
}
