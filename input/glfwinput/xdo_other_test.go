//go:build !linux

package glfwinput_test

import (
	"errors"
	"runtime"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// requireEventSender skips tb: the tests send real input with xdotool
// through the X server, and this system has neither.
func requireEventSender(tb testing.TB) {
	tb.Helper()
	tb.Skipf("the tests send real input events through an X server (xdo_linux_test.go); %s has none", runtime.GOOS)
}

// windowID is never used here: requireEventSender has skipped.
func windowID(*glfw.Window) string { return "" }

// xdo is never reached here: requireEventSender has skipped.
func (w *window) xdo(...string) error {
	return errors.New("glfwinput test: no X events to send on " + runtime.GOOS)
}
