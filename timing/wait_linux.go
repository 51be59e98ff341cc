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
// calls it before the first sleep of every wait.
func lowerTimerSlack() error {
	if err := unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("timing: prctl(PR_SET_TIMERSLACK, 1): %w", err)
	}
	return nil
}

// sliceSleeps: clock_nanosleep cannot be interrupted without racing
// against a signal, so a Wake is seen between slices.
const sliceSleeps = true

// prepare lowers the thread's timer slack; a failure leaves the default
// slack: the wait still works, only later.
func (w *osWaiter) prepare() { _ = lowerTimerSlack() }

func (w *osWaiter) sleep(_, end Instant) error {
	ts := unix.NsecToTimespec(int64(end))
	if w.futex {
		// Sleeps only while the word is still 0: a Wake after the loop
		// looked at the flag makes it return EAGAIN at once.
		_, _, e := unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(&w.woken)), futexWaitBitset|futexPrivate,
			0, uintptr(unsafe.Pointer(&ts)), 0, futexMatchAny)
		switch e {
		case 0, unix.EAGAIN, unix.ETIMEDOUT:
			return nil
		case unix.EINTR:
			return errSignal
		}
		return fmt.Errorf("timing: futex wait until %d ns: %w", int64(end), e)
	}
	switch err := unix.ClockNanosleep(unix.CLOCK_MONOTONIC, unix.TIMER_ABSTIME, &ts, nil); err {
	case nil:
		return nil
	case unix.EINTR:
		return errSignal
	default:
		return fmt.Errorf("timing: clock_nanosleep until %d ns: %w", int64(end), err)
	}
}
