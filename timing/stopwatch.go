package timing

import (
	"errors"
	"fmt"
	"time"
)

// ErrInvalidTransition reports a Stopwatch call that its state does not
// allow, such as pausing a stopwatch that is not running.
var ErrInvalidTransition = errors.New("timing: invalid stopwatch transition")

// Stopwatch measures active time across pauses. The zero value is stopped
// and reads zero. It is a plain value owned by one goroutine; every method
// takes the current reading, which must not go backwards from the latest
// transition. A failed call changes nothing.
type Stopwatch struct {
	state  stopwatchState
	since  Instant       // latest transition
	active time.Duration // active time before since
}

type stopwatchState uint8

const (
	stopped stopwatchState = iota
	running
	paused
)

// Start begins a new measurement at now from any state, discarding the
// previous one.
func (w *Stopwatch) Start(now Instant) {
	*w = Stopwatch{state: running, since: now}
}

// Pause stops accumulating at now. It fails with ErrInvalidTransition
// unless the stopwatch is running, and with ErrClockRegression if now is
// before the latest transition.
func (w *Stopwatch) Pause(now Instant) error {
	if w.state != running {
		return fmt.Errorf("%w: Pause while %v", ErrInvalidTransition, w.state)
	}
	d, err := w.elapsed(now)
	if err != nil {
		return err
	}
	sum := w.active + d
	if sum < w.active {
		return fmt.Errorf("timing: Stopwatch.Pause: %w", ErrOverflow)
	}
	w.active, w.since, w.state = sum, now, paused
	return nil
}

// Resume continues a paused stopwatch at now; the paused gap is not
// counted. It fails with ErrInvalidTransition unless the stopwatch is
// paused, and with ErrClockRegression if now is before the pause.
func (w *Stopwatch) Resume(now Instant) error {
	if w.state != paused {
		return fmt.Errorf("%w: Resume while %v", ErrInvalidTransition, w.state)
	}
	if _, err := w.elapsed(now); err != nil {
		return err
	}
	w.since, w.state = now, running
	return nil
}

// Reset stops the stopwatch and clears it.
func (w *Stopwatch) Reset() { *w = Stopwatch{} }

// Running reports whether the stopwatch is accumulating time.
func (w *Stopwatch) Running() bool { return w.state == running }

// Paused reports whether the stopwatch is paused.
func (w *Stopwatch) Paused() bool { return w.state == paused }

// Read returns the active time at now: frozen while paused, zero while
// stopped. Reads are observations and change nothing; a reading before the
// latest transition fails with ErrClockRegression and returns zero.
func (w *Stopwatch) Read(now Instant) (time.Duration, error) {
	switch w.state {
	case stopped:
		return 0, nil
	case paused:
		return w.active, nil
	}
	d, err := w.elapsed(now)
	if err != nil {
		return 0, err
	}
	if sum := w.active + d; sum >= w.active {
		return sum, nil
	}
	return 0, fmt.Errorf("timing: Stopwatch.Read: %w", ErrOverflow)
}

func (w *Stopwatch) elapsed(now Instant) (time.Duration, error) {
	d, err := Elapsed(w.since, now)
	if err != nil {
		return 0, fmt.Errorf("timing: Stopwatch: %w", err)
	}
	return d, nil
}

func (s stopwatchState) String() string {
	switch s {
	case running:
		return "running"
	case paused:
		return "paused"
	}
	return "stopped"
}
