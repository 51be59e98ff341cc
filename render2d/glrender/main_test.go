package glrender_test

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

func init() { runtime.LockOSThread() }

const winSize = 128

var (
	displayErr error
	window     *glfw.Window
	fbW, fbH   int
)

// TestMain opens one hidden-from-nobody 128x128 window under Xvfb on the
// main thread, where GLFW must run. Tests then borrow its context on their
// own locked threads through useGL: GL calls only need the context current
// on the calling thread, and a test may then fail with t.Fatal without
// killing the main goroutine.
func TestMain(m *testing.M) {
	flag.Parse()
	d, err := testdisplay.Start()
	if err == nil {
		defer d.Close()
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
	w, err := glfw.CreateWindow(winSize, winSize, "glrender test", nil, nil)
	if err != nil {
		glfw.Terminate()
		return fmt.Errorf("glfw.CreateWindow: %w", err)
	}
	window = w
	fbW, fbH = w.GetFramebufferSize()
	glfw.DetachCurrentContext()
	return nil
}

// useGL makes the test window's context current on the test's thread
// until the test ends, or skips (fails in CI) without a display.
func useGL(tb testing.TB) {
	tb.Helper()
	if displayErr != nil {
		testdisplay.Unavailable(tb, displayErr)
	}
	runtime.LockOSThread()
	if glfw.GetCurrentContext() == window { // a parent test lent it already
		tb.Cleanup(runtime.UnlockOSThread)
		return
	}
	window.MakeContextCurrent()
	tb.Cleanup(func() {
		glfw.DetachCurrentContext()
		runtime.UnlockOSThread()
	})
}

// newRenderer returns a renderer for the test window, closed at the end
// of the test.
func newRenderer(tb testing.TB) *glrender.Renderer {
	tb.Helper()
	useGL(tb)
	r, err := glrender.New()
	if err != nil {
		tb.Fatalf("glrender.New: %v", err)
	}
	r.SetFramebufferSize(fbW, fbH)
	tb.Cleanup(func() { r.Close() })
	return r
}
