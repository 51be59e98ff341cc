// Package inputtest helps test code that consumes input and code that
// produces it.
//
// # Scripted input
//
// [Script] is an input.Source driven by a script of timed events: presses,
// releases, taps, cursor moves, scrolls, text, gamepad axes and
// connections, focus and size changes. A
// poll delivers the events due by its instant through an input.Recorder,
// so scripted snapshots follow the same rules as a real window's. Runtime
// and game tests use it with a manual clock:
//
//	src := inputtest.NewScript().
//		Tap(10*ms, input.KeySpace, 50*time.Millisecond).
//		Cursor(20*ms, 100, 80)
//	now := clock.Now()
//	src.Poll(now, &snap)
//	q.PushPoll(now, &snap)
//
// # Conformance
//
// [TestSource] is the suite every input.Source passes, given a [Driver] that
// can make input happen: the scripted source runs it with scripted events,
// input/glfwinput with real X events sent by xdotool to a window under Xvfb.
// It checks the snapshot rules at every poll and the behaviour of keys,
// mouse buttons, cursor, scroll, text, resizes and focus loss, and of
// gamepad buttons, axes and hot-plugging where the driver can produce them
// (glfwinput drives a fake joystick behind the real GLFW source).
package inputtest
