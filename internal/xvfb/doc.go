// Package xvfb finds an X display for a program or test: the one in DISPLAY
// when its socket exists, otherwise a private Xvfb server started with a
// free display number. The demo uses it to run headless on a machine with
// no display; tests use it through internal/testdisplay.
package xvfb
