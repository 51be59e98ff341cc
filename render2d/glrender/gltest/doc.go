//go:build !js

// Package gltest is the shared harness for tests that draw with OpenGL:
// one hidden window per test binary, lent to each test in turn, and golden
// image comparison with a tolerance.
//
// # The window
//
// GLFW must run on the process's main thread, so the test package locks it
// in init and calls [Main] from TestMain. Main starts a display (see
// internal/testdisplay), opens one window with an OpenGL 4.1 core context
// at the requested size and releases the context. A test then calls [Use]
// or [Renderer], which make the context current on the test's own locked
// thread until it ends, so a test may stop with t.Fatal without touching
// the main goroutine. Without a display the test skips, or fails when the
// CI environment variable is set.
//
// # Golden images
//
// [CompareGolden] checks an image read back from the framebuffer against a
// PNG in a testdata directory. Drivers rasterise edges slightly
// differently, so each package passes its own per-channel tolerance and the
// fraction of pixels allowed to differ; with update set it rewrites the
// golden instead. Each package keeps its own -update flag and passes it in.
//
// # Use
//
//	func init() { runtime.LockOSThread() }
//
//	var update = flag.Bool("update", false, "rewrite the golden images in testdata/")
//
//	func TestMain(m *testing.M) { os.Exit(gltest.Main(m, 128, 128, "my test")) }
//
//	func TestDraw(t *testing.T) {
//		r := gltest.Renderer(t)
//		// ... r.Render(frame) ...
//		w, h := gltest.FramebufferSize()
//		img, err := r.ReadPixels(render2d.TargetHandle{}, image.Rect(0, 0, w, h))
//		if err != nil {
//			t.Fatal(err)
//		}
//		gltest.CompareGolden(t, "testdata", "draw", img, *update, 3, 0.005)
//	}
package gltest
