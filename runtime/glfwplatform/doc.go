// Package glfwplatform builds a [runtime.Context] on GLFW and OpenGL 4.1:
// the display (GLFW's lifetime and the window), the input adapter
// ([glfwinput.Source]), the renderer ([glrender.Renderer]) and presentation
// by buffer swap with an optional swap interval.
//
// # Threads
//
// GLFW runs on the process's main thread. Lock it in the program's init and
// call [New], [runtime.GameRuntime.Run] and every adapter method there:
//
//	func init() { goruntime.LockOSThread() }
//
//	func main() {
//		ctx, err := glfwplatform.New(glfwplatform.DefaultConfig())
//		if err != nil {
//			log.Fatal(err)
//		}
//		rt, err := runtime.New(game, ctx, runtime.DefaultOptions())
//		if err != nil {
//			ctx.Close()
//			log.Fatal(err)
//		}
//		if err := rt.Run(); err != nil {
//			log.Fatal(err)
//		}
//	}
//
// # Window state
//
// The display tracks sizes, iconification, visibility and focus through
// GLFW callbacks instead of querying the X server on every poll, so a poll
// costs no round trip. A window that is minimised, hidden or has an empty
// framebuffer reports [runtime.WindowState.Hidden], and the runtime slows to
// its hidden rate. The window manager's close button becomes
// [runtime.WindowState.CloseRequested], which the runtime answers with a
// graceful stop.
//
// # Shutdown
//
// The runtime closes the adapters in order: the input source detaches its
// callbacks, the renderer frees its GPU resources while the context is still
// current, the presenter releases the context and the display destroys the
// window and terminates GLFW.
package glfwplatform
