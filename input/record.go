package input

import (
	"fmt"

	"github.com/metronome-go/metronome/timing"
)

// RecordKind says what a [Record] observed.
type RecordKind uint8

// The kinds of record, each with the fields it uses.
const (
	// RecordPress: Button went down.
	RecordPress RecordKind = iota + 1
	// RecordRelease: Button went up.
	RecordRelease
	// RecordCursor: the cursor moved to (X, Y), in logical window
	// coordinates from the top-left corner.
	RecordCursor
	// RecordScroll: a scroll of (X, Y) wheel steps; positive Y is away from
	// the user.
	RecordScroll
	// RecordText: Rune was typed.
	RecordText
	// RecordFocus: the window gained (Focused) or lost keyboard focus.
	RecordFocus
	// RecordWindowSize: the window's logical size became Width x Height.
	RecordWindowSize
	// RecordFramebufferSize: the framebuffer became Width x Height pixels.
	RecordFramebufferSize
	// RecordAxis: gamepad Axis moved to the value X, within the axis's
	// [Axis.Range].
	RecordAxis
	// RecordGamepad: a gamepad was connected (Connected) or disconnected.
	RecordGamepad
	// RecordContentScale: the window's content scale became (X, Y).
	RecordContentScale
	// RecordHidden: the window was hidden (Hidden) or shown again.
	RecordHidden
	// RecordMinimized: the window was minimised (Minimized) or restored.
	RecordMinimized
	// RecordFullscreen: the window went fullscreen (Fullscreen) or back to
	// a window.
	RecordFullscreen
)

// String returns the kind's name.
func (k RecordKind) String() string {
	switch k {
	case RecordPress:
		return "press"
	case RecordRelease:
		return "release"
	case RecordCursor:
		return "cursor"
	case RecordScroll:
		return "scroll"
	case RecordText:
		return "text"
	case RecordFocus:
		return "focus"
	case RecordWindowSize:
		return "window-size"
	case RecordFramebufferSize:
		return "framebuffer-size"
	case RecordAxis:
		return "axis"
	case RecordGamepad:
		return "gamepad"
	case RecordContentScale:
		return "content-scale"
	case RecordHidden:
		return "hidden"
	case RecordMinimized:
		return "minimized"
	case RecordFullscreen:
		return "fullscreen"
	}
	return fmt.Sprintf("RecordKind(%d)", uint8(k))
}

// Record is one observation, stamped with the instant the platform delivered
// it. Records are plain values; which fields mean something depends on Kind.
type Record struct {
	Time timing.Instant
	// X and Y are the cursor position (RecordCursor), scroll offsets
	// (RecordScroll) or content scale (RecordContentScale); X is the axis
	// value (RecordAxis).
	X, Y float64
	// Width and Height are the new size (RecordWindowSize,
	// RecordFramebufferSize).
	Width, Height int32
	// Rune is the typed character (RecordText).
	Rune rune
	Kind RecordKind
	// Button is the control of a press or release.
	Button Button
	// Axis is the axis that moved (RecordAxis).
	Axis Axis
	// Focused is the new focus (RecordFocus).
	Focused bool
	// Connected is the gamepad's new connection state (RecordGamepad).
	Connected bool
	// Hidden, Minimized and Fullscreen are the window's new visibility
	// (RecordHidden), iconification (RecordMinimized) and mode
	// (RecordFullscreen).
	Hidden, Minimized, Fullscreen bool
	// Synthetic marks a record the recorder made up rather than observed:
	// the releases and centred axes sent when focus is lost or a gamepad
	// disconnects, and the records that describe the initial state at
	// [Recorder.Init]. Synthetic cursor records do not
	// count as motion.
	Synthetic bool
}

// String formats the record for test output and logs.
func (r Record) String() string {
	var body string
	switch r.Kind {
	case RecordPress, RecordRelease:
		body = r.Button.String()
	case RecordCursor, RecordScroll, RecordContentScale:
		body = fmt.Sprintf("%g,%g", r.X, r.Y)
	case RecordText:
		body = fmt.Sprintf("%q", r.Rune)
	case RecordFocus:
		body = fmt.Sprint(r.Focused)
	case RecordHidden:
		body = fmt.Sprint(r.Hidden)
	case RecordMinimized:
		body = fmt.Sprint(r.Minimized)
	case RecordFullscreen:
		body = fmt.Sprint(r.Fullscreen)
	case RecordAxis:
		body = fmt.Sprintf("%v %g", r.Axis, r.X)
	case RecordGamepad:
		body = "disconnected"
		if r.Connected {
			body = "connected"
		}
	case RecordWindowSize, RecordFramebufferSize:
		body = fmt.Sprintf("%dx%d", r.Width, r.Height)
	}
	s := fmt.Sprintf("%v %v %s", r.Time, r.Kind, body)
	if r.Synthetic {
		s += " (synthetic)"
	}
	return s
}

// State is what persists between records: which buttons are down, where the
// cursor is, the gamepad's connection and axes, and what input knows of the
// window ([Window]). It is a plain value of fixed size; copying it is cheap
// and allocation-free.
type State struct {
	Down             ButtonSet
	CursorX, CursorY float64
	Gamepad          GamepadState
	Window           Window
}

// GamepadState is the persistent state of the gamepad apart from its
// buttons, which are in [State.Down] with the others.
type GamepadState struct {
	// Connected reports whether a gamepad is connected.
	Connected bool
	// Axes holds each axis's raw value (no dead zone applied), indexed by
	// [Axis]: Axes[GamepadLeftX]. Index 0, NoAxis, is always 0.
	Axes [axisLimit]float32
}

// Size is a width and a height: logical units for a window, pixels for a
// framebuffer.
type Size struct {
	Width, Height int
}

// Scale is a window's content scale per axis: the ratio of the screen's
// density to the platform's default, so 2, 2 on a typical high-density
// screen. A user interface drawn in logical units multiplies by it to stay
// sharp. The zero Scale means the platform did not report one.
type Scale struct {
	X, Y float32
}

// Window is what input knows of the window, sampled on the platform thread
// with the input around it: its logical size, its framebuffer's size in
// pixels, its content scale, keyboard focus, visibility and mode. It
// changes only through records (RecordWindowSize, RecordFramebufferSize,
// RecordContentScale, RecordFocus, RecordHidden, RecordMinimized,
// RecordFullscreen), so a tick's Window always belongs to the same polls as
// its other input. Its zero value is a shown, unfocused window of no size.
type Window struct {
	Size, Framebuffer Size
	Scale             Scale
	Focused           bool
	// Hidden is true while the window is not shown: hidden by the program
	// (glfwplatform's Display.Hide) or by the window system.
	Hidden bool
	// Minimized is true while the window is minimised (iconified).
	Minimized bool
	// Fullscreen is true while the window covers a monitor in fullscreen
	// mode rather than sitting on the desktop as a window.
	Fullscreen bool
}

// Visible reports whether the window shows on screen: it is neither hidden
// nor minimised, and its framebuffer has an area. A runtime slows down and
// presents nothing while it is not.
func (w Window) Visible() bool {
	return !w.Hidden && !w.Minimized && w.Framebuffer.Width > 0 && w.Framebuffer.Height > 0
}

// Apply updates s with the effect of r. Scroll and text records change
// nothing: they are events, not state.
func (s *State) Apply(r *Record) {
	switch r.Kind {
	case RecordPress:
		if r.Button.Valid() {
			s.Down.Add(r.Button)
		}
	case RecordRelease:
		if r.Button.Valid() {
			s.Down.Remove(r.Button)
		}
	case RecordCursor:
		s.CursorX, s.CursorY = r.X, r.Y
	case RecordAxis:
		if r.Axis.Valid() {
			s.Gamepad.Axes[r.Axis] = r.Axis.clamp(float32(r.X))
		}
	case RecordGamepad:
		s.Gamepad.Connected = r.Connected
	default:
		s.Window.apply(r)
	}
}

// apply updates w with the effect of a window record.
func (w *Window) apply(r *Record) {
	switch r.Kind {
	case RecordFocus:
		w.Focused = r.Focused
	case RecordWindowSize:
		w.Size = Size{int(r.Width), int(r.Height)}
	case RecordFramebufferSize:
		w.Framebuffer = Size{int(r.Width), int(r.Height)}
	case RecordContentScale:
		w.Scale = Scale{float32(r.X), float32(r.Y)}
	case RecordHidden:
		w.Hidden = r.Hidden
	case RecordMinimized:
		w.Minimized = r.Minimized
	case RecordFullscreen:
		w.Fullscreen = r.Fullscreen
	}
}

// Snapshot is the result of one poll: the instant it completed, the State at
// that instant and the records observed since the previous poll, in
// observation order. A source's snapshots chain: applying a snapshot's
// Records, in order, to the previous snapshot's State gives its State (the
// first snapshot starts from the zero State). The conformance suite in
// input/inputtest checks this.
//
// A Snapshot is reused from poll to poll; Records keeps its capacity.
type Snapshot struct {
	Time    timing.Instant
	State   State
	Records []Record
}

// Reset empties the snapshot's records, keeping their capacity.
func (s *Snapshot) Reset() {
	s.Time = 0
	s.State = State{}
	s.Records = s.Records[:0]
}
