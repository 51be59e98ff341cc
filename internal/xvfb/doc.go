// Package xvfb finds an X display for a program or test: the one in DISPLAY
// when its socket exists, otherwise a private Xvfb server started with a
// free display number. The demo uses it to run headless on a machine with
// no display; tests use it through internal/testdisplay.
//
// X displays are Linux's: on Windows and macOS [Start] returns the desktop
// the program runs in, with an empty name, and starts nothing.
package xvfb
