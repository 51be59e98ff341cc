//go:build linux

package timing

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// waitState needs nothing on Linux: the wake flag is the futex word.
type waitState struct{}

func (*waitState) init() {}

// Futex operations (linux/futex.h). A FUTEX_WAIT_BITSET timeout is an
// absolute CLOCK_MONOTONIC instant unless FUTEX_CLOCK_REALTIME is set.
const (
	futexWake       = 1
	futexWaitBitset = 9
	futexPrivate    = 128
	futexMatchAny   = 0xffffffff
)

func (w *osWaiter) wake() {
	if w.futex {
		// Errors cannot happen for a valid private word; nothing to do.
		_, _, _ = unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(&w.woken)), futexWake|futexPrivate, 1, 0, 0, 0)
	}
}

// release has nothing to give back: see [osWaiter.Release].
func (w *osWaiter) release() {}

// lowerTimerSlack sets the calling OS thread's timer slack to 1 ns, so the
// kernel does not defer its timer wake-ups by the default 50 µs to batch
// them with others. It affects only the current thread: call it from a
// goroutine locked to its thread (runtime.LockOSThread). [osWaiter.WaitUntil]
// calls it on the first sleep of every wait.
func lowerTimerSlack() error {
	if err := unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("timing: prctl(PR_SET_TIMERSLACK, 1): %w", err)
	}
	return nil
}

func (w *osWaiter) waitUntil(target Instant) error {
	interrupted, slack := 0, false
	for {
		if w.takeWake() {
			return ErrWaitInterrupted
		}
		now := Now()
		if now >= target {
			return nil
		}
		if !slack {
			// A failure leaves the default slack: the wait still works,
			// only later. Skipped when no sleep is needed: the syscall
			// costs microseconds on some virtual machines.
			_ = lowerTimerSlack()
			slack = true
		}
		end := target
		if w.slice > 0 {
			end = min(end, now.AddSaturating(w.slice))
		}
		ts := unix.NsecToTimespec(int64(end))
		var err error
		if w.futex {
			// Sleeps only while the word is still 0: a Wake after
			// takeWake makes it return EAGAIN at once.
			_, _, e := unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(&w.woken)), futexWaitBitset|futexPrivate,
				0, uintptr(unsafe.Pointer(&ts)), 0, futexMatchAny)
			switch e {
			case 0, unix.EAGAIN, unix.ETIMEDOUT:
			default:
				err = e
			}
		} else {
			err = unix.ClockNanosleep(unix.CLOCK_MONOTONIC, unix.TIMER_ABSTIME, &ts, nil)
		}
		switch err {
		case nil:
		case unix.EINTR:
			interrupted++
			if interrupted >= maxEarlyWakes {
				return nil
			}
		default:
			if w.futex {
				return fmt.Errorf("timing: futex wait until %d ns: %w", int64(end), err)
			}
			return fmt.Errorf("timing: clock_nanosleep until %d ns: %w", int64(end), err)
		}
	}
}
