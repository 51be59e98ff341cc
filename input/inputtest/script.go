package inputtest

import (
	"slices"
	"sync"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// Script is an [input.Source] that replays scripted events: keys, mouse
// and gamepad buttons, gamepad axes and connections, cursor, scroll, text,
// and the window's facts (focus, sizes, content scale, visibility, mode).
// Each event has an instant; a Poll at now delivers, in time order (ties in
// the order they were scripted), every event due at or before now, through an
// [input.Recorder], so scripted snapshots obey the same rules as real ones
// (a focus loss releases held buttons, impossible edges are dropped).
//
// In a session, an event reaches the game as a real one does: the first
// poll at or after its instant delivers it, with its own timestamp, and the
// next update takes it (in frameworktest, input scripted while a Step is
// paused, for the clock's reading or earlier, reaches the next update).
//
// Events may be scripted before or while polling, from any goroutine. The
// zero Script is ready to use.
type Script struct {
	mu     sync.Mutex
	rec    input.Recorder
	events []event
	seq    int
}

type event struct {
	at    timing.Instant
	seq   int
	apply func(r *input.Recorder, at timing.Instant)
}

// NewScript returns an empty script.
func NewScript() *Script { return &Script{} }

func (s *Script) add(at timing.Instant, f func(r *input.Recorder, at timing.Instant)) *Script {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := event{at: at, seq: s.seq, apply: f}
	s.seq++
	i, _ := slices.BinarySearchFunc(s.events, e, func(a, b event) int {
		switch {
		case a.at < b.at:
			return -1
		case a.at > b.at:
			return 1
		case a.seq < b.seq:
			return -1
		case a.seq > b.seq:
			return 1
		}
		return 0
	})
	s.events = slices.Insert(s.events, i, e)
	return s
}

// Init describes the platform state found at attach time (see
// [input.Recorder.Init]).
func (s *Script) Init(at timing.Instant, st input.State) *Script {
	return s.add(at, func(r *input.Recorder, at timing.Instant) { r.Init(at, st) })
}

// Press scripts b going down at at.
func (s *Script) Press(at timing.Instant, b input.Button) *Script {
	return s.add(at, func(r *input.Recorder, at timing.Instant) { r.Press(at, b) })
}

// Release scripts b going up at at.
func (s *Script) Release(at timing.Instant, b input.Button) *Script {
	return s.add(at, func(r *input.Recorder, at timing.Instant) { r.Release(at, b) })
}

// Tap scripts a press of b at at and its release d later.
func (s *Script) Tap(at timing.Instant, b input.Button, d time.Duration) *Script {
	return s.Press(at, b).Release(at.AddSaturating(d), b)
}

// Cursor scripts the cursor moving to (x, y).
func (s *Script) Cursor(at timing.Instant, x, y float64) *Script {
	return s.add(at, func(r *input.Recorder, at timing.Instant) { r.Cursor(at, x, y) })
}

// Scroll scripts a scroll of (dx, dy).
func (s *Script) Scroll(at timing.Instant, dx, dy float64) *Script {
	return s.add(at, func(r *input.Recorder, at timing.Instant) { r.Scroll(at, dx, dy) })
}

// Text scripts each rune of text being typed at at.
func (s *Script) Text(at timing.Instant, text string) *Script {
	for _, c := range text {
		s.add(at, func(r *input.Recorder, at timing.Instant) { r.Text(at, c) })
	}
	return s
}

// Axis scripts gamepad axis a moving to v (see [input.Recorder.Axis]).
func (s *Script) Axis(at timing.Instant, a input.Axis, v float32) *Script {
	return s.add(at, func(r *input.Recorder, at timing.Instant) { r.Axis(at, a, v) })
}

// Gamepad scripts the gamepad being connected or disconnected; a disconnect
// releases its buttons and centres its axes (see [input.Recorder.Gamepad]).
func (s *Script) Gamepad(at timing.Instant, connected bool) *Script {
	return s.add(at, func(r *input.Recorder, at timing.Instant) { r.Gamepad(at, connected) })
}

// Focus scripts a focus change.
func (s *Script) Focus(at timing.Instant, focused bool) *Script {
	return s.add(at, func(r *input.Recorder, at timing.Instant) { r.Focus(at, focused) })
}

// WindowSize scripts the window's logical size changing to w x h.
func (s *Script) WindowSize(at timing.Instant, w, h int) *Script {
	return s.add(at, func(r *input.Recorder, at timing.Instant) { r.WindowSize(at, w, h) })
}

// FramebufferSize scripts the framebuffer changing to w x h pixels.
func (s *Script) FramebufferSize(at timing.Instant, w, h int) *Script {
	return s.add(at, func(r *input.Recorder, at timing.Instant) { r.FramebufferSize(at, w, h) })
}

// ContentScale scripts the window's content scale changing to (x, y).
func (s *Script) ContentScale(at timing.Instant, x, y float32) *Script {
	return s.add(at, func(r *input.Recorder, at timing.Instant) { r.ContentScale(at, x, y) })
}

// WindowHidden scripts the window being hidden (true) or shown.
func (s *Script) WindowHidden(at timing.Instant, hidden bool) *Script {
	return s.add(at, func(r *input.Recorder, at timing.Instant) { r.WindowHidden(at, hidden) })
}

// WindowMinimized scripts the window being minimised (true) or restored.
func (s *Script) WindowMinimized(at timing.Instant, minimized bool) *Script {
	return s.add(at, func(r *input.Recorder, at timing.Instant) { r.WindowMinimized(at, minimized) })
}

// WindowFullscreen scripts the window going fullscreen (true) or back to a
// window.
func (s *Script) WindowFullscreen(at timing.Instant, fullscreen bool) *Script {
	return s.add(at, func(r *input.Recorder, at timing.Instant) { r.WindowFullscreen(at, fullscreen) })
}

// Pending returns the number of scripted events not yet delivered.
func (s *Script) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.events)
}

// Poll implements [input.Source]: it delivers the events due at or before
// now and flushes them into dst.
func (s *Script) Poll(now timing.Instant, dst *input.Snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for n < len(s.events) && s.events[n].at <= now {
		s.events[n].apply(&s.rec, s.events[n].at)
		n++
	}
	s.events = slices.Delete(s.events, 0, n)
	s.rec.Flush(now, dst)
}
