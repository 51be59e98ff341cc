// Package runtime runs a game session: it polls input, schedules simulation
// updates, hands complete frames to the renderer, paces frames and shuts
// down in order.
//
// # Sessions
//
// A [Game] supplies hooks; [Adapters] are the session's display and
// window, input, renderer, presentation and resources; [New] joins them
// with [Options] into a [GameRuntime], and [GameRuntime.Run] blocks on the
// caller's thread, which owns polling and the graphics context:
//
//	rt, err := runtime.New(game, adapters, runtime.DefaultOptions())
//	if err != nil {
//		return err
//	}
//	return rt.Run() // nil after a stop request or a closed window
//
// A runtime and its adapters serve one session; a second Run returns
// [ErrAlreadyRun]. The hooks get views of their own owner's part, not the
// runtime: InitPlatform a [Platform] (the adapters and the action set, for
// the platform thread), InitSimulation a [Simulation] (the mailbox, the
// platform dispatcher and the worker groups). The [GameRuntime] itself is
// the session's control and observation surface for any goroutine (stop,
// shutdown requests, timing changes, statistics).
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
// frame cap, statistics) each have their own guard. Each part holds the
// handles it uses (the input queue, the frame slots, the exchange, the
// stop signal, the other owner's wake), never the runtime.
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
// frame cap. Presentation has its own cadence: the newest frame is drawn
// again at every present with the alpha of that instant (each packet moves
// from its previous to its current placement over the last update's span,
// one step late), so motion is smooth whatever the ratio of display rate to
// tick rate; a frame at rest is not drawn again. Under RepayDebt's pacing
// the step is shown over the real time the pace gives it (step / rate,
// ending when the next update is due), so while a stall is repaid motion
// on screen runs evenly a few percent fast instead of a step per update.
// Variable timing has no step to interpolate, so by default it updates once
// per present: [Options.FollowPresentation] makes its pacing interval the
// frame cap or the display's refresh ([RefreshPresenter]); while hidden,
// the hidden rate spaces the updates as it does every cycle. Maintenance wakes never
// consume input or simulation time. A window that loses focus keeps
// running, pauses simulation time (counted as suspended in the ledger) or
// throttles to the hidden rate, as [Options.FocusPolicy] says. A
// hidden or minimised window slows every cycle to [Options.HiddenInterval],
// on absolute targets that a wake (a stop, dispatcher work) does not move,
// and presents nothing; updates then run only at those cycles, in both
// modes, so a hidden window gives the same ticks in each. Every change of visibility drops the pacing
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
// intent (once accepted, see Negotiated shutdown) share one [StopSignal].
// A stop never interrupts a running hook.
// A hook that returns an error or panics fails the session; either way the
// shutdown runs in order: close the session's worker groups to new jobs
// (their jobs' contexts are done), stop the simulation (mailbox closed,
// DeinitSimulation on its owner) and join it while still servicing platform
// work, Quiesce, let the accepted jobs settle while platform work still
// runs, join the owned worker pool, settle the accepted platform work,
// cancel the rest, recycle retained frames on the graphics thread,
// DeinitPlatform, then close input and graphics. Cleanup hooks run only when their init was attempted. Run
// returns the first failure joined with later ones, each a [*PhaseError]
// naming its [Phase] (compare with [PhaseUpdate] and the other constants); panics arrive as [*work.PanicError]. The [Lifecycle] keeps
// the outcome for observers on other goroutines.
//
// # Worker groups
//
// CPU work that would stall updates (decoding a level, building a
// navigation mesh, generating a chunk) runs on worker goroutines in a
// [work.Group] from [Simulation.Workers] (package runtime/work). The pool
// is the session's own, of [work.Options].Workers goroutines started as
// jobs arrive, or an application pool (its Pool) that outlives the
// session. With Background the owned pool's workers run at a lower OS
// priority, on Go processors of their own (GOMAXPROCS rises by the
// pool's capacity until it is closed), so a
// long load yields the CPU to the loop and never holds a processor the
// platform thread waits for (a loading screen keeps its frame rate; the
// load takes longer). A job never touches
// simulation state: [work.Go] delivers its result on the simulation owner
// through the [Mailbox], before an update; [work.GoPlatform] first hands
// it to the platform thread (a decoded image becomes a texture there) and
// delivers what that made the same way. A [work.Job] type the caller
// reuses is submitted and completed without allocating.
//
// A job's context is done when its group is canceled ([work.Group.Cancel])
// or fails, or when the session stops. A panicking job fails its group,
// not the session: [work.Group.Err] reports the [*work.PanicError], the
// group's other jobs see their context done, and Go and GoPlatform pass
// the panic to whoever waits for the result. Progress is
// [work.Group.Stats]: Finished out of Accepted.
//
// At shutdown the session's groups refuse new jobs first. After Quiesce
// the platform settles them ([work.Session.Settle]) in waits of at most
// 1 ms on its clock (so virtual time works; the last job's completion and dispatcher
// submissions end a wait early), running dispatcher batches in between, so
// a job that waits on platform work finishes instead of stranding the
// shutdown; the simulation's join services the dispatcher the same way.
// The owned pool then joins, before DeinitPlatform frees what jobs may
// use; an application pool and its other groups stay open.
// Its SettleTimeout bounds the wait.
//
// # Negotiated shutdown
//
// Ordinary requests to end the session go to its [ShutdownEndpoint]
// ([GameRuntime.Shutdown]): the window's close button (each rising edge of
// [WindowState.CloseRequested], so a refused close can be asked again by
// pressing again), a quit action of the game, a tool on any goroutine. One
// [ShutdownPolicy] per session ([Options.ShutdownPolicy] or, once before
// the loop, [ShutdownEndpoint.SetPolicy]) accepts, refuses or defers each.
// Without one a request is accepted at once, exactly like a stop. With one,
// requests are decided on the simulation owner before the next update
// (after its mailbox drain; one a mailbox item makes, before the update
// after), in the order made, so the policy can read game state and, on a
// virtual clock, a request made at an instant is always decided before the
// same update. A deferred request stays visible ([ShutdownEndpoint.Deferred])
// until the game answers it ([ShutdownEndpoint.Accept] or
// [ShutdownEndpoint.Refuse]), say after asking "save first?"; requests
// made meanwhile join it and go to the policy again with
// [ShutdownRequest.Repeats] set. Stop, RequestStop and failures never
// negotiate.
//
// # Observing timing
//
// [GameRuntime.Telemetry], [GameRuntime.TelemetryFrames],
// [GameRuntime.TimingStats] and [GameRuntime.Report] expose frame pacing,
// debt and drop statistics (the reported pacing interval is the one in
// force: the hidden interval while hidden, the frame cap otherwise); [GameRuntime.SetTimingOptions] and
// [GameRuntime.SetFrameCap] change timing while the session runs. A
// [PresentWatch], looked at once per platform cycle, counts the presents
// from a moment on and the longest interval between two (a headless
// match's pacing line).
//
// # Record and replay
//
// With [Options.Record] a session keeps a recording of every update as it
// handed it to the simulation (package recording), with world-hash
// checkpoints; a replay feeds the recorded updates back on one thread, as
// fast as its clock lets it, and fails at the first checkpoint whose hash
// differs with a [*DivergenceError] naming the tick and the component
// types. Platform results ([Future.Ready]) become visible to the
// simulation at the start of an update, and to InitSimulation and
// DeinitSimulation as soon as they are settled; a recording says which
// of the simulation's own requests ([Simulation].Dispatcher, on the
// simulation owner) each update and each of those hooks saw, so a replay
// shows the same ones whatever else the platform ran (other goroutines
// submit through [PlatformDispatcher.Shared]). The shutdown requests put to the policy before an
// update are recorded with it (a policy may change game state, such as
// opening a confirm dialog) and put to the replayed game's policy before
// the same update; the replayed game's own requests are the recording's,
// and closing the replay's window (or any other live request) ends the
// replay at once.
//
// # Testing
//
// Package runtime/runtimetest is the test kit: fake display, presenter,
// renderer and input adapters assembled by runtimetest.NewAdapters, and
// virtual clocks, so a whole session runs headless, exactly and without
// sleeping (the project's own tests use it). The GLFW/OpenGL context
// factory lives in runtime/glfwplatform; this package is pure Go.
package runtime
