package runtime

import (
	"errors"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// TickContext describes one update. The runtime fills and lends it to
// [Game.Update]; it and the input it carries are valid only until Update
// returns, so copy what must outlive the hook.
//
// The embedded [timing.Update] is the scheduler's update itself, under its
// own names: Kind, Delta, the real span [Start, End) it stands for, Number,
// Steps, Dropped (on the Final update of a batch), Quiet and Coarse.
//
// Tests may build one as a literal: the zero value is an ordinary tick
// (not quiet, cosmetic work runs). Give it a [StopSignal] in Stop to make
// [TickContext.RequestStop] work.
type TickContext struct {
	timing.Update
	// Timing holds the scheduler's statistics taken when the batch was
	// selected: debt, rate, alpha, acting mechanisms, dropped and suspended
	// totals, ticks by kind and the ledger.
	Timing timing.Stats
	// Input is the input this update consumed under the delivery policy:
	// edges, counts, hold durations, records and text. Nil on a tick built
	// without input. Input.Observed is the real time the input covers: the
	// interval since the previous update took input.
	Input *input.Tick
	// Window is the window's sizes and focus as of the latest poll this
	// update consumed: it travels in the same stream as the input, so the
	// two always belong together.
	Window input.Window
	// Stop is the session's stop state; nil on a tick built without one.
	Stop *StopSignal
	// Owed is where Update reports time the simulation owes the scheduler
	// beyond this update's step (a rollback session's resimulation, a
	// held tick, its frame advantage). It is zero when Update starts; the
	// runtime applies it when Update returns (see [Owed]).
	Owed Owed
}

// Owed is time a simulation-side component (a rollback session) owes the
// scheduler, reported from [Game.Update] in [TickContext.Owed]. When
// Update returns the runtime hands each non-zero part to the scheduler,
// whose pacing repays it inside max_speed_up and max_slow_down, as any
// other debt: Resimulated and ResimulationTime through
// timing.Scheduler.AddResimulation, Held through AdjustDebt and Advantage
// through AdjustAdvantage. The scheduler accepts them only in fixed mode
// under RepayDebt; elsewhere a non-zero Owed fails the session with the
// scheduler's error.
type Owed struct {
	// Resimulated is the number of ticks run again after a rollback, and
	// ResimulationTime the real time that took.
	Resimulated      int
	ResimulationTime time.Duration
	// Held is simulation time the update did not simulate (a session
	// holding at its prediction window's end): owed, to be caught up.
	Held time.Duration
	// Advantage moves the frame advantage's debt by this much: negative
	// when this peer is ahead of its peers (it slows down), positive when
	// behind.
	Advantage time.Duration
}

// owe hands o to sched.
func (o *Owed) owe(sched *timing.Scheduler) error {
	var errs [3]error
	if o.Resimulated > 0 || o.ResimulationTime > 0 {
		errs[0] = sched.AddResimulation(o.Resimulated, o.ResimulationTime)
	}
	if o.Held != 0 {
		errs[1] = sched.AdjustDebt(o.Held)
	}
	if o.Advantage != 0 {
		errs[2] = sched.AdjustAdvantage(o.Advantage)
	}
	*o = Owed{}
	return errors.Join(errs[:]...)
}

// RequestStop asks the session to stop gracefully. The current update runs
// to its end (return early when nothing else is worth doing); no further
// update starts, and the normal shutdown follows. It is safe to repeat. It
// returns [ErrNoStopSource] on a tick built without a [StopSignal].
func (t *TickContext) RequestStop() error {
	if t.Stop == nil {
		return ErrNoStopSource
	}
	t.Stop.Request()
	return nil
}

// StopRequested reports whether the session has been asked to stop.
func (t *TickContext) StopRequested() bool { return t.Stop != nil && t.Stop.Requested() }
