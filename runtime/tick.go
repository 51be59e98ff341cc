package runtime

import (
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// Size is a width and a height: logical units for a window, pixels for a
// framebuffer.
type Size struct {
	Width, Height int
}

// TickContext describes one update. The runtime fills and lends it to
// [Game.Update]; it and the input it carries are valid only until Update
// returns, so copy what must outlive the hook. Tests may build one as a
// literal; give it a [StopSignal] in Stop to make [TickContext.RequestStop]
// work.
type TickContext struct {
	// Kind says what Delta means: a variable, fixed or catch-up update.
	Kind timing.Kind
	// Delta is the simulation time this update advances: the full elapsed
	// time for a variable update, the step for a fixed one, the recovered
	// span for a catch-up update.
	Delta time.Duration
	// Observed is the real time this update's input covers: the interval
	// since the previous update consumed input. It is not simulation time.
	Observed time.Duration
	// Dropped is the real time the batch discarded. It is set only on the
	// final update of a batch (Final is true), so summing it across ticks
	// counts every dropped nanosecond once.
	Dropped time.Duration
	// Final reports the last update of the batch selected this cycle.
	Final bool
	// Quiet marks an update inside a repayment burst that is not the
	// batch's last: cosmetic work may skip it.
	Quiet bool
	// Cosmetic reports whether cosmetic systems should run on this update
	// (false when the debt policy coarsens cosmetic work).
	Cosmetic bool
	// Steps is the number of fixed steps the update stands for: 1 for a
	// fixed update, 2 or more for a merged catch-up update, 0 otherwise.
	Steps int
	// Alpha is the fraction of a fixed step left pending after the batch
	// this update belongs to, in [0, 1), for render interpolation. It is 0
	// in variable mode.
	Alpha float64
	// Number counts updates in the session, starting at 0.
	Number uint64
	// Timing holds the scheduler's statistics taken when the batch was
	// selected: debt, rate, acting mechanisms, dropped and suspended
	// totals, ticks by kind and the ledger.
	Timing timing.Stats
	// Input is the input this update consumed under the delivery policy:
	// edges, counts, hold durations, records and text. Nil on a tick built
	// without input.
	Input *input.Tick
	// Window and Framebuffer are the window's logical size and its
	// framebuffer's size in pixels, sampled together on the platform thread
	// at its latest poll before this update took its input (sources that
	// record size changes also carry them in Input's State). Hand-built
	// ticks default to zero.
	Window, Framebuffer Size
	// Stop is the session's stop state; nil on a tick built without one.
	Stop *StopSignal
}

// DeltaSeconds returns Delta in seconds.
func (t *TickContext) DeltaSeconds() float64 { return t.Delta.Seconds() }

// ObservedSeconds returns Observed in seconds.
func (t *TickContext) ObservedSeconds() float64 { return t.Observed.Seconds() }

// DroppedSeconds returns Dropped in seconds.
func (t *TickContext) DroppedSeconds() float64 { return t.Dropped.Seconds() }

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
