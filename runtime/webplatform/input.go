//go:build js && wasm

package webplatform

import (
	"syscall/js"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// eventKind is what an event the page's listeners queued says.
type eventKind uint8

const (
	evPress eventKind = iota
	evRelease
	evCursor
	evScroll
	evText
	evFocus
	evSize
	evFramebuffer
)

// event is one page event, queued by a listener and recorded at the next
// poll with the instant of its own timeStamp.
type event struct {
	kind   eventKind
	at     timing.Instant
	button input.Button
	x, y   float64
	r      rune
	on     bool
}

// Source records the page's keyboard, mouse, wheel and touch events into
// the same timestamped records the desktop's glfwinput produces: each
// record carries the instant of its event's timeStamp. It is the
// runtime's input adapter; its methods run on the platform goroutine.
//
// A touch is the left mouse button at the touch's place (the first touch
// only). The gamepad is the first pad with the Gamepad API's standard
// mapping, read at every poll and stamped with the pad's own timestamp.
type Source struct {
	d        *Display
	rec      input.Recorder
	perf     js.Value
	pad      *gamepad
	attached bool
	keyed    int // how many key and mouse button records the page delivered
	padded   int // how many gamepad records (connection, buttons, axes)
}

func newSource(d *Display) *Source {
	return &Source{d: d, perf: js.Global().Get("performance"), pad: newGamepad()}
}

// Init describes the page's state (sizes, focus) and installs the
// listeners.
func (s *Source) Init() error {
	if s.attached {
		return nil
	}
	s.attached = true
	var st input.State
	st.Window = s.d.state.Window
	s.rec.Init(timing.Now(), st)
	c, win := s.d.canvas, js.Global()
	s.d.listen(win, "keydown", s.onKey(true))
	s.d.listen(win, "keyup", s.onKey(false))
	s.d.listen(c, "mousedown", s.onMouse(true))
	s.d.listen(win, "mouseup", s.onMouse(false))
	s.d.listen(c, "mousemove", func(e js.Value) {
		s.d.push(event{kind: evCursor, at: eventInstant(e, s.perf), x: e.Get("offsetX").Float(), y: e.Get("offsetY").Float()})
	})
	s.d.listen(c, "wheel", func(e js.Value) {
		e.Call("preventDefault")
		// GLFW's scroll is in lines, up positive; the page's wheel is
		// down positive, in pixels, lines or pages (deltaMode 0, 1, 2).
		per := [3]float64{100, 3, 1}
		m := e.Get("deltaMode").Int()
		if m < 0 || m > 2 {
			m = 0
		}
		s.d.push(event{kind: evScroll, at: eventInstant(e, s.perf), x: -e.Get("deltaX").Float() / per[m], y: -e.Get("deltaY").Float() / per[m]})
	})
	s.d.listen(c, "contextmenu", func(e js.Value) { e.Call("preventDefault") })
	touch := func(down, up bool) func(js.Value) {
		return func(e js.Value) {
			e.Call("preventDefault")
			t := e.Get("changedTouches").Index(0)
			r := c.Call("getBoundingClientRect")
			at := eventInstant(e, s.perf)
			s.d.push(event{kind: evCursor, at: at, x: t.Get("clientX").Float() - r.Get("left").Float(), y: t.Get("clientY").Float() - r.Get("top").Float()})
			switch {
			case down:
				s.d.push(event{kind: evPress, at: at, button: input.MouseLeft})
			case up:
				s.d.push(event{kind: evRelease, at: at, button: input.MouseLeft})
			}
		}
	}
	s.d.listen(c, "touchstart", touch(true, false))
	s.d.listen(c, "touchmove", touch(false, false))
	s.d.listen(c, "touchend", touch(false, true))
	s.d.listen(c, "touchcancel", touch(false, true))
	return nil
}

func (s *Source) onKey(down bool) func(js.Value) {
	return func(e js.Value) {
		s.d.requestFullscreen() // a key is a gesture
		b, ok := keyCodes[e.Get("code").String()]
		at := eventInstant(e, s.perf)
		if ok {
			// The page must not scroll on arrows and space, nor the
			// browser act on keys the game reads.
			e.Call("preventDefault")
			if down && e.Get("repeat").Bool() {
				b = input.ButtonNone // a held key's repeats are not presses
			}
			if b != input.ButtonNone {
				k := evRelease
				if down {
					k = evPress
				}
				s.d.push(event{kind: k, at: at, button: b})
			}
		}
		if down && !e.Get("ctrlKey").Bool() && !e.Get("metaKey").Bool() {
			if k := []rune(e.Get("key").String()); len(k) == 1 {
				s.d.push(event{kind: evText, at: at, r: k[0]})
			}
		}
	}
}

func (s *Source) onMouse(down bool) func(js.Value) {
	return func(e js.Value) {
		s.d.requestFullscreen()
		if down {
			s.d.canvas.Call("focus")
		}
		// The page numbers left, middle, right 0, 1, 2; GLFW numbers
		// left, right, middle.
		var b input.Button
		switch n := e.Get("button").Int(); n {
		case 0:
			b = input.MouseLeft
		case 1:
			b = input.MouseMiddle
		case 2:
			b = input.MouseRight
		case 3, 4:
			b = input.Mouse4 + input.Button(n-3)
		default:
			return
		}
		k := evRelease
		if down {
			k = evPress
		}
		s.d.push(event{kind: k, at: eventInstant(e, s.perf), button: b})
	}
}

// Poll implements [input.Source]: it records the events the page queued
// since the previous poll, each at its own instant, and flushes them into
// dst.
func (s *Source) Poll(now timing.Instant, dst *input.Snapshot) {
	for i := range s.d.events {
		e := &s.d.events[i]
		// An event keeps its own instant, which may precede the previous
		// poll (the browser stamps it when it sees it, up to a frame
		// before it dispatches it): the input queue counts such a record
		// from the start of the next update, and latency figures see
		// the real delay.
		at := e.at
		if at == 0 || at > now {
			at = now
		}
		switch e.kind {
		case evPress:
			s.rec.Press(at, e.button)
			s.keyed++
		case evRelease:
			s.rec.Release(at, e.button)
			s.keyed++
		case evCursor:
			s.rec.Cursor(at, e.x, e.y)
		case evScroll:
			s.rec.Scroll(at, e.x, e.y)
		case evText:
			s.rec.Text(at, e.r)
		case evFocus:
			s.rec.Focus(at, e.on)
		case evSize:
			s.rec.WindowSize(at, int(e.x), int(e.y))
		case evFramebuffer:
			s.rec.FramebufferSize(at, int(e.x), int(e.y))
		}
	}
	s.d.events = s.d.events[:0]
	before := s.rec.Pending()
	s.pad.poll(&s.rec, now, s.perf.Call("now").Float(), s.d.state.Focused)
	s.padded += s.rec.Pending() - before
	s.rec.Flush(now, dst)
}

// Close stops recording; the display removes the listeners.
func (s *Source) Close() error {
	s.attached = false
	return nil
}

// keyCodes maps KeyboardEvent.code (the physical key, whatever the
// layout, as GLFW's key codes are) to buttons.
var keyCodes = map[string]input.Button{
	"Space": input.KeySpace, "Quote": input.KeyApostrophe, "Comma": input.KeyComma, "Minus": input.KeyMinus,
	"Period": input.KeyPeriod, "Slash": input.KeySlash, "Semicolon": input.KeySemicolon, "Equal": input.KeyEqual,
	"BracketLeft": input.KeyLeftBracket, "Backslash": input.KeyBackslash, "BracketRight": input.KeyRightBracket,
	"Backquote": input.KeyGraveAccent, "IntlBackslash": input.KeyWorld1,
	"Escape": input.KeyEscape, "Enter": input.KeyEnter, "Tab": input.KeyTab, "Backspace": input.KeyBackspace,
	"Insert": input.KeyInsert, "Delete": input.KeyDelete, "ArrowRight": input.KeyRight, "ArrowLeft": input.KeyLeft,
	"ArrowDown": input.KeyDown, "ArrowUp": input.KeyUp, "PageUp": input.KeyPageUp, "PageDown": input.KeyPageDown,
	"Home": input.KeyHome, "End": input.KeyEnd, "CapsLock": input.KeyCapsLock, "ScrollLock": input.KeyScrollLock,
	"NumLock": input.KeyNumLock, "PrintScreen": input.KeyPrintScreen, "Pause": input.KeyPause,
	"NumpadDecimal": input.KeyKPDecimal, "NumpadDivide": input.KeyKPDivide, "NumpadMultiply": input.KeyKPMultiply,
	"NumpadSubtract": input.KeyKPSubtract, "NumpadAdd": input.KeyKPAdd, "NumpadEnter": input.KeyKPEnter,
	"NumpadEqual": input.KeyKPEqual, "ShiftLeft": input.KeyLeftShift, "ControlLeft": input.KeyLeftControl,
	"AltLeft": input.KeyLeftAlt, "MetaLeft": input.KeyLeftSuper, "ShiftRight": input.KeyRightShift,
	"ControlRight": input.KeyRightControl, "AltRight": input.KeyRightAlt, "MetaRight": input.KeyRightSuper,
	"ContextMenu": input.KeyMenu,
}

func init() {
	for i := range 10 {
		keyCodes["Digit"+string(rune('0'+i))] = input.Key0 + input.Button(i)
		keyCodes["Numpad"+string(rune('0'+i))] = input.KeyKP0 + input.Button(i)
	}
	for i := range 26 {
		keyCodes["Key"+string(rune('A'+i))] = input.KeyA + input.Button(i)
	}
	for i := range 24 {
		keyCodes["F"+itoa(i+1)] = input.KeyF1 + input.Button(i)
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return string(rune('0'+n/10)) + string(rune('0'+n%10))
}
