// Package xwin reads what an X11 window tells the window manager about
// itself, so that tests can check hints that only a window manager would
// enforce (Xvfb runs none).
//
// It is Linux only (cgo against libX11); elsewhere the package is empty.
package xwin
