package glfwplatform

import (
	"errors"
	"fmt"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/glfwinput"
	"github.com/metronome-go/metronome/render2d/glrender"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
	"github.com/metronome-go/metronome/window"
)

// Config describes the window: the platform-independent [window.Options],
// whose Validate is the one statement of their ranges (Config.Validate is
// it), and what only this platform has. Use [DefaultConfig]: a zero size is
// invalid.
type Config struct {
	window.Options
	// Hidden creates the window invisible for headless runs and tools: it
	// still renders at the full rate into its framebuffer. (A window the
	// user minimises, or one hidden later with [Display.Hide], is what the
	// runtime slows down for.)
	Hidden bool
	// Input configures the input source. ManualPump is always set: the
	// display pumps events once per poll.
	Input glfwinput.Options
}

// DefaultConfig returns [window.DefaultOptions]: a resizable 1280 x 720
// window titled "Metronome" without vsync.
func DefaultConfig() Config {
	return Config{Options: window.DefaultOptions()}
}

// New initialises GLFW, opens the window with an OpenGL 4.1 core context,
// makes it current, and returns a context holding the display, the input
// source, the renderer and the presenter. On error everything already
// created is released. Main thread only.
func New(cfg Config) (*runtime.Adapters, error) {
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
	d.SetSizeLimits(cfg.MinSize, cfg.MaxSize)
	d.SetAspectRatio(cfg.AspectRatio.Width, cfg.AspectRatio.Height)
	if cfg.Fullscreen {
		if err := d.SetFullscreen(true); err != nil {
			d.Close()
			return nil, err
		}
	}
	win.MakeContextCurrent()
	rend, err := glrender.New()
	if err == nil {
		// Before the game's clock starts: llvmpipe compiles each shader
		// variant at its first draw, which would stall the first frames.
		if err = rend.WarmUp(); err != nil {
			rend.Close()
		}
	}
	if err != nil {
		d.Close()
		return nil, err
	}
	opts := cfg.Input
	opts.ManualPump = true
	return &runtime.Adapters{
		Display:   d,
		Input:     glfwinput.New(win, opts),
		Renderer:  rend,
		Presenter: &Presenter{win: win, vsync: cfg.VSync, display: d},
		Platform: runtime.PlatformReport{
			Device:          rend.Device(),
			DrawPath:        rend.DrawPath().String(),
			ClockResolution: timing.Resolution(timing.Now, 5, 100_000),
		},
	}, nil
}

// ErrNoDisplay reports that there is no X display to open a window on. Only
// Linux returns it: Windows and macOS always have a desktop to open a
// window on.
var ErrNoDisplay = errors.New("glfwplatform: no display: DISPLAY is not set; run inside a desktop session, or under Xvfb (for example: xvfb-run -a CMD --headless)")

// initGLFW initialises GLFW and resets the window hints. go-gl's Init only
// logs a platform failure (such as a missing display) and returns nil, and
// the next GLFW call then panics; this turns both into errors.
func initGLFW() (err error) {
	if err := checkDisplay(); err != nil {
		return err
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

// Display owns GLFW and the window. It implements [runtime.Display] and
// [runtime.FullscreenDisplay]. Its methods run on the main thread.
type Display struct {
	win                *glfw.Window
	state              runtime.WindowState
	iconified, visible bool
	// windowed is where the window was before it went fullscreen.
	windowed   struct{ x, y, w, h int }
	fullscreen bool
	closed     bool
}

func newDisplay(win *glfw.Window) *Display {
	// A window created invisible (Config.Hidden, for headless runs) counts
	// as shown: it renders at the full rate. Only Hide hides it.
	d := &Display{win: win, visible: true}
	w, h := win.GetSize()
	fw, fh := win.GetFramebufferSize()
	sx, sy := win.GetContentScale()
	d.state.Size = input.Size{Width: w, Height: h}
	d.state.Framebuffer = input.Size{Width: fw, Height: fh}
	d.state.Scale = input.Scale{X: sx, Y: sy}
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
	win.SetContentScaleCallback(func(_ *glfw.Window, x, y float32) { d.state.Scale = input.Scale{X: x, Y: y} })
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
	s.Hidden, s.Minimized, s.Fullscreen = !d.visible, d.iconified, d.fullscreen
	// Each press is reported once, true at this sample and false at the
	// next: clearing the flag lets a press after a refused close (see
	// runtime.ShutdownEndpoint) be a new request.
	if s.CloseRequested = d.win.ShouldClose(); s.CloseRequested {
		d.win.SetShouldClose(false)
	}
	return s
}

// Show makes a hidden window visible; Hide hides it. Main thread only.
func (d *Display) Show() { d.win.Show(); d.visible = true }

// Hide hides the window; the runtime slows to its hidden rate.
func (d *Display) Hide() { d.win.Hide(); d.visible = false }

// SetFullscreen puts the window fullscreen (true) on the monitor that
// holds most of it, in that monitor's current video mode, or back into a
// window where it was before (false). The window's facts report the new
// mode, and the callbacks the new sizes, from the next poll on. It
// implements [runtime.FullscreenDisplay]; reach it from the simulation
// with [runtime.GameRuntime.SetFullscreen]. Main thread only.
func (d *Display) SetFullscreen(on bool) (err error) {
	if on == d.fullscreen {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("glfwplatform: switching fullscreen %v: %v", on, r)
		}
	}()
	if !on {
		r := d.windowed
		d.win.SetMonitor(nil, r.x, r.y, r.w, r.h, 0)
		d.fullscreen = false
		return nil
	}
	m := d.monitor()
	if m == nil {
		return errors.New("glfwplatform: no monitor to go fullscreen on")
	}
	mode := m.GetVideoMode()
	if mode == nil {
		return errors.New("glfwplatform: the monitor reports no video mode to go fullscreen in")
	}
	d.windowed.x, d.windowed.y = d.win.GetPos()
	d.windowed.w, d.windowed.h = d.win.GetSize()
	d.win.SetMonitor(m, 0, 0, mode.Width, mode.Height, mode.RefreshRate)
	d.fullscreen = true
	return nil
}

// Fullscreen reports whether the window is fullscreen. Main thread only.
func (d *Display) Fullscreen() bool { return d.fullscreen }

// monitor returns the monitor whose area holds most of the window, or the
// primary one.
func (d *Display) monitor() *glfw.Monitor {
	x, y := d.win.GetPos()
	w, h := d.win.GetSize()
	var best *glfw.Monitor
	area := 0
	for _, m := range glfw.GetMonitors() {
		mode := m.GetVideoMode()
		if mode == nil {
			continue
		}
		mx, my := m.GetPos()
		ow := min(x+w, mx+mode.Width) - max(x, mx)
		oh := min(y+h, my+mode.Height) - max(y, my)
		if ow > 0 && oh > 0 && ow*oh > area {
			best, area = m, ow*oh
		}
	}
	if best == nil {
		best = glfw.GetPrimaryMonitor()
	}
	return best
}

// SetSizeLimits bounds the logical size the user can resize the window
// to; a zero side has no bound. The window manager enforces it, and GLFW
// ignores it while the window is fullscreen or not resizable. Main thread
// only.
func (d *Display) SetSizeLimits(minSize, maxSize input.Size) {
	// The window system takes each bound as a pair: an open side of a
	// bound that is set becomes 1 (minimum) or window.MaxSide (maximum).
	pair := func(s input.Size, open int) (int, int) {
		switch {
		case s.Width <= 0 && s.Height <= 0:
			return glfw.DontCare, glfw.DontCare
		case s.Width <= 0:
			return open, s.Height
		case s.Height <= 0:
			return s.Width, open
		}
		return s.Width, s.Height
	}
	minW, minH := pair(minSize, 1)
	maxW, maxH := pair(maxSize, window.MaxSide)
	d.win.SetSizeLimits(minW, minH, maxW, maxH)
}

// SetAspectRatio keeps the window's width:height ratio at w:h while the
// user resizes it; 0, 0 frees it. Like the size limits, it holds while the
// window is resizable and not fullscreen. Main thread only.
func (d *Display) SetAspectRatio(w, h int) {
	if w <= 0 || h <= 0 {
		w, h = glfw.DontCare, glfw.DontCare
	}
	d.win.SetAspectRatio(w, h)
}

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

// Presenter presents by swapping the window's buffers. It implements
// [runtime.Presenter] and [runtime.RefreshPresenter].
type Presenter struct {
	win     *glfw.Window
	vsync   bool
	display *Display
}

// RefreshInterval returns the refresh interval of the monitor that holds
// most of the window when vsync is on, 0 when it is off or the monitor
// does not say. Main thread only.
func (p *Presenter) RefreshInterval() time.Duration {
	if !p.vsync || p.display == nil {
		return 0
	}
	m := p.display.monitor()
	if m == nil {
		return 0
	}
	mode := m.GetVideoMode()
	if mode == nil || mode.RefreshRate <= 0 {
		return 0
	}
	return time.Second / time.Duration(mode.RefreshRate)
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
