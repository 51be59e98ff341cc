// Package gldemo runs the Metronome demo (package demo) in a window through
// framework.Run and writes what the command line asks for: the final frame
// as a PNG, the timing report as JSON or an SVG chart, a CPU profile, and in
// benchmark mode one result line on standard output:
//
//	sprites=N frames=F seconds=S fps=X frame_ms=Y
//
// # Running without a display
//
// On Linux without DISPLAY or WAYLAND_DISPLAY, Main starts a private Xvfb
// server, runs headless for five seconds (unless --run-for or --frames says
// otherwise) and writes demo-screenshot.png, demo-timing.json and
// demo-timing.svg unless other paths were given, saying where on standard
// error.
//
// # Threads
//
// GLFW needs the process's main thread: the framework's init locks it, and
// Main and Run must be called from main (tests hand the call to TestMain's
// goroutine).
//
//	func main() { os.Exit(gldemo.Main(os.Args[1:], os.Stdout, os.Stderr)) }
package gldemo
