package glassets_test

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/render2d/glrender"
)

// GLFW insists on the main thread: keep the test binary's main goroutine
// on it.
func init() { runtime.LockOSThread() }

const winW, winH = 256, 192

var (
	displayErr error
	window     *glfw.Window
	fbW, fbH   int
)

// TestMain opens one window on the main thread and releases its context;
// each test then makes it current on its own locked thread (see withGL).
func TestMain(m *testing.M) {
	flag.Parse()
	d, err := testdisplay.Start()
	if err == nil {
		err = openWindow()
	}
	displayErr = err
	code := m.Run()
	if window != nil {
		window.Destroy()
		glfw.Terminate()
	}
	if d != nil {
		d.Close()
	}
	os.Exit(code)
}

func openWindow() error {
	if err := glfw.Init(); err != nil {
		return fmt.Errorf("glfw.Init: %w", err)
	}
	glfw.WindowHint(glfw.ContextVersionMajor, 4)
	glfw.WindowHint(glfw.ContextVersionMinor, 1)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	glfw.WindowHint(glfw.Resizable, glfw.False)
	w, err := glfw.CreateWindow(winW, winH, "assets golden test", nil, nil)
	if err != nil {
		glfw.Terminate()
		return fmt.Errorf("glfw.CreateWindow: %w", err)
	}
	window = w
	fbW, fbH = w.GetFramebufferSize()
	glfw.DetachCurrentContext()
	return nil
}

// withGL returns a GL renderer on the test window, current on the test's
// thread until the test ends; without a display it skips (fails in CI).
func withGL(t *testing.T) *glrender.Renderer {
	t.Helper()
	if displayErr != nil {
		testdisplay.Unavailable(t, displayErr)
	}
	runtime.LockOSThread()
	window.MakeContextCurrent()
	r, err := glrender.New()
	if err != nil {
		glfw.DetachCurrentContext()
		runtime.UnlockOSThread()
		t.Fatalf("glrender.New: %v", err)
	}
	r.SetFramebufferSize(fbW, fbH)
	t.Cleanup(func() {
		r.Close()
		glfw.DetachCurrentContext()
		runtime.UnlockOSThread()
	})
	return r
}
