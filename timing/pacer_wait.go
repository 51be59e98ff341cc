package timing

import (
	"fmt"
	"sync/atomic"
	"time"
)

// DefaultWaitSlice is the longest single sleep of a [Waiter] made with it,
// and so the longest a [Waiter.Wake] can go unnoticed on Linux. It is well
// under the runtime's 10 ms maintenance period and costs a few extra
// wake-ups per 60 Hz frame, which add no lateness: the last slice still
// sleeps to the absolute target.
const DefaultWaitSlice = 4 * time.Millisecond

// Waiter is the operating system's [PacingClock]: it reads [Now] and sleeps
// until absolute targets, and another goroutine can cut a sleep short with
// [Waiter.Wake].
//
// On Linux a wait is clock_nanosleep on CLOCK_MONOTONIC with an absolute
// target (an Instant is a CLOCK_MONOTONIC reading there, so targets pass
// through unchanged), and each WaitUntil first lowers the calling thread's
// timer slack to 1 ns (see [LowerTimerSlack]). Call it from a goroutine
// locked to its OS thread, as the runtime's platform thread is, so that the
// lowered slack stays on that thread. A signal (EINTR) resumes the same
// absolute sleep; after [MaxEarlyWakes] of them WaitUntil returns early and
// leaves the decision to the caller. Go cannot interrupt a thread blocked in
// clock_nanosleep without racing against the signal, so the sleep is cut
// into slices of at most the Waiter's slice, each ending at an absolute
// instant, and Wake is seen at the next slice boundary.
//
// Elsewhere a wait is a Go timer raced against Wake on a channel: it has
// time.Sleep's precision and a Wake ends it at once.
type Waiter struct {
	slice time.Duration
	woken atomic.Bool
	waitState
}

// NewWaiter returns a Waiter whose sleeps last at most slice each
// ([DefaultWaitSlice] suits the runtime). A zero slice sleeps in one piece,
// so on Linux a Wake is seen only by the next WaitUntil. The slice must be
// 0 to 1 s.
func NewWaiter(slice time.Duration) (*Waiter, error) {
	if slice < 0 || slice > time.Second {
		return nil, fmt.Errorf("timing: wait slice %v is out of range [0s, 1s]", slice)
	}
	w := &Waiter{slice: slice}
	w.waitState.init()
	return w, nil
}

// Now returns [Now].
func (w *Waiter) Now() Instant { return Now() }

// WaitUntil sleeps until target and returns nil, or returns
// [ErrWaitInterrupted] when [Waiter.Wake] was called since the last
// interrupted wait (a Wake before the call counts), or an error from the
// operating system. It may return early, and a target already passed returns
// at once. One goroutine at a time may wait on a Waiter.
func (w *Waiter) WaitUntil(target Instant) error { return w.waitUntil(target) }

// Wake interrupts the current wait, or the next one if none is in progress.
// It is safe to call from any goroutine, any number of times; wakes that
// arrive before a wait notices them count once.
func (w *Waiter) Wake() {
	w.woken.Store(true)
	w.waitState.wake()
}
