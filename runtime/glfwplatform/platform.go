package glfwplatform

import (
	"errors"
	"fmt"
	"github.com/metronome-go/metronome/input"
	"os"
	goruntime "runtime"

	"github.com/go-gl/glfw/v3.3/glfw"
	"github.com/metronome-go/metronome/input/glfwinput"
	"github.com/metronome-go/metronome/render2d/glrender"
	"github.com/metronome-go/metronome/runtime"
)

// Limits of a [Config].
const (
	MaxWindowSize = 16384
)

// Config describes the window. Use [DefaultConfig]: a zero size is invalid.
type Config struct {
	// Title is the window title.
	Title string
	// Width and Height are the logical window size, 1 to MaxWindowSize.
	// Default 1280 x 720.
	Width, Height int
	// Resizable lets the user resize the window. Default true.
	Resizable bool
	// VSync sets a swap interval of 1 so each Present waits for the
	// display's refresh. Default false: the runtime paces frames itself.
	VSync bool
	// Hidden creates the window invisible for headless runs and tools: it
	// still renders at the full rate into its framebuffer. (A window the
	// user minimises, or one hidden later with [Display.Hide], is what the
	// runtime slows down for.)
	Hidden bool
	// Input configures the input source. ManualPump is always set: the
	// display pumps events once per poll.
	Input glfwinput.Options
}

// DefaultConfig returns a resizable 1280 x 720 window titled "Metronome"
// without vsync.
func DefaultConfig() Config {
	return Config{Title: "Metronome", Width: 1280, Height: 720, Resizable: true}
}

// Validate reports every invalid field at once.
func (c Config) Validate() error {
	var errs []error
	if c.Width < 1 || c.Width > MaxWindowSize {
		errs = append(errs, fmt.Errorf("glfwplatform: Config.Width %d is out of range (allowed: 1 to %d)", c.Width, MaxWindowSize))
	}
	if c.Height < 1 || c.Height > MaxWindowSize {
		errs = append(errs, fmt.Errorf("glfwplatform: Config.Height %d is out of range (allowed: 1 to %d)", c.Height, MaxWindowSize))
	}
	return errors.Join(errs...)
}

// New initialises GLFW, opens the window with an OpenGL 4.1 core context,
// makes it current, and returns a context holding the display, the input
// source, the renderer and the presenter. On error everything already
// created is released. Main thread only.
func New(cfg Config) (*runtime.Context, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := initGLFW(); err != nil {
		return nil, err
	}
	glfw.WindowHint(glfw.ContextVersionMajor, 4)
	glfw.WindowHint(glfw.ContextVersionMinor, 1)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	glfw.WindowHint(glfw.Resizable, boolHint(cfg.Resizable))
	glfw.WindowHint(glfw.Visible, boolHint(!cfg.Hidden))
	win, err := glfw.CreateWindow(cfg.Width, cfg.Height, cfg.Title, nil, nil)
	if err != nil {
		glfw.Terminate()
		return nil, fmt.Errorf("glfwplatform: creating a %dx%d window with an OpenGL 4.1 core context: %w", cfg.Width, cfg.Height, err)
	}
	d := newDisplay(win)
	win.MakeContextCurrent()
	rend, err := glrender.New()
	if err != nil {
		d.Close()
		return nil, err
	}
	opts := cfg.Input
	opts.ManualPump = true
	return &runtime.Context{
		Display:   d,
		Input:     glfwinput.New(win, opts),
		Renderer:  rend,
		Presenter: &Presenter{win: win, vsync: cfg.VSync},
	}, nil
}

// ErrNoDisplay reports that there is no X display to open a window on.
var ErrNoDisplay = errors.New("glfwplatform: no display: DISPLAY is not set; run inside a desktop session, or under Xvfb (for example: xvfb-run -a CMD --headless)")

// initGLFW initialises GLFW and resets the window hints. go-gl's Init only
// logs a platform failure (such as a missing display) and returns nil, and
// the next GLFW call then panics; this turns both into errors.
func initGLFW() (err error) {
	if goruntime.GOOS == "linux" || goruntime.GOOS == "freebsd" {
		if os.Getenv("DISPLAY") == "" {
			return ErrNoDisplay
		}
	}
	if err := glfw.Init(); err != nil {
		return fmt.Errorf("glfwplatform: initialising GLFW: %w", err)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("glfwplatform: initialising GLFW failed (see the message above): %v", r)
		}
	}()
	glfw.DefaultWindowHints() // panics with NotInitialized when Init failed
	return nil
}

func boolHint(b bool) int {
	if b {
		return glfw.True
	}
	return glfw.False
}

// Display owns GLFW and the window. It implements [runtime.Display].
type Display struct {
	win                *glfw.Window
	state              runtime.WindowState
	iconified, visible bool
	closed             bool
}

func newDisplay(win *glfw.Window) *Display {
	d := &Display{win: win, visible: true}
	w, h := win.GetSize()
	fw, fh := win.GetFramebufferSize()
	d.state.Size = input.Size{Width: w, Height: h}
	d.state.Framebuffer = input.Size{Width: fw, Height: fh}
	d.state.Focused = win.GetAttrib(glfw.Focused) == glfw.True
	d.iconified = win.GetAttrib(glfw.Iconified) == glfw.True
	// The input source chains these callbacks and restores them when it
	// detaches, so both see every event.
	win.SetSizeCallback(func(_ *glfw.Window, w, h int) { d.state.Size = input.Size{Width: w, Height: h} })
	win.SetFramebufferSizeCallback(func(_ *glfw.Window, w, h int) {
		d.state.Framebuffer = input.Size{Width: w, Height: h}
	})
	win.SetFocusCallback(func(_ *glfw.Window, f bool) { d.state.Focused = f })
	win.SetIconifyCallback(func(_ *glfw.Window, i bool) { d.iconified = i })
	return d
}

// Window returns the GLFW window for platform code that needs it (cursor
// modes, icons). Main thread only.
func (d *Display) Window() *glfw.Window { return d.win }

// PollEvents processes pending window events; callbacks run inside it.
func (d *Display) PollEvents() { glfw.PollEvents() }

// State returns the tracked window state. It makes no X server round trip.
func (d *Display) State() runtime.WindowState {
	s := d.state
	fb := s.Framebuffer
	s.Hidden = d.iconified || !d.visible || fb.Width == 0 || fb.Height == 0
	// Each press is reported once: clearing the flag lets a press after a
	// refused close (see runtime.ShutdownEndpoint) be a new request.
	if s.CloseRequested = d.win.ShouldClose(); s.CloseRequested {
		d.win.SetShouldClose(false)
	}
	return s
}

// Show makes a hidden window visible; Hide hides it. Main thread only.
func (d *Display) Show() { d.win.Show(); d.visible = true }

// Hide hides the window; the runtime slows to its hidden rate.
func (d *Display) Hide() { d.win.Hide(); d.visible = false }

// Close destroys the window and terminates GLFW. Repeated calls do nothing.
func (d *Display) Close() error {
	if d.closed {
		return nil
	}
	d.closed = true
	d.win.Destroy()
	glfw.Terminate()
	return nil
}

// X11Window returns the X11 window id, for tools that send it events.
func (d *Display) X11Window() uint64 { return uint64(d.win.GetX11Window()) }

// Presenter presents by swapping the window's buffers. It implements
// [runtime.Presenter].
type Presenter struct {
	win   *glfw.Window
	vsync bool
}

// Init makes the context current on the calling thread and sets the swap
// interval.
func (p *Presenter) Init() error {
	p.win.MakeContextCurrent()
	if p.vsync {
		glfw.SwapInterval(1)
	} else {
		glfw.SwapInterval(0)
	}
	return nil
}

// Present swaps the buffers.
func (p *Presenter) Present() error {
	p.win.SwapBuffers()
	return nil
}

// Close releases the context from the calling thread.
func (p *Presenter) Close() error {
	glfw.DetachCurrentContext()
	return nil
}
