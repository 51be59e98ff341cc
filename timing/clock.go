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
// none is running, return [ErrWaitInterrupted] at once.
//
// The goroutine that owns a waiter calls Release once it has stopped
// waiting for good. A waiter of virtual time ([ManualClock]) counts its
// goroutine as running until it waits, so an unreleased one would hold that
// clock back; the waiters of real time have nothing to give back and their
// Release only stops what they hold. A released waiter must not wait again.
type Waiter interface {
	WaitUntil(target Instant) error
	Wake()
	Release()
}

// NewWaiter returns a futex waiter ([NewFutexWaiter]): on Linux one sleep
// per wait with an absolute CLOCK_MONOTONIC timeout, which a Wake from any
// goroutine ends within microseconds and never misses; on Windows and macOS
// their native timers, and elsewhere a [NewTimerWaiter]'s waiter (see [NewOSWaiter]).
func (SystemClock) NewWaiter() Waiter { return NewFutexWaiter() }
