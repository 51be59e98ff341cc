//go:build linux

package timing

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// waitState needs nothing on Linux: Wake sets the flag the slices check.
type waitState struct{}

func (*waitState) init() {}
func (*waitState) wake() {}

// LowerTimerSlack sets the calling OS thread's timer slack to 1 ns, so the
// kernel does not defer its timer wake-ups by the default 50 µs to batch
// them with others. It affects only the current thread: call it from a
// goroutine locked to its thread (runtime.LockOSThread). [Waiter.WaitUntil]
// calls it on every wait.
func LowerTimerSlack() error {
	if err := unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("timing: prctl(PR_SET_TIMERSLACK, 1): %w", err)
	}
	return nil
}

func (w *Waiter) waitUntil(target Instant) error {
	// A failure leaves the default slack: the wait still works, only later.
	_ = LowerTimerSlack()
	interrupted := 0
	for {
		if w.woken.Swap(false) {
			return ErrWaitInterrupted
		}
		now := Now()
		if now >= target {
			return nil
		}
		end := target
		if w.slice > 0 {
			end = min(end, now.AddSaturating(w.slice))
		}
		ts := unix.NsecToTimespec(int64(end))
		switch err := unix.ClockNanosleep(unix.CLOCK_MONOTONIC, unix.TIMER_ABSTIME, &ts, nil); err {
		case nil:
		case unix.EINTR:
			interrupted++
			if interrupted >= MaxEarlyWakes {
				return nil
			}
		default:
			return fmt.Errorf("timing: clock_nanosleep until %d ns: %w", int64(end), err)
		}
	}
}
