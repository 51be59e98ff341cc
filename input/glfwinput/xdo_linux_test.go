package glfwinput_test

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/metronome-go/metronome/internal/testdisplay"
)

// requireEventSender ends tb through testdisplay.Unavailable when xdotool,
// which sends the tests' real X events, is missing.
func requireEventSender(tb testing.TB) {
	tb.Helper()
	if _, err := exec.LookPath("xdotool"); err != nil {
		testdisplay.Unavailable(tb, fmt.Errorf("xdotool is needed to send real X events (scripts/setup.sh installs it): %w", err))
	}
}

// windowID is the X11 window id xdotool names a window by.
func windowID(w *glfw.Window) string { return fmt.Sprint(uint64(w.GetX11Window())) }

// xdo runs xdotool, which sends events through the X server's XTEST
// extension exactly as a physical device would.
func (w *window) xdo(args ...string) error {
	out, err := exec.Command("xdotool", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("xdotool %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}
