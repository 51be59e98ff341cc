package timing

import (
	_ "unsafe" // for go:linkname
)

// This is the only file in Metronome that reads the real clock.
//
// runtime.nanotime is the monotonic reading behind time.Now. On Linux it is
// CLOCK_MONOTONIC read through the vDSO, which is the clock the native frame
// wait sleeps against with an absolute target, so an Instant can be handed to
// clock_nanosleep unchanged. It is on the Go runtime's list of linknamed
// symbols kept stable for external packages.

//go:linkname nanotime runtime.nanotime
func nanotime() int64

// Now returns the current reading of the process's monotonic clock.
// It is safe to call from any goroutine.
func Now() Instant { return Instant(nanotime()) }

// SystemClock is the real monotonic clock, a [Clock]. Its zero value is ready
// to use.
type SystemClock struct{}

// Now returns [Now].
func (SystemClock) Now() Instant { return Now() }

// Clock is a time source together with the waits that belong to it. A
// runtime reads it for every decision and asks it for one [Waiter] per
// goroutine that waits. [SystemClock] is the real clock; [ManualClock] is
// virtual time for tests.
type Clock interface {
	Now() Instant
	// NewWaiter returns a waiter for one goroutine.
	NewWaiter() Waiter
}

// Waiter blocks one goroutine until an instant of its [Clock]. Wake may be
// called from any goroutine: it makes the current wait, or the next one if
// none is running, return [ErrWaitInterrupted] at once. Joined with its
// clock's Now, a waiter is a [PacingClock].
//
// A waiter of virtual time counts its goroutine as running until it waits;
// such a waiter also has the [Releaser] method, which the owner of a
// goroutine calls once the goroutine has stopped waiting for good.
type Waiter interface {
	WaitUntil(target Instant) error
	Wake()
}

// Releaser is the optional method of a [Waiter] that must be released when
// its goroutine finishes ([ManualClock]'s waiters have it). Use
// [ReleaseWaiter].
type Releaser interface {
	Release()
}

// ReleaseWaiter releases w if it is a [Releaser] and does nothing
// otherwise.
func ReleaseWaiter(w Waiter) {
	if r, ok := w.(Releaser); ok {
		r.Release()
	}
}

// NewWaiter returns a futex waiter ([NewFutexWaiter]): on Linux one sleep
// per wait with an absolute CLOCK_MONOTONIC timeout, which a Wake from any
// goroutine ends within microseconds and never misses; elsewhere a Go timer
// raced against the wake.
func (SystemClock) NewWaiter() Waiter { return NewFutexWaiter() }

// PacingOn joins a clock's reading with one of its waiters into the
// [PacingClock] a [FramePacer] needs.
func PacingOn(c Clock, w Waiter) PacingClock { return pacingClock{c, w} }

type pacingClock struct {
	clock  Clock
	waiter Waiter
}

func (p pacingClock) Now() Instant                   { return p.clock.Now() }
func (p pacingClock) WaitUntil(target Instant) error { return p.waiter.WaitUntil(target) }
