package glfwplatform_test

import (
	"testing"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/glfwplatform"
	"github.com/metronome-go/metronome/window"
)

// The window's ranges are window.Options.Validate's (tested there); New
// refuses what it refuses before GLFW starts.
func TestNewValidatesFirst(t *testing.T) {
	cfg := glfwplatform.DefaultConfig()
	cfg.Width = window.MaxSide + 1
	ctx, err := glfwplatform.New(cfg)
	if err == nil {
		ctx.Close()
		t.Fatal("New: got nil, want the window's range error")
	}
	if want := "window: Options.Width 16385 is out of range; allowed: 1 to 16384"; err.Error() != want {
		t.Errorf("New: got %q, want %q", err, want)
	}
}

func TestDisplayState(t *testing.T) {
	testdisplay.Require(t)
	var ctxErr, fullErr, backErr error
	var states []runtime.WindowState
	var monitor input.Size
	testdisplay.OnMain(func() {
		cfg := glfwplatform.DefaultConfig()
		cfg.Width, cfg.Height, cfg.Hidden = 200, 100, true
		ctx, err := glfwplatform.New(cfg)
		if err != nil {
			ctxErr = err
			return
		}
		defer ctx.Close()
		d := ctx.Display.(*glfwplatform.Display)
		sample := func() {
			d.PollEvents()
			states = append(states, d.State())
		}
		sample()
		d.Hide()
		sample()
		d.Show()
		sample()
		d.Window().SetShouldClose(true)
		states = append(states, d.State())
		states = append(states, d.State()) // the press was reported once
		mode := d.Window().GetMonitor()
		if mode == nil {
			if m := glfw.GetPrimaryMonitor(); m != nil {
				vm := m.GetVideoMode()
				monitor = input.Size{Width: vm.Width, Height: vm.Height}
			}
		}
		// The new sizes come with the X server's events: wait for them
		// (up to 5 s) rather than for a fixed time.
		settle := func(done func(runtime.WindowState) bool) {
			for i := 0; i < 100 && !done(d.State()); i++ {
				glfw.WaitEventsTimeout(0.05)
			}
			sample()
		}
		fullErr = d.SetFullscreen(true)
		settle(func(s runtime.WindowState) bool { return monitor == input.Size{} || s.Size == monitor })
		backErr = d.SetFullscreen(false)
		settle(func(s runtime.WindowState) bool { return s.Size == input.Size{Width: 200, Height: 100} })
	})
	if ctxErr != nil {
		testdisplay.Unavailable(t, ctxErr)
	}
	if s := states[0]; s.Size != (input.Size{Width: 200, Height: 100}) || s.Framebuffer.Width == 0 || !s.Visible() || s.CloseRequested ||
		s.Scale.X <= 0 || s.Scale.Y <= 0 || s.Fullscreen {
		t.Errorf("new headless window: got %+v, want 200x100, visible (it renders), a content scale, not closing, not fullscreen", s)
	}
	if s := states[1]; !s.Hidden || s.Visible() {
		t.Errorf("after Hide: got %+v, want Hidden", s)
	}
	if s := states[2]; s.Hidden || !s.Visible() {
		t.Errorf("after Show: got %+v, want visible", s)
	}
	if !states[3].CloseRequested {
		t.Errorf("after a close request: got %+v, want CloseRequested", states[3])
	}
	if states[4].CloseRequested {
		t.Errorf("the sample after a close request: got %+v, want CloseRequested false (one press, one edge)", states[4])
	}
	if fullErr != nil || backErr != nil {
		t.Fatalf("SetFullscreen: %v, %v", fullErr, backErr)
	}
	if s := states[5]; !s.Fullscreen || (monitor != input.Size{} && s.Size != monitor) {
		t.Errorf("fullscreen: got %+v, want Fullscreen at the monitor's %v", s, monitor)
	}
	if s := states[6]; s.Fullscreen || s.Size != (input.Size{Width: 200, Height: 100}) {
		t.Errorf("back in a window: got %+v, want 200x100, not fullscreen", s)
	}
}

// TestRefreshInterval: with vsync the presenter reports the monitor's
// refresh, which variable timing follows; without it, none.
func TestRefreshInterval(t *testing.T) {
	testdisplay.Require(t)
	var ctxErr error
	got := map[bool]time.Duration{}
	var rate int
	testdisplay.OnMain(func() {
		for _, vsync := range []bool{false, true} {
			cfg := glfwplatform.DefaultConfig()
			cfg.Width, cfg.Height, cfg.Hidden, cfg.VSync = 200, 100, true, vsync
			ctx, err := glfwplatform.New(cfg)
			if err != nil {
				ctxErr = err
				return
			}
			if err := ctx.Presenter.Init(); err != nil {
				ctxErr = err
				ctx.Close()
				return
			}
			got[vsync] = ctx.Presenter.(runtime.RefreshPresenter).RefreshInterval()
			if m := glfw.GetPrimaryMonitor(); m != nil && vsync {
				if vm := m.GetVideoMode(); vm != nil {
					rate = vm.RefreshRate
				}
			}
			ctx.Close()
		}
	})
	if ctxErr != nil {
		testdisplay.Unavailable(t, ctxErr)
	}
	if got[false] != 0 {
		t.Errorf("without vsync: RefreshInterval %v, want 0", got[false])
	}
	want := time.Duration(0)
	if rate > 0 {
		want = time.Second / time.Duration(rate)
	}
	if got[true] != want {
		t.Errorf("with vsync: RefreshInterval %v, want %v (the monitor's %d Hz)", got[true], want, rate)
	}
	t.Logf("vsync refresh interval %v", got[true])
}
