//go:build !linux

package xvfb

// Display is the display a program may use. Off Linux it is the desktop
// the program runs in: there is no X server to find or start.
type Display struct {
	// Name is empty: windows open on the desktop.
	Name string
}

// Started reports false: no private server is ever started here.
func (d *Display) Started() bool { return false }

// Close does nothing.
func (d *Display) Close() error { return nil }

// Start returns the desktop. Windows and macOS always have one for a
// window (a hidden one for a headless run), so there is nothing to start
// and nothing can fail.
func Start() (*Display, error) { return &Display{}, nil }
