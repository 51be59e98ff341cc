package runtime

import (
	"time"

	"github.com/metronome-go/metronome/timing"
)

// Clock is a session's time source. The runtime reads it for every decision
// and asks it for one [Waiter] per goroutine that waits (the platform thread,
// and the simulation goroutine in concurrent mode). [SystemClock] is the
// real one; tests supply synthetic time.
type Clock interface {
	Now() timing.Instant
	NewWaiter() Waiter
}

// Waiter blocks one goroutine until an instant. Wake may be called from any
// goroutine: it makes the current wait, or the next one if none is running,
// return [timing.ErrWaitInterrupted] at once. A waiter is also a
// [timing.PacingClock] when combined with its clock's Now.
type Waiter interface {
	WaitUntil(target timing.Instant) error
	Wake()
}

// SystemClock reads [timing.Now] and waits with [timing.NewFutexWaiter]: on
// Linux one futex sleep per wait with an absolute CLOCK_MONOTONIC timeout,
// which a Wake from any goroutine ends within microseconds and can never
// miss; elsewhere a Go timer raced against the wake. Its zero value is ready
// to use.
type SystemClock struct{}

// Now returns [timing.Now].
func (SystemClock) Now() timing.Instant { return timing.Now() }

// NewWaiter returns a native waiter.
func (SystemClock) NewWaiter() Waiter { return timing.NewFutexWaiter() }

// TimerWaiter waits with one reusable [time.Timer]. It works with any clock
// whose instants advance like the Go runtime's timers: the real monotonic
// clock, or a clock read from time.Now inside a testing/synctest bubble.
type TimerWaiter struct {
	clock timing.Clock
	timer *time.Timer
	wake  chan struct{}
}

// NewTimerWaiter returns a waiter that measures targets against clock.
func NewTimerWaiter(clock timing.Clock) *TimerWaiter {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &TimerWaiter{clock: clock, timer: t, wake: make(chan struct{}, 1)}
}

// WaitUntil blocks until the clock reads target or Wake is called. A target
// already passed returns at once (unless a wake is pending, which it
// consumes and reports). One goroutine at a time may wait.
func (w *TimerWaiter) WaitUntil(target timing.Instant) error {
	d := time.Duration(target - w.clock.Now())
	if d <= 0 {
		select {
		case <-w.wake:
			return timing.ErrWaitInterrupted
		default:
			return nil
		}
	}
	w.timer.Reset(d)
	select {
	case <-w.timer.C:
		return nil
	case <-w.wake:
		w.timer.Stop()
		return timing.ErrWaitInterrupted
	}
}

// Wake interrupts the current or next wait. It never blocks.
func (w *TimerWaiter) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// pacingClock joins a clock's reading with one goroutine's waiter.
type pacingClock struct {
	clock  Clock
	waiter Waiter
}

func (p pacingClock) Now() timing.Instant                   { return p.clock.Now() }
func (p pacingClock) WaitUntil(target timing.Instant) error { return p.waiter.WaitUntil(target) }
