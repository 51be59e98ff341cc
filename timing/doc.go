// Package timing is Metronome's clock and simulation scheduler: monotonic
// instants with checked arithmetic, small elapsed-time helpers, and a
// [Scheduler] that turns clock readings into batches of simulation updates
// while accounting for every nanosecond.
//
// Time is an input. Exactly one file reads the real clock ([Now]); every
// other function takes the current [Instant] as an argument, so tests drive
// the package with a [ManualClock] and never sleep.
//
// # Instants and helpers
//
// An [Instant] is an int64 count of monotonic nanoseconds; intervals are
// [time.Duration]. [Instant.Add] and [Elapsed] fail with [ErrOverflow] or
// [ErrClockRegression] instead of wrapping or going negative, and leave
// their inputs unchanged. [Stopwatch] measures active time across pauses,
// [Deadline] says whether an armed instant has come, and [FrameClock] turns
// frame readings into clamped intervals, reporting the discarded excess.
// [Resolution] measures a clock's finest step (a browser coarsens
// performance.now() to 100 µs in a page that is not cross-origin
// isolated), for the timing report.
//
// # Scheduler
//
// A [Scheduler] is built from [Options], which start from [DefaultOptions]
// because several zero values have their own meaning. [Scheduler.Start]
// begins the timeline, [Scheduler.Advance] returns the [Batch] of updates to
// run now and [Scheduler.NextUpdateAt] says when the next one is due: an
// Advance with that reading selects at least one update, so a loop that
// waits until then never spins and never gets an empty batch. The
// scheduler never sleeps, polls input or calls the game.
//
// In [VariableMode] an update carries the whole real time since the previous
// one, at most once per Interval. In [FixedMode] elapsed time accumulates
// and updates carry one fixed step; when more steps are due than
// MaxFixedUpdates, the [Recovery] policy decides:
//
//   - [DropExcessLag] runs the allowed steps, drops the excess whole steps
//     and keeps the sub-step remainder;
//   - [VariableCatchUp] runs a fixed prefix and then one larger
//     [CatchUpUpdate] capped at RecoveryCap, dropping the rest;
//   - [RepayDebt] keeps the time owed and repays it (see below).
//
// Dropping always removes the oldest pending time, so the real span of each
// update ([Update.Start], [Update.End]) is the most recent time it can stand
// for, and a runtime can hand each update the input recorded in its span.
// Spans follow one another except for that dropped time, suspended time and
// the debt AdjustDebt moves (see [Update]).
//
// A fixed step may be a duration or an exact [Rate]. The scheduler keeps
// real time in phase units (p units per nanosecond, t per step) with 128-bit
// intermediates, so Hz(60) runs exactly 60 steps per simulated second, and
// exactly 5,184,000 in a day, however the readings split the time, and no
// gap an int64 clock can express overflows.
//
// # Ledger
//
// [Scheduler.Ledger] accounts for the real time since Start: simulated,
// dropped (by which policy), suspended, adjusted and pending (whole steps of
// debt plus the remainder). The totals balance exactly after every Advance
// ([Ledger.Imbalance] checks the identity on any Ledger value); a fuzz test
// checks it with random clocks, options and readings at both ends of the
// clock. A reading or adjustment that would take a total, Real + Adjusted
// or a span past int64 nanoseconds is refused with [ErrOverflow], so the
// ledger never wraps and never holds a negative interval.
//
// # Time debt
//
// Under [RepayDebt] the pending time is debt counted in whole steps against
// the real timeline, negative when the simulation is ahead. [DebtOptions]
// switch and tune each mechanism: pacing between MaxSlowDown and MaxSpeedUp
// of real time driven by Gain, quiet updates inside a burst, coarse cosmetic
// ticks while in debt, variable steps merging several owed steps (refused
// for rollback games), suspension of single long gaps, and a cutoff past
// which the [PastCutoff] policy drops time or asks the game's [DebtHook].
// [Scheduler.AdjustDebt] adds or removes debt from outside: time spent
// resimulating after a rollback, or an authority's clock saying the game is
// behind or ahead; a simulation ahead, even by a fraction of a step, is
// slowed by pacing, and its updates never wait out the lead at once.
// [Scheduler.Stats] reports the debt, the pace, the
// mechanisms enabled and acting and the totals, computed on request.
//
// [Scheduler.SetOptions] changes any setting while running, validated like
// [NewScheduler], keeping the ledger and the debt.
//
// # Frame pacing and telemetry
//
// A [FramePacer] decides when a native frame loop starts its next frame,
// reading a [Clock] and waiting toward absolute targets on one of its
// [Waiter]s, never spinning and never bursting. [SystemClock]'s waiter is
// the native [NewOSWaiter]'s waiter: one wait loop for every system, whose
// sleep alone is the system's: clock_nanosleep or a futex with the timer
// slack lowered on Linux, a high-resolution waitable timer on Windows, a
// kevent timer without coalescing leeway on macOS, and elsewhere a Go
// timer raced against the wake; [NewOSWaiter]'s waiter says why each, and
// the pacer reports the lateness of whichever it gets.
// [Telemetry] records each frame start in a fixed ring with saturating
// totals and computes its statistics on request. A [FrameRecord] is one
// frame: its [FrameClock] sample, its pacing, and the [Work] of the batches
// it ran, each [Batch] carrying its own, so the update totals have one
// home, the scheduler's [Stats]. Their doc comments hold the details and
// the usage snippets.
//
// # Example
//
//	opts := timing.DefaultOptions()
//	opts.Mode = timing.FixedMode
//	opts.Rate = timing.Hz(60)
//	sched, err := timing.NewScheduler(opts)
//	if err != nil {
//		return err
//	}
//	sched.Start(timing.Now())
//	for running {
//		batch, err := sched.Advance(timing.Now())
//		if err != nil {
//			return err
//		}
//		for _, u := range batch.Updates {
//			game.Update(u.Delta)
//		}
//		render(sched.Alpha())
//		waitUntil(sched.NextUpdateAt())
//	}
package timing
