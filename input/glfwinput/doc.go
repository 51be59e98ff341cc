// Package glfwinput is the GLFW [input.Source]: it records a window's input
// callbacks as timestamped records on the platform thread.
//
// # Attaching and detaching
//
// [Attach] (or [New] then [Source.Init], the shape of the runtime's input
// adapter) installs key, character, mouse button, cursor, scroll, focus,
// window size and framebuffer size callbacks on a *glfw.Window and first
// describes what it finds (sizes, cursor, focus, buttons already down) with
// synthetic records, so the first snapshot is complete. Callbacks the window
// already had keep working: they are called after the recording ones and
// restored by [Source.Detach] (or [Source.Close]), which must run before
// the window is destroyed.
//
// # Threads and timestamps
//
// Every method runs on the platform thread (the one GLFW was initialised
// on). [Source.Poll] pumps events with glfw.PollEvents unless
// [Options.ManualPump] says the platform loop does it (set it when the
// display already calls glfw.PollEvents before each poll); each callback stamps
// its record with timing.Now as GLFW dispatches it, so timestamps resolve
// to the polling spacing, not to the instant the key moved. Gamepads have
// no callbacks in GLFW: their buttons are read at each poll and edges are
// stamped then.
//
// Key repeats are ignored (text arrives as character records), and losing
// focus releases every held button, as [input.Recorder] documents.
//
//	src := glfwinput.Attach(win, glfwinput.Options{})
//	defer src.Detach() // before win.Destroy
//	q.Poll(src, timing.Now())
package glfwinput
