package glfwinput_test

import (
	"testing"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/glfwinput"
	"github.com/metronome-go/metronome/timing"
)

// TestAttachDescribesInitialState: the first snapshot already holds the
// window's sizes, as synthetic records.
func TestAttachDescribesInitialState(t *testing.T) {
	w := newWindow(t)
	var snap input.Snapshot
	var wantW, wantH, wantFW, wantFH int
	onMain(func() {
		wantW, wantH = w.win.GetSize()
		wantFW, wantFH = w.win.GetFramebufferSize()
		src := glfwinput.Attach(w.win, glfwinput.Options{NoGamepad: true, ManualPump: true})
		defer src.Detach()
		src.Poll(timing.Now(), &snap)
	})
	st := snap.State
	if st.Window.Size.Width != wantW || st.Window.Size.Height != wantH || st.Window.Framebuffer.Width != wantFW || st.Window.Framebuffer.Height != wantFH {
		t.Errorf("state sizes %dx%d / %dx%d, want %dx%d / %dx%d", st.Window.Size.Width, st.Window.Size.Height, st.Window.Framebuffer.Width, st.Window.Framebuffer.Height, wantW, wantH, wantFW, wantFH)
	}
	var replay input.State
	for _, r := range snap.Records {
		if !r.Synthetic {
			t.Errorf("record %v is not synthetic; nothing happened yet", r)
		}
		replay.Apply(&r)
	}
	if replay != st {
		t.Errorf("records replay to %+v, want the state %+v", replay, st)
	}
}

// TestDetachRestoresCallbacks: a callback the window had keeps firing while
// attached and is the one left after Detach.
func TestDetachRestoresCallbacks(t *testing.T) {
	requireEventSender(t)
	w := newWindow(t)
	d := &driver{window: w}
	sizes := 0
	var src *glfwinput.Source
	onMain(func() {
		w.win.SetSizeCallback(func(*glfw.Window, int, int) { sizes++ })
		src = glfwinput.Attach(w.win, glfwinput.Options{NoGamepad: true})
	})
	var snap input.Snapshot
	awaitMain := func(what string, cond func() bool) {
		t.Helper()
		for attempt := 0; !cond(); attempt++ {
			if !d.Wait(attempt) {
				t.Fatalf("gave up waiting for %s", what)
			}
		}
	}
	if err := w.xdo("windowsize", w.wid, "180", "120"); err != nil {
		t.Fatal(err)
	}
	awaitMain("the first resize", func() (ok bool) { onMain(func() { ok = sizes >= 1 }); return })
	onMain(func() { src.Poll(timing.Now(), &snap) })
	if snap.State.Window.Size.Width != 180 || snap.State.Window.Size.Height != 120 {
		t.Errorf("attached: window %dx%d, want 180x120", snap.State.Window.Size.Width, snap.State.Window.Size.Height)
	}

	onMain(src.Detach)
	onMain(src.Detach) // harmless
	before := 0
	onMain(func() { before = sizes })
	if err := w.xdo("windowsize", w.wid, "160", "100"); err != nil {
		t.Fatal(err)
	}
	awaitMain("the second resize", func() (ok bool) { onMain(func() { ok = sizes > before }); return })
	onMain(func() { src.Poll(timing.Now(), &snap) })
	if len(snap.Records) != 0 || snap.State.Window.Size.Width != 180 {
		t.Errorf("detached source recorded %v (window %d wide); want nothing new", snap.Records, snap.State.Window.Size.Width)
	}
	if src.Attached() {
		t.Errorf("Attached() = true after Detach")
	}
}

// TestQueueWithRealKeys runs the whole path: real key events, the GLFW
// source, a queue and ticks read through an action.
func TestQueueWithRealKeys(t *testing.T) {
	requireEventSender(t)
	w := newWindow(t)
	d := &driver{window: w}
	actions := input.NewActions()
	jump := actions.MustRegister("jump", input.KeySpace)
	opts := input.DefaultPollingOptions()
	q, err := input.NewQueue(actions, opts)
	if err != nil {
		t.Fatal(err)
	}
	var src *glfwinput.Source
	onMain(func() {
		src = glfwinput.Attach(w.win, glfwinput.Options{NoGamepad: true})
		q.Start(timing.Now())
	})
	t.Cleanup(func() { onMain(src.Detach) })
	if err := d.Focus(true); err != nil {
		t.Fatal(err)
	}
	if err := w.xdo("key", "space"); err != nil { // press and release
		t.Fatal(err)
	}
	var tick input.Tick
	var snap input.Snapshot
	presses, releases := 0, 0
	for attempt := 0; releases == 0; attempt++ {
		if !d.Wait(attempt) {
			t.Fatalf("no release of Space after %d polls (presses %d)", attempt, presses)
		}
		onMain(func() { poll(q, src, &snap) })
		q.TakeAll(timing.Now(), &tick)
		presses += tick.Presses(jump)
		releases += tick.Releases(jump)
		if tick.Held(jump) > tick.Observed() || tick.Observed() > time.Minute {
			t.Fatalf("held %v in an interval of %v", tick.Held(jump), tick.Observed())
		}
	}
	if presses != 1 || releases != 1 {
		t.Errorf("presses %d, releases %d; want 1 each", presses, releases)
	}
}

// TestAdapterLifecycle: the runtime's adapter methods, Init and Close.
func TestAdapterLifecycle(t *testing.T) {
	if err := glfwinput.New(nil, glfwinput.Options{}).Init(); err == nil {
		t.Errorf("Init without a window succeeded")
	}
	w := newWindow(t)
	src := glfwinput.New(w.win, glfwinput.Options{NoGamepad: true, ManualPump: true})
	var errs [4]error
	var snap input.Snapshot
	onMain(func() {
		errs[0] = src.Init()
		errs[1] = src.Init()
		errs[2] = src.Close()
		errs[3] = src.Init() // attaches again
		src.Poll(timing.Now(), &snap)
		_ = src.Close()
	})
	if errs[0] != nil || errs[1] == nil || errs[2] != nil || errs[3] != nil {
		t.Errorf("Init, Init, Close, Init = %v; want nil, an error, nil, nil", errs)
	}
	if snap.State.Window.Size.Width == 0 {
		t.Errorf("no window size after attaching again: %+v", snap.State)
	}
}
