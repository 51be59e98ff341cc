package timing

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// DefaultWaitSlice is the longest single sleep of a waiter that
// [NewOSWaiter] made with it, and so the longest a [Waiter.Wake] can go
// unnoticed on Linux. It is well under the runtime's 10 ms maintenance period and costs
// a few extra wake-ups per 60 Hz frame, which add no lateness: the last
// slice still sleeps to the absolute target.
const DefaultWaitSlice = 4 * time.Millisecond

// osWaiter is the operating system's [Waiter], the one [SystemClock] makes:
// it sleeps until absolute targets of [Now], and another goroutine can cut a sleep short with
// [osWaiter.Wake]. Its two Linux sleeps share the same clock, the same
// absolute targets and the same lowered timer slack, and wake as late as
// each other; they differ in how a Wake reaches them.
//
// [NewOSWaiter] sleeps with clock_nanosleep on CLOCK_MONOTONIC with an
// absolute target. An Instant is a CLOCK_MONOTONIC reading on Linux, so
// targets pass through unchanged and wake errors never accumulate. Go cannot
// interrupt a thread blocked in clock_nanosleep without racing against the
// signal, so the sleep is cut into slices that each end at an absolute
// instant, and a Wake is seen at the next slice boundary.
//
// [NewFutexWaiter] sleeps in FUTEX_WAIT_BITSET, whose timeout is also an
// absolute CLOCK_MONOTONIC instant. Wake changes the futex word and wakes
// it, so a wait ends at once and a Wake that lands between the check and the
// sleep is not lost. cmd/pacecheck measures both: equal lateness, and a
// futex wake in microseconds where slices take about half a slice.
//
// On Linux each WaitUntil first lowers the calling thread's timer slack to
// 1 ns (prctl PR_SET_TIMERSLACK): call it from a goroutine locked to its OS
// thread, as the runtime's platform thread is, so that the lowered slack
// stays on that thread. A signal (EINTR) resumes the same absolute sleep;
// after eight of them WaitUntil returns early and leaves the
// decision to the caller.
//
// Windows and macOS have waits of their own, and there both constructors
// give the same waiter, which a Wake interrupts at once:
//
//   - Windows: a high-resolution waitable timer (a plain one before
//     Windows 10 1803) raced against an event in WaitForMultipleObjects.
//     Plain timers wake on the system timer's tick, 15.6 ms by default;
//     the high-resolution one within a fraction of a millisecond.
//   - macOS: a relative kevent timer with NOTE_CRITICAL, which takes away
//     the kernel's timer-coalescing leeway (about 1 ms late at 60 Hz
//     without it), and a user event on the same kqueue for Wake.
//
// Both are relative timers recomputed from a fresh [Now] reading at every
// sleep, so the target stays absolute and wake errors do not accumulate.
// On other systems both constructors sleep on a Go timer raced against a
// wake channel: time.Sleep's precision. Every system runs the same loop
// (waitLoop), which looks at the wake flag and the clock between sleeps;
// only the sleep is the system's. Whatever the wait, the [FramePacer]
// reads the clock after it and reports the frame's real lateness, so a
// coarse wait shows in the telemetry instead of being hidden.
//
// Only the Linux waits have been measured on this project's machines
// (cmd/pacecheck); the Windows and macOS waits are built and vetted by
// make test but have not run here.
type osWaiter struct {
	slice time.Duration
	futex bool
	// woken is the wake flag, and on Linux with futex the futex word:
	// non-zero while a Wake is pending.
	woken uint32
	waitState
}

// NewOSWaiter returns the operating system's waiter, sleeping at most
// slice at a time ([DefaultWaitSlice] suits a loop that must notice a Wake
// within a few milliseconds). A zero slice sleeps in one piece, so on Linux a Wake is
// seen only by the next WaitUntil. The slice must be 0 to 1 s. Where a
// Wake ends a sleep at once (every system but Linux's clock_nanosleep)
// the slice is not needed and each wait sleeps in one piece.
func NewOSWaiter(slice time.Duration) (Waiter, error) {
	if slice < 0 || slice > time.Second {
		return nil, fmt.Errorf("timing: wait slice %v is out of range [0s, 1s]", slice)
	}
	w := &osWaiter{}
	if sliceSleeps {
		w.slice = slice
	}
	w.waitState.init()
	return w, nil
}

// NewFutexWaiter returns the operating system's waiter, sleeping in one
// piece, that a Wake interrupts at once: on Linux with a futex, elsewhere as [NewOSWaiter].
func NewFutexWaiter() Waiter {
	w := &osWaiter{futex: true}
	w.waitState.init()
	return w
}

// WaitUntil sleeps until target and returns nil, or returns
// [ErrWaitInterrupted] when [osWaiter.Wake] was called since the last
// interrupted wait (a Wake before the call counts), or an error from the
// operating system. It may return early, and a target already passed returns
// at once. One goroutine at a time may wait on an osWaiter.
func (w *osWaiter) WaitUntil(target Instant) error { return waitLoop(w, &w.woken, w.slice, target) }

// Wake interrupts the current wait, or the next one if none is in progress.
// It is safe to call from any goroutine, any number of times; wakes that
// arrive before a wait notices them count once.
func (w *osWaiter) Wake() {
	atomic.StoreUint32(&w.woken, 1)
	w.wake()
}

// Release stops the timer of the osWaiter where it sleeps on a Go timer;
// elsewhere it does nothing, as the handles of the native waits live as
// long as the process.
func (w *osWaiter) Release() { w.release() }

// now is [Now]: an osWaiter's targets are on the system's clock.
func (w *osWaiter) now() Instant { return Now() }

// sleeper is what each system gives the one wait loop: its clock, what it
// does before the first sleep of a wait, and one sleep until the absolute
// instant end (now is the reading the loop took), which returns nil when
// the time is up or a Wake may have ended it, errSignal when a signal cut
// it short, or the system's error. The files wait_linux.go,
// wait_darwin.go, wait_windows.go and wait_other.go hold only that.
type sleeper interface {
	now() Instant
	prepare()
	sleep(now, end Instant) error
}

// errSignal is a sleep a signal interrupted (EINTR): the loop resumes it,
// up to maxEarlyWakes times in one wait.
var errSignal = errors.New("timing: sleep interrupted by a signal")

// waitLoop is the native wait of every system: it sleeps in slices of at
// most slice (zero: one piece) that each end at an absolute instant, the
// last at target, and looks at the wake flag and the clock between them,
// so the target stays absolute and a wake-up error never accumulates. A
// generic function, so that the system's calls are direct and a wait
// allocates nothing.
func waitLoop[S sleeper](s S, woken *uint32, slice time.Duration, target Instant) error {
	early, prepared := 0, false
	for {
		if atomic.SwapUint32(woken, 0) != 0 {
			return ErrWaitInterrupted
		}
		now := s.now()
		if now >= target {
			return nil
		}
		if !prepared {
			// Only when a sleep is needed: on some virtual machines
			// the preparation (prctl on Linux) costs microseconds.
			s.prepare()
			prepared = true
		}
		end := target
		if slice > 0 {
			end = min(end, now.AddSaturating(slice))
		}
		switch err := s.sleep(now, end); err {
		case nil:
		case errSignal:
			early++
			if early >= maxEarlyWakes {
				return nil
			}
		default:
			return err
		}
	}
}

// sleepSlice is the sleep of an osWaiter on Windows or macOS whose native
// timer could not be set up (no handle or no kqueue left; the creation
// error is kept in waitState.err): the Go runtime's timer, time.Sleep's
// precision, for at most DefaultWaitSlice so that a Wake is seen within
// it. A failing native wait would return its error on every call, and a
// loop that retries would spin.
func sleepSlice(now, end Instant) error {
	time.Sleep(min(time.Duration(end-now), DefaultWaitSlice))
	return nil
}
