// Package input turns platform input into per-update batches in which no
// edge is lost or delivered twice.
//
// # Actions
//
// Games name what the player can do and bind buttons to it. An [Action] is a
// small integer handle returned by [Actions.Register]; bindings change at
// run time with [Actions.Rebind]. Buttons (keys, mouse buttons, gamepad
// buttons) parse from their names for config files ([ParseButton]); an
// unknown name is a [NameError] that suggests close matches.
// [Actions.Configure] applies a whole table of bindings from a config file,
// reporting every bad name at once.
//
// The bindings an action is registered with are its defaults, the one
// place a game writes its keys: a config file and Rebind override them,
// [Actions.Overridden] says whether they were, [Actions.Reset] restores
// them and [Actions.BindingNames] lists either in the form a config file
// takes, so help screens and menus show keys from the same place.
//
// Something other than a button can act for the player: [Tick.Fire] adds
// a tap of an action to a tick (a menu's button, package ui), which the
// game's systems see as a key tapped inside the tick.
//
// # Analog actions and gamepads
//
// [Actions.RegisterAxis] registers an analog action, whose value in
// [-1, 1] comes from gamepad axes ([Axis]: sticks in [-1, 1] with +Y down,
// triggers in [0, 1]) through a dead zone, or from buttons standing in for
// them ([ButtonAxis]: "A/D" in a config file, see [ParseAxisBinding]); the
// binding of largest magnitude wins. An analog action is down while its
// value is not 0, so presses, releases, held time and
// [Tick.SimulationTime] work as for buttons: simulation time is the
// integral of the value over the observed interval scaled to the update's
// delta, signed. [Stats] adds the value at the start and end of the
// interval, its time-weighted mean and its peak; [Tick.Values] yields it
// change by change, with timestamps.
//
// Axis motion and gamepad connections are records (RecordAxis,
// RecordGamepad) with timestamps like every other input. A disconnect
// releases the gamepad's buttons and centres its axes, as a focus loss
// does for every button and axis. The GLFW source reads the gamepad
// through GLFW's gamepad mappings at each poll and follows hot-plugging.
//
// # Polls, records and state
//
// A [Source] is polled on the platform thread. Each poll produces a
// [Snapshot]: the instant it completed, the persistent [State] (buttons down,
// cursor, window and framebuffer sizes, focus) and the [Record] values
// observed since the previous poll (edges, cursor motion, scroll, text,
// focus and size changes), each with its own timestamp. Sources build
// snapshots with a [Recorder], which keeps them consistent: timestamps never
// decrease, edges alternate, axis values stay in range, and losing focus
// releases every button that is down and centres the axes (the platform
// would never report those releases).
//
// # Queue and ticks
//
// The runtime owns a [Queue]. The platform thread polls its source when
// [Queue.PollDue] says a poll is due ([PollingOptions.Spacing]) and hands
// the snapshot to [Queue.PushPoll]; the simulation takes one [Tick] per
// update. The queue calls neither side: it is handed each poll's records
// whole. A full backlog ([PollingOptions.Capacity] polls) merges its oldest
// poll into the next: poll boundaries move, records are never dropped, and
// [QueueStats.Coalesced] says how often it happened.
//
// Two [Delivery] policies decide what an update receives. [Backlog] (the
// default) hands each update everything pending ([Queue.TakeAll]); in a
// catch-up batch the first update gets the backlog and later ones only what
// arrived since. [Timestamped] hands each fixed update the records stamped
// before the end of its span of real time ([Queue.TakeSpan]), so input during
// a stall lands on the steps that cover it; [ValidateDelivery] refuses it
// with variable steps. Under both, every record is delivered exactly once.
//
// A Tick answers per action: down, pressed, released, press and release
// counts, the time held within the observed interval and the value
// ([Tick.Action], [Tick.Value]), and carries the records in order, text,
// cursor, scroll, gamepad axes, sizes and the interval itself. [Tick.SimulationTime] converts held time into simulation time for
// movement: the held fraction of the observed interval times the update's
// delta.
//
// # Example
//
//	actions := input.NewActions()
//	jump := actions.MustRegister("jump", input.KeySpace, input.GamepadA)
//	moveX := actions.MustRegisterAxis("move_x", input.GamepadLeftX.Bind(),
//		input.ButtonAxis(input.KeyLeft, input.KeyRight))
//	q, err := input.NewQueue(actions, input.DefaultPollingOptions())
//	...
//	var snap input.Snapshot // the platform thread's, reused
//	if now := timing.Now(); q.PollDue(now) { // platform thread, every loop
//		source.Poll(now, &snap)
//		q.PushPoll(now, &snap)
//	}
//	q.TakeAll(timing.Now(), &tick) // simulation, once per update
//	if tick.Pressed(jump) { ... }
//	x += speed * tick.SimulationSeconds(moveX, delta)
//
// The GLFW source is in input/glfwinput; input/inputtest has a scripted
// source and the conformance suite every source passes.
package input
