// Package xclose asks an X11 window to close the way a window manager's
// close button does: a WM_DELETE_WINDOW client message. End-to-end tests use
// it because xdotool's windowclose destroys the window instead.
//
// It is Linux only (cgo against libX11); elsewhere the package is empty.
package xclose
