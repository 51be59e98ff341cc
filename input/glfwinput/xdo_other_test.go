//go:build !linux

package glfwinput_test

import (
	"runtime"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// requireEventSender skips tb: the tests send real input with xdotool
// through the X server, and this system has neither.
func requireEventSender(tb testing.TB) {
	tb.Helper()
	tb.Skipf("real input events are sent with xdotool through X11, which %s does not have", runtime.GOOS)
}

// windowID is never used here: requireEventSender has skipped.
func windowID(*glfw.Window) string { return "" }
