// Package runtime runs a game session: it polls input, schedules simulation
// updates, hands complete frames to the renderer, paces frames and shuts
// down in order.
//
// # Sessions
//
// A [Game] supplies hooks; a [Context] owns the adapters (display and
// window, input, renderer, presentation, resources); [New] joins them with
// [Options] into a [GameRuntime], and [GameRuntime.Run] blocks on the
// caller's thread, which owns polling and the graphics context:
//
//	rt, err := runtime.New(game, ctx, runtime.DefaultOptions())
//	if err != nil {
//		return err
//	}
//	return rt.Run() // nil after a stop request or a closed window
//
// A runtime and its context serve one session; a second Run returns
// [ErrAlreadyRun].
//
// # Modes
//
// [Sequential] mode polls, updates, prepares, renders and presents on the
// caller's thread with one frame slot. [Concurrent] mode runs updates and
// frame preparation on one simulation goroutine with three slots. Both use
// the same [timing.Options].
//
// # Ownership
//
// A session's state belongs to one of two owners, and its types say which:
// the platform thread (the caller of Run: window, pacers, the frame on
// screen) and the simulation owner (scheduler, the tick, the input taken
// for it). What crosses between them is handed over whole: each poll's
// input travels through the input backlog together with the window the
// display reported at that poll (so a tick's [TickContext.Window] always
// belongs to the input it consumed), and frames travel through the slots.
// The few remaining values that cross (visibility, timing options, the
// frame cap, statistics) each have their own guard.
//
// The tick an update gets embeds the scheduler's [timing.Update], so a
// field has one name from the scheduler through the runtime to the ECS.
// The clock is a [timing.Clock]: [timing.SystemClock] in a game,
// [timing.ManualClock] (virtual time) in tests.
//
// Each cycle drains the [PlatformDispatcher]'s batch, runs maintenance
// services, polls when due, advances the scheduler and runs the selected
// updates (each first drains the [Mailbox], runs pre-update services and
// takes its input under the delivery policy), prepares one frame after the
// batch when a slot is free (publication is skipped otherwise, never waited
// for), renders the newest complete frame, presents it and waits until the
// earliest of the next update, the next poll, the maintenance wake and the
// frame cap. Maintenance wakes never consume input or simulation time. A
// hidden or minimised window slows every cycle to [Options.HiddenInterval],
// on absolute targets that a wake (a stop, dispatcher work) does not move,
// and presents nothing. Every change of visibility drops the pacing
// schedules: the first hidden cycle, and the first frame once the window is
// shown again, start at once instead of waiting out the old phase.
//
// On the real clock ([timing.SystemClock]) each wait is one futex sleep with an
// absolute CLOCK_MONOTONIC deadline on Linux, which a wake from another
// goroutine ends within microseconds.
//
// # Stopping and failures
//
// [TickContext.RequestStop], [GameRuntime.Stop] and the window's close
// intent share one [StopSignal]. A stop never interrupts a running hook.
// A hook that returns an error or panics fails the session; either way the
// shutdown runs in order: stop the simulation (mailbox closed,
// DeinitSimulation on its owner) and join it while still servicing platform
// work, Quiesce, settle the accepted platform work, cancel the rest, recycle
// retained frames on the graphics thread, DeinitPlatform, then close input
// and graphics. Cleanup hooks run only when their init was attempted. Run
// returns the first failure joined with later ones, each a [*PhaseError]
// naming its phase; panics arrive as [*PanicError]. The [Lifecycle] keeps
// the outcome for observers on other goroutines.
//
// # Observing timing
//
// [GameRuntime.Telemetry], [GameRuntime.TelemetryFrames],
// [GameRuntime.TimingStats] and [GameRuntime.Report] expose frame pacing,
// debt and drop statistics (the reported pacing interval is the one in
// force: the hidden interval while hidden, the frame cap otherwise); [GameRuntime.SetTimingOptions] and
// [GameRuntime.SetFrameCap] change timing while the session runs.
//
// # Testing
//
// Package runtime/runtimetest is the test kit: fake display, presenter,
// renderer and input adapters assembled by runtimetest.NewContext, and
// virtual clocks, so a whole session runs headless, exactly and without
// sleeping (the project's own tests use it). The GLFW/OpenGL context
// factory lives in runtime/glfwplatform; this package is pure Go.
package runtime
