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
	"github.com/metronome-go/metronome/runtime/glfwplatform/internal/xclose"
	"github.com/metronome-go/metronome/timing"
)

// The tests in this file drive the window through the X server (xdotool,
// WM_DELETE_WINDOW): Linux only.

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

func (g *e2eGame) InitPlatform(plat *runtime.Platform) error {
	var err error
	if g.jump, err = plat.Actions.Register("jump", input.KeySpace); err != nil {
		return err
	}
	g.fire, err = plat.Actions.Register("fire", input.MouseLeft)
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
	opts := runtime.DefaultOptions()
	opts.Mode = mode
	opts.Timing.Interval = 8333333 * time.Nanosecond // 120 Hz keeps the test short
	rt, display := startWindow(t, "metronome e2e "+mode.String(), 320, 240, g, opts)
	win := display.X11Window()
	var once sync.Once
	if _, err := rt.Services().Attach(runtime.Maintenance, func(timing.Instant) error {
		if rt.Stats().FramesPresented >= frames {
			once.Do(func() { close(framesDone) })
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	result, await := runAsync(t, rt)
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
	if s, err := rt.Lifecycle().State(), runtimeOutcome(rt); s != runtime.StateStopped || err != nil {
		t.Errorf("lifecycle: got %v %v, want stopped without error", s, err)
	}
	tel := rt.Telemetry()
	t.Logf("%v: %d frames, %d updates, %d polls, frame interval min/mean/max %v/%v/%v, publications skipped %d",
		rt.Mode(), st.FramesPresented, st.Updates, st.Polls, tel.WindowIntervalMin, tel.WindowIntervalMean, tel.WindowIntervalMax, st.PublicationsSkipped)
}

// closeGame counts updates; its shutdown policy refuses the first request
// and accepts the next, as a game asking "quit without saving?" does.
// Update and the policy both run on the simulation owner.
type closeGame struct {
	runtime.Base
	updates          int64
	asked            []runtime.ShutdownRequest
	atRefuse         int64 // updates when the first request was refused
	ready, refused   chan struct{}
	wentOn           chan struct{} // 10 updates after the refusal
	readyOnce, onOne sync.Once
}

func (g *closeGame) Update(*runtime.TickContext) error {
	g.updates++
	if g.updates == 10 {
		g.readyOnce.Do(func() { close(g.ready) })
	}
	if g.atRefuse > 0 && g.updates == g.atRefuse+10 {
		g.onOne.Do(func() { close(g.wentOn) })
	}
	return nil
}

func (g *closeGame) policy(req runtime.ShutdownRequest) runtime.ShutdownDecision {
	g.asked = append(g.asked, req)
	if len(g.asked) == 1 {
		g.atRefuse = g.updates
		close(g.refused)
		return runtime.ShutdownRefuse
	}
	return runtime.ShutdownAccept
}

// TestCloseButtonNegotiated sends a real WM_DELETE_WINDOW twice: the
// first close reaches the shutdown policy, which refuses it, and the
// session goes on; the second is accepted and the session ends cleanly.
func TestCloseButtonNegotiated(t *testing.T) {
	testdisplay.Require(t)
	for _, mode := range []runtime.Mode{runtime.Sequential, runtime.Concurrent} {
		t.Run(mode.String(), func(t *testing.T) {
			g := &closeGame{refused: make(chan struct{}), ready: make(chan struct{}), wentOn: make(chan struct{})}
			opts := runtime.DefaultOptions()
			opts.Mode = mode
			opts.ShutdownPolicy = g.policy
			rt, display := startWindow(t, "metronome close "+mode.String(), 160, 120, g, opts)
			win := display.X11Window()
			result, await := runAsync(t, rt)
			closeWindow := func() {
				t.Helper()
				if err := xclose.Request(testdisplay.Name(), win); err != nil {
					rt.Stop()
					t.Fatal(err)
				}
			}
			await("10 updates", g.ready)
			closeWindow()
			await("the policy to refuse the first close", g.refused)
			await("10 more updates after the refusal", g.wentOn) // the session goes on
			closeWindow()
			select {
			case err := <-result:
				if err != nil {
					t.Fatalf("Run after the second close: %v, want nil", err)
				}
			case <-time.After(30 * time.Second):
				rt.Stop()
				t.Fatal("Run did not return within 30s of the second close")
			}
			if got, want := rt.Shutdown().Stats(), (runtime.ShutdownStats{Requests: 2, Refused: 1, Accepted: 1}); got != want {
				t.Errorf("shutdown stats %+v, want %+v", got, want)
			}
			if req, ok := rt.Shutdown().Ended(); !ok || req.Reason != runtime.ReasonWindowClose || req.Seq != 2 {
				t.Errorf("ended by %+v (%v), want the second window close", req, ok)
			}
			if len(g.asked) != 2 || g.asked[0].Reason != runtime.ReasonWindowClose || g.asked[1].Repeats != 0 {
				t.Errorf("policy asked %+v, want two fresh window closes", g.asked)
			}
		})
	}
}

// runtimeOutcome is the session's terminal error (nil while it runs).
func runtimeOutcome(rt *runtime.GameRuntime) error {
	err, _ := rt.Lifecycle().Outcome()
	return err
}
