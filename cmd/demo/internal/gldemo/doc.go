// Package gldemo runs the Metronome demo (package demo) in a window through
// framework.Run and writes what the command line asks for: the final frame
// as a PNG (framework.RunOptions.Screenshot), the timing report as JSON or
// an SVG chart, a CPU profile, and in benchmark mode one result line on
// standard output:
//
//	sprites=N interp=on frames=F seconds=S fps=X frame_ms=Y
//
// or, with --interp=compare, interpolation switched on and off every
// demo.BenchSlice of the run, each present counted for the variant it
// showed, and one line with both:
//
//	sprites=N interp=compare frames_on=F seconds_on=S fps_on=X frames_off=F seconds_off=S fps_off=Y ratio_on_to_off=R
//
// # Running without a display
//
// On Linux without DISPLAY or WAYLAND_DISPLAY, Main runs headless for five
// seconds (unless --run-for, --ticks or --frames says otherwise) and writes
// demo-screenshot.png, demo-timing.json and demo-timing.svg unless other
// paths were given, saying where on standard error; framework.Run puts the
// invisible window on a private Xvfb server.
//
// # Threads
//
// GLFW needs the process's main thread: the framework's init locks it, and
// Main and Run must be called from main (tests hand the call to TestMain's
// goroutine).
//
//	func main() { os.Exit(gldemo.Main(os.Args[1:], os.Stdout, os.Stderr)) }
package gldemo
