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

// SystemClock is the real monotonic clock. Its zero value is ready to use.
type SystemClock struct{}

// Now returns [Now].
func (SystemClock) Now() Instant { return Now() }
