// Package glfwplatform builds a [runtime.Adapters] on GLFW and OpenGL 4.1:
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
// The display tracks sizes, content scale, iconification, visibility,
// focus and fullscreen through GLFW callbacks and its own calls instead of
// querying the X server on every poll, so a poll costs no round trip; the
// runtime sends what it samples with each poll's input, so every tick sees
// the window as of the input it consumed. A window that is minimised,
// hidden or has an empty framebuffer is not [input.Window.Visible], and the
// runtime slows to its hidden rate; what it does without focus is the
// session's [runtime.FocusPolicy].
//
// [Config] (its [window.Options]) bounds the size the user can resize the window to and may fix
// its aspect ratio (hints the window manager enforces); [Display.SetSizeLimits]
// and [Display.SetAspectRatio] change them later. [Display.SetFullscreen]
// switches between fullscreen on the window's monitor and a window, on the
// main thread; the simulation asks for it with
// [runtime.GameRuntime.SetFullscreen], which goes through the platform
// dispatcher.
//
// The window manager's close button becomes
// [runtime.WindowState.CloseRequested], reported once per press: true at
// the sample after the press and false again at the next, so each rising
// edge is one request to the session's [runtime.ShutdownEndpoint], whose
// policy may accept, refuse or defer it, and a refused close can be asked
// again by pressing again.
//
// # Systems
//
// The package builds for Linux (X11), Windows and macOS. Only Linux checks
// for a display before GLFW starts ([ErrNoDisplay] when DISPLAY is unset)
// and has [Display.X11Window], the window's X11 id for tools that send it
// events; Windows and macOS always have a desktop to open the window on.
//
// # Shutdown
//
// The runtime closes the adapters in order: the input source detaches its
// callbacks, the renderer frees its GPU resources while the context is still
// current, the presenter releases the context and the display destroys the
// window and terminates GLFW.
package glfwplatform
