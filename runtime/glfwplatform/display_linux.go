package glfwplatform

import "os"

// checkDisplay returns ErrNoDisplay when there is no X display: GLFW's
// X11 backend would log the failure and panic at the next call.
func checkDisplay() error {
	if os.Getenv("DISPLAY") == "" {
		return ErrNoDisplay
	}
	return nil
}

// X11Window returns the X11 window id, for tools that send it events
// (Linux only: the window is an X11 window there).
func (d *Display) X11Window() uint64 { return uint64(d.win.GetX11Window()) }
