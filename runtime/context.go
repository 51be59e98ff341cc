package runtime

import (
	"errors"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
)

// WindowState is what the platform samples from the window after processing
// events. The runtime copies it into ticks as values; the simulation never
// reads a live window.
type WindowState struct {
	// Window holds the window's facts: logical and framebuffer sizes,
	// content scale, focus, visibility (hidden, minimised) and whether it
	// is fullscreen. The runtime sends it with every poll's input, so
	// ticks see it together with the input it was sampled with
	// ([TickContext.Window]). While it is not [input.Window.Visible] the
	// runtime slows to its hidden rate and presents nothing; how it
	// treats a window without focus is the [FocusPolicy]'s choice.
	input.Window
	// CloseRequested is the user's intent to close the window (its close
	// button, the window manager's close). Each rising edge, false at one
	// sample and true at the next, is one request to the session's
	// [ShutdownEndpoint]: an adapter reports a press as true at one sample
	// and false again afterwards, so that a close the policy refused can
	// be asked again by pressing again. An intent that stays true is one
	// press.
	CloseRequested bool
}

// Display owns the window system and the game's window. All methods run on
// the platform thread.
type Display interface {
	// PollEvents processes pending window-system events. Input callbacks
	// run inside it.
	PollEvents()
	// State samples the window's facts and close intent.
	State() WindowState
	// Close destroys the window and releases the window system. The runtime
	// calls it last, after the presenter and the renderer have closed.
	Close() error
}

// Presenter owns the graphics context of the window.
type Presenter interface {
	// Init makes the graphics context current on the calling (platform)
	// thread and prepares presentation (entry points, swap interval). It
	// runs before the game's InitPlatform so that the game can upload
	// assets.
	Init() error
	// Present shows the frame the renderer has just drawn (a buffer swap).
	Present() error
	// Close releases the context. The window itself stays until
	// [Display.Close].
	Close() error
}

// RefreshPresenter is a [Presenter] whose presents wait for the display's
// refresh (vsync), as glfwplatform's Presenter does with vsync on. The
// runtime asks once, after Init, so that variable timing can follow the
// refresh ([Options.FollowPresentation]).
type RefreshPresenter interface {
	Presenter
	// RefreshInterval returns the interval between the display's
	// refreshes that presents wait for, or 0 when presents do not wait
	// (vsync off) or the refresh is unknown. Platform thread only.
	RefreshInterval() time.Duration
}

// Input is the session's input adapter: an [input.Source] the runtime polls
// on the platform thread through its [input.Queue], right after
// [Display.PollEvents]. Init, Poll and Close all run on the platform thread.
type Input interface {
	input.Source
	// Init attaches to the window (callbacks). It runs before the game's
	// InitPlatform.
	Init() error
	// Close detaches from the window. It runs before the window is
	// destroyed.
	Close() error
}

// Resources is an optional resource backend (texture caches, atlases) kept
// alive until every frame and game resource has been released.
type Resources interface {
	Close() error
}

// Adapters are the adapters of one session: display and window, input,
// renderer, presentation and resources. Display, Presenter and Renderer
// are required; Input and Resources may be nil (no input, no backend).
//
// A context serves one session: the runtime that runs it closes every
// adapter when Run returns. A context that never ran is released with
// [Adapters.Close].
type Adapters struct {
	Display   Display
	Input     Input
	Renderer  render2d.Renderer
	Presenter Presenter
	Resources Resources
	// Platform is what the platform chose and measured at start, for the
	// timing report's platform section; its zero value says nothing.
	Platform PlatformReport

	claimed atomic.Bool
}

// ErrAdaptersUsed is returned when adapters are given to a second runtime
// or closed twice.
var ErrAdaptersUsed = errors.New("runtime: adapters already served a session")

// validate reports every missing required adapter.
func (c *Adapters) validate() error {
	if c == nil {
		return errors.New("runtime: context is nil")
	}
	var errs []error
	if c.Display == nil {
		errs = append(errs, errors.New("runtime: Adapters.Display is nil, want a display adapter"))
	}
	if c.Presenter == nil {
		errs = append(errs, errors.New("runtime: Adapters.Presenter is nil, want a presentation adapter"))
	}
	if c.Renderer == nil {
		errs = append(errs, errors.New("runtime: Adapters.Renderer is nil, want a renderer"))
	}
	return errors.Join(errs...)
}

// Close releases a context that no runtime has run: input, resources,
// renderer, presenter and display, in that order, joining their errors. It
// returns [ErrAdaptersUsed] if a runtime claimed the context (the runtime
// closes it) and does nothing on a second call. Platform thread only.
func (c *Adapters) Close() error {
	if !c.claimed.CompareAndSwap(false, true) {
		return ErrAdaptersUsed
	}
	var errs []error
	if c.Input != nil {
		errs = append(errs, guard(c.Input.Close))
	}
	if c.Resources != nil {
		errs = append(errs, guard(c.Resources.Close))
	}
	if c.Renderer != nil {
		errs = append(errs, guard(c.Renderer.Close))
	}
	if c.Presenter != nil {
		errs = append(errs, guard(c.Presenter.Close))
	}
	if c.Display != nil {
		errs = append(errs, guard(c.Display.Close))
	}
	return errors.Join(errs...)
}
