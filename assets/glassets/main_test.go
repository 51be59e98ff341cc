package glassets_test

import (
	"os"
	"runtime"
	"testing"

	"github.com/metronome-go/metronome/render2d/glrender/gltest"
)

// GLFW insists on the main thread: keep the test binary's main goroutine
// on it.
func init() { runtime.LockOSThread() }

// TestMain opens one 256x192 window on the main thread and releases its
// context; each test then makes it current on its own locked thread through
// gltest.Renderer.
func TestMain(m *testing.M) {
	os.Exit(gltest.Main(m, 256, 192, "assets golden test"))
}
