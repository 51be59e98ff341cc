package glfwplatform_test

import (
	"flag"
	"os"
	goruntime "runtime"
	"testing"

	"github.com/metronome-go/metronome/internal/testdisplay"
)

// GLFW must run on the main thread: lock it here and run window work from
// TestMain's goroutine, which serves testdisplay.OnMain requests while the
// tests run.
func init() { goruntime.LockOSThread() }

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(testdisplay.ServeMain(m))
}
