package glfwinput

import (
	"errors"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// Options configure a [Source]. The zero value is the default.
type Options struct {
	// ManualPump leaves event processing to the caller. By default Poll
	// calls glfw.PollEvents first; with ManualPump the platform loop pumps
	// events itself (glfw.PollEvents or glfw.WaitEventsTimeout) before
	// calling Poll, and callbacks fired by its pumping are recorded all the
	// same.
	ManualPump bool
	// NoGamepad disables reading gamepads.
	NoGamepad bool
	// BackgroundGamepad keeps reading the gamepad while the window is not
	// focused. By default an unfocused game ignores it, as it ignores the
	// keyboard: focus loss releases its buttons and centres its axes, and
	// they are read again when focus returns.
	BackgroundGamepad bool
	// GamepadMappings are extra gamepad mappings in SDL's
	// gamecontrollerdb.txt format, one per line, added to those built into
	// GLFW when the source attaches (a game can embed a newer
	// gamecontrollerdb.txt). Blank lines and # comments are skipped; a
	// line GLFW rejects makes Init fail, naming the line.
	GamepadMappings string
	// Now stamps records. Default timing.Now; tests may substitute a
	// clock, which must not go backwards.
	Now func() timing.Instant
}

// Source is an [input.Source] that records a GLFW window's input callbacks.
// It also has the Init and Close methods of the runtime's input adapter.
// Every method must be called on the platform thread, the thread GLFW runs
// on. A Source borrows the window: call [Source.Detach] before the window is
// destroyed.
type Source struct {
	win      *glfw.Window
	opts     Options
	rec      input.Recorder
	keyMap   [glfw.KeyLast + 1]input.Button
	pad      gamepad
	mapped   bool // GamepadMappings handed to GLFW
	attached bool

	prevKey       glfw.KeyCallback
	prevChar      glfw.CharCallback
	prevMouse     glfw.MouseButtonCallback
	prevCursor    glfw.CursorPosCallback
	prevScroll    glfw.ScrollCallback
	prevFocus     glfw.FocusCallback
	prevSize      glfw.SizeCallback
	prevFramebuff glfw.FramebufferSizeCallback
}

// New returns a source for win that is not recording yet: [Source.Init]
// attaches it. Use New when the runtime drives the adapter's lifetime (the
// runtime's Input interface: Init, Poll, Close) and [Attach] otherwise.
func New(win *glfw.Window, opts Options) *Source {
	if opts.Now == nil {
		opts.Now = timing.Now
	}
	s := &Source{win: win, opts: opts, pad: gamepad{api: glfwJoysticks{}}}
	for _, k := range keys {
		s.keyMap[k.glfw] = k.input
	}
	return s
}

// Attach is New followed by Init; it panics if win is nil. Platform thread
// only.
func Attach(win *glfw.Window, opts Options) *Source {
	s := New(win, opts)
	if err := s.Init(); err != nil {
		panic(err)
	}
	return s
}

// Init starts recording the window's input. It describes the window's
// current state first (sizes, cursor, focus, keys and mouse buttons already
// down, and a gamepad already connected with its buttons and axes) with
// synthetic records, then installs key, character, mouse button, cursor,
// scroll, focus, window size and framebuffer size callbacks. The first Init
// hands Options.GamepadMappings to GLFW.
// A callback the window already had is kept: it is called after the
// recording one and restored by [Source.Close]. Init on an attached source
// is an error; after Close it attaches again. Platform thread only.
func (s *Source) Init() error {
	if s.win == nil {
		return errors.New("glfwinput: no window to attach to (New was given a nil *glfw.Window)")
	}
	if s.attached {
		return errors.New("glfwinput: source is already attached to its window")
	}
	if !s.mapped && s.opts.GamepadMappings != "" && !s.opts.NoGamepad {
		if err := updateMappings(s.opts.GamepadMappings); err != nil {
			return err
		}
		s.mapped = true
	}
	win := s.win
	s.attached = true
	var st input.State
	st.Window.Size.Width, st.Window.Size.Height = win.GetSize()
	st.Window.Framebuffer.Width, st.Window.Framebuffer.Height = win.GetFramebufferSize()
	st.CursorX, st.CursorY = win.GetCursorPos()
	st.Window.Focused = win.GetAttrib(glfw.Focused) == glfw.True
	if st.Window.Focused {
		for _, k := range keys {
			if win.GetKey(k.glfw) == glfw.Press {
				st.Down.Add(k.input)
			}
		}
	}
	for i := glfw.MouseButton1; i <= glfw.MouseButtonLast; i++ {
		if win.GetMouseButton(i) == glfw.Press {
			st.Down.Add(mouseButton(i))
		}
	}
	if !s.opts.NoGamepad {
		s.pad.sample(&st, st.Window.Focused || s.opts.BackgroundGamepad)
	}
	s.rec.Init(s.opts.Now(), st)

	s.prevKey = win.SetKeyCallback(s.onKey)
	s.prevChar = win.SetCharCallback(s.onChar)
	s.prevMouse = win.SetMouseButtonCallback(s.onMouse)
	s.prevCursor = win.SetCursorPosCallback(s.onCursor)
	s.prevScroll = win.SetScrollCallback(s.onScroll)
	s.prevFocus = win.SetFocusCallback(s.onFocus)
	s.prevSize = win.SetSizeCallback(s.onSize)
	s.prevFramebuff = win.SetFramebufferSizeCallback(s.onFramebufferSize)
	return nil
}

// Close is Detach; it always returns nil. It lets a Source serve as the
// runtime's input adapter.
func (s *Source) Close() error {
	s.Detach()
	return nil
}

// Detach removes the callbacks, restoring those the window had before
// Init. Call it before destroying the window; further polls return the
// last known State and no records. Safe to repeat. Platform thread only.
func (s *Source) Detach() {
	if !s.attached {
		return
	}
	s.attached = false
	w := s.win
	w.SetKeyCallback(s.prevKey)
	w.SetCharCallback(s.prevChar)
	w.SetMouseButtonCallback(s.prevMouse)
	w.SetCursorPosCallback(s.prevCursor)
	w.SetScrollCallback(s.prevScroll)
	w.SetFocusCallback(s.prevFocus)
	w.SetSizeCallback(s.prevSize)
	w.SetFramebufferSizeCallback(s.prevFramebuff)
}

// Attached reports whether the source is recording.
func (s *Source) Attached() bool { return s.attached }

// Ignored returns how many impossible edges the recorder dropped (see
// [input.Recorder.Ignored]), such as the release of a key that was pressed
// before focus returned.
func (s *Source) Ignored() uint64 { return s.rec.Ignored() }

// Gamepad returns the GLFW joystick the source follows and the name of its
// gamepad mapping, or false when no gamepad is connected. Platform thread
// only.
func (s *Source) Gamepad() (glfw.Joystick, string, bool) {
	return s.pad.joy, s.pad.name, s.pad.connected
}

// Poll implements [input.Source]: it pumps GLFW events unless
// Options.ManualPump is set, reads the gamepad, and flushes everything
// recorded since the previous poll into dst. Platform thread only.
func (s *Source) Poll(now timing.Instant, dst *input.Snapshot) {
	if s.attached {
		if !s.opts.ManualPump {
			glfw.PollEvents()
		}
		if !s.opts.NoGamepad {
			use := s.rec.State().Window.Focused || s.opts.BackgroundGamepad
			s.pad.poll(&s.rec, s.opts.Now(), use)
		}
	}
	s.rec.Flush(now, dst)
}

func mouseButton(b glfw.MouseButton) input.Button {
	if b < glfw.MouseButton1 || b > glfw.MouseButton8 {
		return input.ButtonNone
	}
	return input.MouseLeft + input.Button(b-glfw.MouseButton1)
}

func (s *Source) onKey(w *glfw.Window, key glfw.Key, scancode int, action glfw.Action, mods glfw.ModifierKey) {
	if key >= 0 && int(key) < len(s.keyMap) {
		if b := s.keyMap[key]; b != input.ButtonNone {
			switch action {
			case glfw.Press:
				s.rec.Press(s.opts.Now(), b)
			case glfw.Release:
				s.rec.Release(s.opts.Now(), b)
			}
		}
	}
	if s.prevKey != nil {
		s.prevKey(w, key, scancode, action, mods)
	}
}

func (s *Source) onChar(w *glfw.Window, c rune) {
	s.rec.Text(s.opts.Now(), c)
	if s.prevChar != nil {
		s.prevChar(w, c)
	}
}

func (s *Source) onMouse(w *glfw.Window, b glfw.MouseButton, action glfw.Action, mods glfw.ModifierKey) {
	if ib := mouseButton(b); ib != input.ButtonNone {
		switch action {
		case glfw.Press:
			s.rec.Press(s.opts.Now(), ib)
		case glfw.Release:
			s.rec.Release(s.opts.Now(), ib)
		}
	}
	if s.prevMouse != nil {
		s.prevMouse(w, b, action, mods)
	}
}

func (s *Source) onCursor(w *glfw.Window, x, y float64) {
	s.rec.Cursor(s.opts.Now(), x, y)
	if s.prevCursor != nil {
		s.prevCursor(w, x, y)
	}
}

func (s *Source) onScroll(w *glfw.Window, dx, dy float64) {
	s.rec.Scroll(s.opts.Now(), dx, dy)
	if s.prevScroll != nil {
		s.prevScroll(w, dx, dy)
	}
}

func (s *Source) onFocus(w *glfw.Window, focused bool) {
	s.rec.Focus(s.opts.Now(), focused)
	if s.prevFocus != nil {
		s.prevFocus(w, focused)
	}
}

func (s *Source) onSize(w *glfw.Window, width, height int) {
	s.rec.WindowSize(s.opts.Now(), width, height)
	if s.prevSize != nil {
		s.prevSize(w, width, height)
	}
}

func (s *Source) onFramebufferSize(w *glfw.Window, width, height int) {
	s.rec.FramebufferSize(s.opts.Now(), width, height)
	if s.prevFramebuff != nil {
		s.prevFramebuff(w, width, height)
	}
}
