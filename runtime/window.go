package runtime

import "errors"

// FullscreenDisplay is a [Display] that can switch its window between
// fullscreen and a window while the session runs, as glfwplatform's
// Display does. The runtime reaches it through
// [GameRuntime.SetFullscreen]; a display without it stays as it is.
type FullscreenDisplay interface {
	Display
	// SetFullscreen puts the window on its monitor in fullscreen mode
	// (true), or back into a window of the size and place it had (false).
	// The window's facts report the new mode from the next sample on
	// ([input.Window.Fullscreen]). Platform thread only.
	SetFullscreen(on bool) error
}

// ErrNoFullscreen is the result of [GameRuntime.SetFullscreen] when the
// session's display is not a [FullscreenDisplay].
var ErrNoFullscreen = errors.New("runtime: the display cannot switch between fullscreen and a window (it is not a FullscreenDisplay)")

// SetFullscreen asks the display to go fullscreen (true) or back to a
// window, on the platform thread at the start of its next cycle, and
// returns the future of its answer: [ErrNoFullscreen] for a display that
// cannot. Ticks see the new mode with the window's facts from the poll
// after the switch ([TickContext.Window]), together with the new sizes.
// Safe from any goroutine; an update must not wait for the future (see
// [Future]).
func (r *GameRuntime) SetFullscreen(on bool) *Future[struct{}] {
	return r.dispatcher.Do(func() error {
		d, ok := r.adapters.Display.(FullscreenDisplay)
		if !ok {
			return ErrNoFullscreen
		}
		return d.SetFullscreen(on)
	})
}
