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
// to the polling spacing, not to the instant the key moved.
//
// # Gamepads
//
// GLFW has no gamepad callbacks, so each poll reads the gamepad through
// GLFW's gamepad mappings (the SDL controller database built into GLFW,
// plus [Options.GamepadMappings]) and stamps what changed then: button
// edges, axis motion (sticks as GLFW reports them, -1 to 1 with +Y down;
// triggers rescaled from GLFW's -1..1 to 0..1) and connections. The source
// follows one gamepad: the lowest-numbered joystick with a mapping, until it
// is unplugged (its buttons are released and its axes centred, then the
// disconnect is recorded), then the next one found, so hot-plugging needs
// nothing from the game. While the window is unfocused the gamepad is
// ignored unless [Options.BackgroundGamepad] is set. [Source.Gamepad] says
// which joystick is followed and its mapping's name.
//
// go-gl's GetGamepadState allocates two small objects per call, so a poll
// with a gamepad connected allocates twice; without one, a poll allocates
// nothing.
//
// Key repeats are ignored (text arrives as character records), and losing
// focus releases every held button, as [input.Recorder] documents.
//
//	src := glfwinput.Attach(win, glfwinput.Options{})
//	defer src.Detach() // before win.Destroy
//	now := timing.Now()
//	src.Poll(now, &snap) // the platform thread's snapshot
//	q.PushPoll(now, &snap)
package glfwinput
