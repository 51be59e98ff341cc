package glfwplatform_test

import (
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/glfwplatform"
	"github.com/metronome-go/metronome/runtime/glfwplatform/internal/xclose"
	"github.com/metronome-go/metronome/timing"
)

// e2eGame counts the input it receives and signals milestones to the test.
type e2eGame struct {
	runtime.Base
	jump, fire        input.Action
	presses, releases atomic.Int64
	clicks            atomic.Int64
	updates           atomic.Int64
	ready, pressed    chan struct{}
	readyOnce, pOnce  sync.Once
}

func (g *e2eGame) InitPlatform(rt *runtime.GameRuntime) error {
	var err error
	if g.jump, err = rt.Actions().Register("jump", input.KeySpace); err != nil {
		return err
	}
	g.fire, err = rt.Actions().Register("fire", input.MouseLeft)
	return err
}

func (g *e2eGame) Update(t *runtime.TickContext) error {
	if g.updates.Add(1) == 30 {
		g.readyOnce.Do(func() { close(g.ready) })
	}
	g.presses.Add(int64(t.Input.Presses(g.jump)))
	g.releases.Add(int64(t.Input.Releases(g.jump)))
	g.clicks.Add(int64(t.Input.Presses(g.fire)))
	if g.presses.Load() >= 3 && g.releases.Load() >= 3 && g.clicks.Load() >= 1 {
		g.pOnce.Do(func() { close(g.pressed) })
	}
	return nil
}

func (g *e2eGame) PrepareFrame(w *render2d.FrameWriter) error {
	c := float32(g.updates.Load()%60) / 60
	w.BeginPass(render2d.PassDesc{Clear: true, ClearColor: render2d.Color{R: c, G: 0.2, B: 0.3, A: 1}})
	return nil
}

// TestEndToEnd runs a real window under Xvfb in each mode: a few hundred
// frames, keys and a click sent as real X input with xdotool, then the
// window manager's close request, and expects a clean exit with every input
// edge delivered exactly once.
func TestEndToEnd(t *testing.T) {
	testdisplay.Require(t)
	if _, err := exec.LookPath("xdotool"); err != nil {
		testdisplay.Unavailable(t, err)
	}
	for _, mode := range []runtime.Mode{runtime.Sequential, runtime.Concurrent} {
		t.Run(mode.String(), func(t *testing.T) { endToEnd(t, mode) })
	}
}

const frames = 300

func endToEnd(t *testing.T, mode runtime.Mode) {
	g := &e2eGame{ready: make(chan struct{}), pressed: make(chan struct{})}
	framesDone := make(chan struct{})
	var rt *runtime.GameRuntime
	var win uint64
	var setupErr error
	testdisplay.OnMain(func() {
		cfg := glfwplatform.DefaultConfig()
		cfg.Title = "metronome e2e " + mode.String()
		cfg.Width, cfg.Height = 320, 240
		ctx, err := glfwplatform.New(cfg)
		if err != nil {
			setupErr = err
			return
		}
		win = ctx.Display.(*glfwplatform.Display).X11Window()
		opts := runtime.DefaultOptions()
		opts.Mode = mode
		opts.Timing.Interval = 8333333 * time.Nanosecond // 120 Hz keeps the test short
		rt, err = runtime.New(g, ctx, opts)
		if err != nil {
			ctx.Close()
			setupErr = err
			return
		}
		var once sync.Once
		_, setupErr = rt.Services().Attach(runtime.Maintenance, func(timing.Instant) error {
			if rt.Stats().FramesPresented >= frames {
				once.Do(func() { close(framesDone) })
			}
			return nil
		})
	})
	if setupErr != nil {
		testdisplay.Unavailable(t, setupErr)
	}
	result := make(chan error, 1)
	go testdisplay.OnMain(func() { result <- rt.Run() })

	await := func(what string, ch <-chan struct{}) {
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
	xdo := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("xdotool", args...).CombinedOutput(); err != nil {
			rt.Stop()
			t.Fatalf("xdotool %v: %v: %s", args, err, out)
		}
	}
	id := strconv.FormatUint(win, 10)
	await("30 updates", g.ready)
	xdo("windowfocus", "--sync", id)
	xdo("key", "--delay", "30", "space", "space", "space")
	xdo("mousemove", "--window", id, "40", "40", "click", "1")
	await("the input to arrive", g.pressed)
	await(strconv.Itoa(frames)+" frames", framesDone)
	if err := xclose.Request(testdisplay.Name(), win); err != nil {
		rt.Stop()
		t.Fatal(err)
	}
	select {
	case err := <-result:
		if err != nil {
			t.Fatalf("Run after the close request: got %v, want nil", err)
		}
	case <-time.After(30 * time.Second):
		rt.Stop()
		t.Fatal("Run did not return within 30s of the close request")
	}
	st := rt.Stats()
	if p, r, c := g.presses.Load(), g.releases.Load(), g.clicks.Load(); p != 3 || r != 3 || c != 1 {
		t.Errorf("space presses %d releases %d, clicks %d: want 3, 3 and 1", p, r, c)
	}
	if st.FramesPresented < frames {
		t.Errorf("frames presented: got %d, want at least %d", st.FramesPresented, frames)
	}
	if s := rt.Lifecycle().Snapshot(); s.State != runtime.StateStopped || s.Err != nil {
		t.Errorf("lifecycle: got %v %v, want stopped without error", s.State, s.Err)
	}
	tel := rt.Telemetry()
	t.Logf("%v: %d frames, %d updates, %d polls, frame interval min/mean/max %v/%v/%v, publications skipped %d",
		rt.Mode(), st.FramesPresented, st.Updates, st.Polls, tel.WindowIntervalMin, tel.WindowIntervalMean, tel.WindowIntervalMax, st.PublicationsSkipped)
}
