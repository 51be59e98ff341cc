//go:build !js

package gltest

import (
	"flag"
	"fmt"
	"runtime"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/metronome-go/metronome/internal/testdisplay"
	"github.com/metronome-go/metronome/render2d/glrender"
)

// The shared window, opened by Main on the main thread. Its context is left
// current on no thread; Use lends it to one test at a time.
var (
	displayErr error = fmt.Errorf("gltest: Main was not called from TestMain")
	window     *glfw.Window
	fbW, fbH   int
)

// Main starts a display, opens one hidden-to-nobody, non-resizable window of
// width x height with an OpenGL 4.1 core context, releases the context, runs
// the tests and tears everything down, returning the exit code for os.Exit.
// Call it from TestMain in a package whose init locks the OS thread: GLFW
// must run on the main thread. When no display or context can be had the
// tests still run, and Use skips them (fails them in CI).
func Main(m *testing.M, width, height int, title string) int {
	flag.Parse()
	d, err := testdisplay.Start()
	if err == nil {
		err = openWindow(width, height, title)
	}
	displayErr = err
	code := m.Run()
	if window != nil {
		window.Destroy()
		glfw.Terminate()
		window = nil
	}
	if d != nil {
		d.Close()
	}
	return code
}

func openWindow(width, height int, title string) error {
	if err := glfw.Init(); err != nil {
		return fmt.Errorf("gltest: glfw.Init: %w", err)
	}
	glfw.WindowHint(glfw.ContextVersionMajor, 4)
	glfw.WindowHint(glfw.ContextVersionMinor, 1)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	glfw.WindowHint(glfw.Resizable, glfw.False)
	w, err := glfw.CreateWindow(width, height, title, nil, nil)
	if err != nil {
		glfw.Terminate()
		return fmt.Errorf("gltest: glfw.CreateWindow %dx%d: %w", width, height, err)
	}
	window = w
	fbW, fbH = w.GetFramebufferSize()
	glfw.DetachCurrentContext()
	return nil
}

// Use makes the shared window's context current on the calling test's
// thread, locked until the test ends; without a display or context it skips
// the test (fails it in CI, see [testdisplay.Unavailable]). A subtest whose
// parent already holds the context on the same thread keeps it, and leaves
// it current for the parent at its own cleanup.
func Use(tb testing.TB) {
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

// Renderer returns a new renderer on the shared window (see [Use]), sized to
// its framebuffer and closed when the test ends.
func Renderer(tb testing.TB) *glrender.Renderer {
	tb.Helper()
	Use(tb)
	r, err := glrender.New()
	if err != nil {
		tb.Fatalf("glrender.New: %v", err)
	}
	r.SetFramebufferSize(fbW, fbH)
	tb.Cleanup(func() { r.Close() })
	return r
}

// FramebufferSize returns the shared window's framebuffer size in pixels
// (0, 0 before Main has opened it).
func FramebufferSize() (w, h int) { return fbW, fbH }
