package inputtest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// ErrUnsupported is returned by a [Driver] operation the platform cannot
// perform; the suite skips the subtests that need it.
var ErrUnsupported = errors.New("inputtest: operation not supported by this driver")

// Driver lets the conformance suite produce input for a source under test:
// scripted events for [Script], real window-system events for a platform
// source. All methods are called from the test's goroutine, which for a
// platform source must be the platform thread.
type Driver interface {
	// Source returns the source under test.
	Source() input.Source
	// Now returns the instant to poll with.
	Now() timing.Instant
	// Press and Release push or let go of a button.
	Press(b input.Button) error
	Release(b input.Button) error
	// MoveCursor moves the cursor to (x, y) in window coordinates.
	MoveCursor(x, y float64) error
	// Scroll scrolls by whole wheel steps; dy > 0 scrolls up (away).
	Scroll(dx, dy int) error
	// Type types one character.
	Type(c rune) error
	// Resize sets the window's logical size.
	Resize(w, h int) error
	// Focus gives the window keyboard focus or takes it away.
	Focus(focused bool) error
	// Gamepad connects a gamepad, at rest (no button down, sticks centred,
	// triggers released), or disconnects it. Its buttons are pressed and
	// released with Press and Release.
	Gamepad(connected bool) error
	// MoveAxis moves a gamepad axis to v, which lies within the axis's
	// range and is a multiple of 1/8.
	MoveAxis(a input.Axis, v float32) error
	// Wait lets events reach the source (advancing a manual clock or
	// waiting on the platform's event queue). attempt counts the waits
	// for the current expectation from zero; Wait returns false when the
	// driver gives up, which fails the test.
	Wait(attempt int) bool
}

// TestSource runs the conformance suite against the source of each driver
// newDriver makes (a fresh one per subtest). It checks, at every poll, that
// snapshots chain (the previous State with the new records applied gives the
// new State), that timestamps never decrease and lie within the poll's
// interval, that edges alternate and that Poll replaces the snapshot's
// records; and, per subtest, that keys, mouse buttons, cursor motion,
// scroll, text, resizes and focus changes are recorded, that losing focus
// releases held buttons, that records keep observation order, and that the
// window a runtime samples with each poll ([input.WindowSync]) keeps the
// snapshots chained and ends at the sample. The
// gamepad subtests check that buttons, axes (within their ranges) and
// connections are recorded, that an analog action follows the axis with its
// dead zone, and that a disconnect or a focus loss releases the gamepad's
// buttons and centres its axes; a driver without a gamepad returns
// ErrUnsupported from Gamepad and they are skipped.
func TestSource(t *testing.T, newDriver func(t *testing.T) Driver) {
	t.Run("PollReplacesSnapshot", func(t *testing.T) {
		h := newHarness(t, newDriver(t))
		h.snap.Records = append(h.snap.Records, input.Record{Kind: input.RecordPress, Button: input.KeyF25})
		h.snap.State.Down.Add(input.KeyF25)
		h.poll()
		for _, r := range h.snap.Records {
			if r.Kind == input.RecordPress && r.Button == input.KeyF25 {
				t.Fatalf("Poll kept a record from the previous contents of the snapshot: %v", r)
			}
		}
	})
	t.Run("Key", func(t *testing.T) {
		h := newHarness(t, newDriver(t))
		h.focus()
		h.must("press A", h.d.Press(input.KeyA))
		h.await("A pressed", func() bool { return h.state.Down.Has(input.KeyA) && h.sawEdge(input.RecordPress, input.KeyA) })
		h.must("release A", h.d.Release(input.KeyA))
		h.await("A released", func() bool { return !h.state.Down.Has(input.KeyA) && h.sawEdge(input.RecordRelease, input.KeyA) })
	})
	t.Run("MouseButton", func(t *testing.T) {
		h := newHarness(t, newDriver(t))
		h.focus()
		h.skipIf(h.d.MoveCursor(20, 20))
		h.await("cursor in window", func() bool { return h.state.CursorX == 20 && h.state.CursorY == 20 })
		h.must("press MouseLeft", h.d.Press(input.MouseLeft))
		h.await("MouseLeft pressed", func() bool { return h.state.Down.Has(input.MouseLeft) })
		h.must("release MouseLeft", h.d.Release(input.MouseLeft))
		h.await("MouseLeft released", func() bool {
			return !h.state.Down.Has(input.MouseLeft) && h.sawEdge(input.RecordRelease, input.MouseLeft)
		})
	})
	t.Run("Cursor", func(t *testing.T) {
		h := newHarness(t, newDriver(t))
		h.focus()
		for _, p := range [][2]float64{{40, 30}, {75, 60}} {
			h.skipIf(h.d.MoveCursor(p[0], p[1]))
			h.await(fmt.Sprintf("cursor at %v", p), func() bool {
				return h.state.CursorX == p[0] && h.state.CursorY == p[1] && h.saw(func(r input.Record) bool {
					return r.Kind == input.RecordCursor && r.X == p[0] && r.Y == p[1]
				})
			})
		}
	})
	t.Run("Scroll", func(t *testing.T) {
		h := newHarness(t, newDriver(t))
		h.focus()
		h.skipIf(h.d.MoveCursor(30, 30))
		h.await("cursor in window", func() bool { return h.state.CursorX == 30 })
		h.skipIf(h.d.Scroll(0, 1))
		h.await("scroll up", func() bool {
			return h.saw(func(r input.Record) bool { return r.Kind == input.RecordScroll && r.Y > 0 })
		})
		h.skipIf(h.d.Scroll(0, -1))
		h.await("scroll down", func() bool {
			return h.saw(func(r input.Record) bool { return r.Kind == input.RecordScroll && r.Y < 0 })
		})
	})
	t.Run("Text", func(t *testing.T) {
		h := newHarness(t, newDriver(t))
		h.focus()
		h.skipIf(h.d.Type('x'))
		h.await("text x", func() bool {
			return h.saw(func(r input.Record) bool { return r.Kind == input.RecordText && r.Rune == 'x' })
		})
	})
	t.Run("Resize", func(t *testing.T) {
		h := newHarness(t, newDriver(t))
		h.skipIf(h.d.Resize(320, 240))
		h.await("window 320x240", func() bool {
			return h.state.Window.Size == (input.Size{Width: 320, Height: 240}) && h.state.Window.Framebuffer.Width > 0 &&
				h.saw(func(r input.Record) bool {
					return r.Kind == input.RecordWindowSize && r.Width == 320 && r.Height == 240
				}) &&
				h.saw(func(r input.Record) bool { return r.Kind == input.RecordFramebufferSize })
		})
	})
	t.Run("WindowSync", func(t *testing.T) {
		// A runtime adds the window its display sampled to every poll
		// (input.WindowSync); the snapshots must chain and end at the
		// sample whatever the source records of the window itself.
		h := newHarness(t, newDriver(t))
		synced := &syncedSource{src: h.d.Source(), window: h.state.Window}
		h.src = synced
		steps := []struct {
			what string
			edit func(w *input.Window)
		}{
			{"content scale 2x2", func(w *input.Window) { w.Scale = input.Scale{X: 2, Y: 2} }},
			{"hidden", func(w *input.Window) { w.Hidden = true }},
			{"minimised", func(w *input.Window) { w.Hidden, w.Minimized = false, true }},
			{"fullscreen", func(w *input.Window) { w.Minimized, w.Fullscreen = false, true }},
			{"a window again", func(w *input.Window) { w.Fullscreen = false }},
		}
		for _, st := range steps {
			st.edit(&synced.window)
			h.poll()
			if h.state.Window != synced.window {
				t.Errorf("%s: window %+v, want the sample %+v", st.what, h.state.Window, synced.window)
			}
		}
		// The source sees a resize the sample does not report yet: the
		// sample wins until it reports it too.
		before := synced.window
		if err := h.d.Resize(320, 240); err == nil {
			for attempt := 0; attempt < 3 && h.d.Wait(attempt); attempt++ {
				h.poll()
				if h.state.Window != before {
					t.Errorf("after a resize the sample does not report: window %+v, want the sample %+v", h.state.Window, before)
				}
			}
			synced.window.Size = input.Size{Width: 320, Height: 240}
			h.poll()
			if h.state.Window != synced.window {
				t.Errorf("after the sample reports the resize: window %+v, want %+v", h.state.Window, synced.window)
			}
		} else if !errors.Is(err, ErrUnsupported) {
			t.Fatalf("resize: %v", err)
		}
	})
	t.Run("FocusLossReleasesHeldButtons", func(t *testing.T) {
		h := newHarness(t, newDriver(t))
		h.focus()
		h.must("press B", h.d.Press(input.KeyB))
		h.await("B pressed", func() bool { return h.state.Down.Has(input.KeyB) })
		h.skipIf(h.d.Focus(false))
		h.await("focus lost", func() bool { return !h.state.Window.Focused })
		if h.state.Down.Len() != 0 {
			t.Errorf("buttons still down after focus loss: %v", h.state.Down.AppendTo(nil))
		}
		rel := h.index(func(r input.Record) bool { return r.Kind == input.RecordRelease && r.Button == input.KeyB })
		lost := h.index(func(r input.Record) bool { return r.Kind == input.RecordFocus && !r.Focused })
		if rel < 0 || lost < 0 || rel > lost {
			t.Errorf("release of B at record %d, focus loss at %d: want a release before the focus loss", rel, lost)
		}
		// The real key is still down; letting it go must not produce a
		// second release.
		_ = h.d.Release(input.KeyB)
		h.must("focus", h.d.Focus(true))
		h.await("focus back", func() bool { return h.state.Window.Focused })
	})
	t.Run("GamepadButton", func(t *testing.T) {
		h := newHarness(t, newDriver(t))
		h.focus()
		h.connect()
		h.must("press GamepadA", h.d.Press(input.GamepadA))
		h.await("GamepadA pressed", func() bool {
			return h.state.Down.Has(input.GamepadA) && h.sawEdge(input.RecordPress, input.GamepadA)
		})
		h.must("release GamepadA", h.d.Release(input.GamepadA))
		h.await("GamepadA released", func() bool {
			return !h.state.Down.Has(input.GamepadA) && h.sawEdge(input.RecordRelease, input.GamepadA)
		})
	})
	t.Run("GamepadAxes", func(t *testing.T) {
		h := newHarness(t, newDriver(t))
		h.focus()
		h.connect()
		start, from := h.prev, h.state
		h.seen = h.seen[:0]
		h.must("move GamepadLeftX", h.d.MoveAxis(input.GamepadLeftX, -0.5))
		h.awaitAxis(input.GamepadLeftX, -0.5)
		h.must("move GamepadRightTrigger", h.d.MoveAxis(input.GamepadRightTrigger, 0.75))
		h.awaitAxis(input.GamepadRightTrigger, 0.75)

		// The records drive an analog action: the stick is past a 0.25 dead
		// zone, so the value is the rest of its travel rescaled.
		actions := input.NewActions()
		moveX := actions.MustRegisterAxis("move_x", input.GamepadLeftX.Bind().WithDeadZone(0.25), input.ButtonAxis(input.KeyA, input.KeyD))
		throttle := actions.MustRegisterAxis("throttle", input.GamepadRightTrigger.Bind().WithDeadZone(0.5))
		var tick input.Tick
		tick.Fill(actions, start, h.prev, from, h.seen)
		if got := tick.Value(moveX); !near(got, -1.0/3) {
			t.Errorf("move_x = %v, want -1/3 (stick at -0.5, dead zone 0.25)", got)
		}
		if got := tick.Value(throttle); !near(got, 0.5) {
			t.Errorf("throttle = %v, want 0.5 (trigger at 0.75, dead zone 0.5)", got)
		}
		if s := tick.Action(moveX); !s.Down || s.Presses != 1 {
			t.Errorf("move_x stats %+v: want down, pressed once", s)
		}

		h.must("centre GamepadLeftX", h.d.MoveAxis(input.GamepadLeftX, 0))
		h.awaitAxis(input.GamepadLeftX, 0)
		h.must("full GamepadLeftY", h.d.MoveAxis(input.GamepadLeftY, 1))
		h.awaitAxis(input.GamepadLeftY, 1)
	})
	t.Run("GamepadDisconnectReleases", func(t *testing.T) {
		h := newHarness(t, newDriver(t))
		h.focus()
		h.connect()
		h.must("press GamepadB", h.d.Press(input.GamepadB))
		h.must("move GamepadRightY", h.d.MoveAxis(input.GamepadRightY, -1))
		h.await("GamepadB down, GamepadRightY at -1", func() bool {
			return h.state.Down.Has(input.GamepadB) && h.state.Gamepad.Axes[input.GamepadRightY] == -1
		})
		h.seen = h.seen[:0]
		h.must("disconnect", h.d.Gamepad(false))
		h.await("disconnected", func() bool { return !h.state.Gamepad.Connected })
		h.checkNeutralPad("after the disconnect")
		rel := h.index(func(r input.Record) bool { return r.Kind == input.RecordRelease && r.Button == input.GamepadB })
		centred := h.index(func(r input.Record) bool {
			return r.Kind == input.RecordAxis && r.Axis == input.GamepadRightY && r.X == 0
		})
		gone := h.index(func(r input.Record) bool { return r.Kind == input.RecordGamepad && !r.Connected })
		if rel < 0 || centred < 0 || gone < 0 || rel > gone || centred > gone {
			t.Errorf("release of GamepadB at record %d, GamepadRightY centred at %d, disconnect at %d: want both before the disconnect; records: %s", rel, centred, gone, h.describe())
		}
		h.connect()
		h.checkNeutralPad("after reconnecting a gamepad at rest")
	})
	t.Run("FocusLossCentresAxes", func(t *testing.T) {
		h := newHarness(t, newDriver(t))
		h.focus()
		h.connect()
		h.must("press GamepadX", h.d.Press(input.GamepadX))
		h.must("move GamepadLeftX", h.d.MoveAxis(input.GamepadLeftX, 1))
		h.await("GamepadX down, GamepadLeftX at 1", func() bool {
			return h.state.Down.Has(input.GamepadX) && h.state.Gamepad.Axes[input.GamepadLeftX] == 1
		})
		h.skipIf(h.d.Focus(false))
		h.await("focus lost", func() bool { return !h.state.Window.Focused })
		h.checkNeutralPad("after losing focus")
		// Let go before focus returns, so that what a source does with a
		// gamepad still held at that moment is not part of the contract.
		h.must("release GamepadX", h.d.Release(input.GamepadX))
		h.must("centre GamepadLeftX", h.d.MoveAxis(input.GamepadLeftX, 0))
		h.must("focus", h.d.Focus(true))
		h.await("focus back", func() bool { return h.state.Window.Focused })
	})
	t.Run("ObservationOrder", func(t *testing.T) {
		h := newHarness(t, newDriver(t))
		h.focus()
		for _, b := range []input.Button{input.KeyC, input.KeyD} {
			h.must("press", h.d.Press(b))
			h.must("release", h.d.Release(b))
		}
		h.await("four edges", func() bool { return h.count(isEdge) >= 4 })
		var got []string
		for _, r := range h.seen {
			if isEdge(r) {
				got = append(got, r.Kind.String()+" "+r.Button.String())
			}
		}
		want := []string{"press C", "release C", "press D", "release D"}
		if !slices.Equal(got, want) {
			t.Errorf("edges = %v, want %v", got, want)
		}
	})
}

func near(a, b float32) bool { return a-b < 1e-6 && b-a < 1e-6 }

// connect connects the gamepad, skipping the test if the driver has none.
func (h *harness) connect() {
	h.t.Helper()
	h.must("connect a gamepad", h.d.Gamepad(true))
	h.await("gamepad connected", func() bool {
		return h.state.Gamepad.Connected && h.saw(func(r input.Record) bool { return r.Kind == input.RecordGamepad && r.Connected })
	})
}

// awaitAxis waits for a to reach v in the state and in a record.
func (h *harness) awaitAxis(a input.Axis, v float32) {
	h.t.Helper()
	h.await(fmt.Sprintf("%v at %v", a, v), func() bool {
		return near(h.state.Gamepad.Axes[a], v) && h.saw(func(r input.Record) bool {
			return r.Kind == input.RecordAxis && r.Axis == a && near(float32(r.X), v)
		})
	})
}

// checkNeutralPad fails the test if a gamepad button is down or an axis is
// off centre.
func (h *harness) checkNeutralPad(when string) {
	h.t.Helper()
	for _, b := range h.state.Down.AppendTo(nil) {
		if b.Device() == input.Gamepad {
			h.t.Errorf("%s: %v still down", when, b)
		}
	}
	for a := input.Axis(1); int(a) <= input.AxisCount; a++ {
		if v := h.state.Gamepad.Axes[a]; v != 0 {
			h.t.Errorf("%s: %v at %v, want 0", when, a, v)
		}
	}
}

func isEdge(r input.Record) bool {
	return r.Kind == input.RecordPress || r.Kind == input.RecordRelease
}

// syncedSource is a source polled the way a runtime polls it: the
// source, then the window sampled with the poll through an
// [input.WindowSync].
type syncedSource struct {
	src    input.Source
	window input.Window
	sync   input.WindowSync
}

func (s *syncedSource) Poll(now timing.Instant, dst *input.Snapshot) {
	s.src.Poll(now, dst)
	s.sync.Apply(dst, s.window)
}

// harness polls the driver's source and checks every snapshot.
type harness struct {
	t     *testing.T
	d     Driver
	src   input.Source // d.Source() unless a subtest wraps it
	snap  input.Snapshot
	state input.State
	prev  timing.Instant
	polls int
	seen  []input.Record // records since the last mark
}

func newHarness(t *testing.T, d Driver) *harness {
	h := &harness{t: t, d: d}
	h.poll()
	return h
}

func (h *harness) must(what string, err error) {
	h.t.Helper()
	if errors.Is(err, ErrUnsupported) {
		h.t.Skipf("%s: %v", what, err)
	}
	if err != nil {
		h.t.Fatalf("%s: %v", what, err)
	}
}

func (h *harness) skipIf(err error) {
	h.t.Helper()
	h.must("driver", err)
}

// focus makes sure the window has focus and forgets what was seen so far.
func (h *harness) focus() {
	h.t.Helper()
	if err := h.d.Focus(true); err != nil && !errors.Is(err, ErrUnsupported) {
		h.t.Fatalf("focus: %v", err)
	}
	h.await("focus", func() bool { return h.state.Window.Focused })
	h.seen = h.seen[:0]
}

// poll polls once and checks the snapshot against the previous one.
func (h *harness) poll() {
	h.t.Helper()
	now := h.d.Now()
	src := h.src
	if src == nil {
		src = h.d.Source()
	}
	src.Poll(now, &h.snap)
	s := &h.snap
	if s.Time < now {
		h.t.Errorf("poll %d: snapshot time %v before the poll's now %v", h.polls, s.Time, now)
	}
	if h.polls > 0 && s.Time < h.prev {
		h.t.Errorf("poll %d: snapshot time %v before the previous snapshot's %v", h.polls, s.Time, h.prev)
	}
	st := h.state
	last := h.prev
	for i, r := range s.Records {
		if r.Time < last {
			h.t.Errorf("poll %d record %d (%v): timestamp before %v", h.polls, i, r, last)
		}
		if r.Time > s.Time {
			h.t.Errorf("poll %d record %d (%v): timestamp after the snapshot's %v", h.polls, i, r, s.Time)
		}
		last = r.Time
		switch r.Kind {
		case input.RecordPress:
			if st.Down.Has(r.Button) {
				h.t.Errorf("poll %d record %d (%v): press of a button already down", h.polls, i, r)
			}
		case input.RecordRelease:
			if !st.Down.Has(r.Button) {
				h.t.Errorf("poll %d record %d (%v): release of a button already up", h.polls, i, r)
			}
		case input.RecordAxis:
			lo, hi := r.Axis.Range()
			if !r.Axis.Valid() || !(r.X >= float64(lo) && r.X <= float64(hi)) {
				h.t.Errorf("poll %d record %d (%v): not a valid axis within its range", h.polls, i, r)
			}
		case input.RecordGamepad:
			if r.Connected == st.Gamepad.Connected {
				h.t.Errorf("poll %d record %d (%v): the connection did not change", h.polls, i, r)
			}
		}
		st.Apply(&r)
	}
	if st != s.State {
		h.t.Errorf("poll %d: State %+v, want the previous State with the records applied: %+v", h.polls, s.State, st)
	}
	h.state = s.State
	h.prev = s.Time
	h.polls++
	h.seen = append(h.seen, s.Records...)
}

// await polls until cond holds, failing if the driver gives up.
func (h *harness) await(what string, cond func() bool) {
	h.t.Helper()
	for attempt := 0; !cond(); attempt++ {
		if !h.d.Wait(attempt) {
			h.t.Fatalf("gave up waiting for %s after %d polls; records seen: %s", what, attempt, h.describe())
		}
		h.poll()
	}
}

func (h *harness) describe() string {
	var sb strings.Builder
	for _, r := range h.seen {
		sb.WriteString("\n\t")
		sb.WriteString(r.String())
	}
	return sb.String()
}

func (h *harness) saw(f func(input.Record) bool) bool { return h.index(f) >= 0 }

func (h *harness) sawEdge(k input.RecordKind, b input.Button) bool {
	return h.saw(func(r input.Record) bool { return r.Kind == k && r.Button == b })
}

func (h *harness) index(f func(input.Record) bool) int {
	return slices.IndexFunc(h.seen, f)
}

func (h *harness) count(f func(input.Record) bool) int {
	n := 0
	for _, r := range h.seen {
		if f(r) {
			n++
		}
	}
	return n
}
