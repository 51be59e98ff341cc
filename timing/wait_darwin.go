//go:build darwin

package timing

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// On macOS osWaiter sleeps in kevent on a one-shot relative timer with
// NOTE_CRITICAL. An ordinary timer gets the kernel's coalescing leeway (an
// eighth of the interval, up to 1 ms, for an ordinary thread), so a 60 Hz
// frame wakes about 1 ms late; NOTE_CRITICAL asks for none (seed 003
// measured a median wake 0.03 ms late with it). macOS has no absolute
// sleep on [Now]'s clock (its absolute Mach waits count a different one),
// so the timer is relative and every sleep of the wait loop recomputes the
// remaining time from a fresh reading: the target stays absolute. Wake triggers an
// EVFILT_USER event on the same kqueue, so it ends a wait at once.
type waitState struct {
	kq      int
	changes [1]unix.Kevent_t
	events  [1]unix.Kevent_t
	err     error // the kqueue could not be made: waits use sleepSlice
}

// The kqueue's two events: the wake trigger and the timer.
const (
	kqWake  = 1
	kqTimer = 2
)

// kqTrigger fires the wake event. It is only read (kevent takes its change
// list as const), so concurrent Wakes share it and none allocates.
var kqTrigger = [1]unix.Kevent_t{{Ident: kqWake, Filter: unix.EVFILT_USER, Fflags: unix.NOTE_TRIGGER}}

// The kqueue lives as long as the process: a program makes one or two
// waiters.
func (s *waitState) init() {
	kq, err := unix.Kqueue()
	if err != nil {
		s.err = fmt.Errorf("timing: kqueue: %w", err)
		return
	}
	unix.CloseOnExec(kq)
	add := []unix.Kevent_t{{Ident: kqWake, Filter: unix.EVFILT_USER, Flags: unix.EV_ADD | unix.EV_CLEAR}}
	if _, err := unix.Kevent(kq, add, nil, nil); err != nil {
		unix.Close(kq)
		s.err = fmt.Errorf("timing: kevent(EVFILT_USER): %w", err)
		return
	}
	s.kq = kq
}

func (w *osWaiter) wake() {
	if w.err == nil {
		_, _ = unix.Kevent(w.kq, kqTrigger[:], nil, nil) // cannot fail for a registered event
	}
}

// release has nothing to give back: see [osWaiter.Release].
func (w *osWaiter) release() {}

// sliceSleeps: a Wake ends a kevent sleep at once.
const sliceSleeps = false

// sleep arms the timer for the time left until end and sleeps until it or
// a Wake fires.
func (w *osWaiter) sleep(now, end Instant) error {
	if w.err != nil {
		return sleepSlice(now, end)
	}
	w.changes[0] = unix.Kevent_t{
		Ident:  kqTimer,
		Filter: unix.EVFILT_TIMER,
		Flags:  unix.EV_ADD | unix.EV_ONESHOT,
		Fflags: unix.NOTE_NSECONDS | unix.NOTE_CRITICAL,
		Data:   int64(end - now),
	}
	switch _, err := unix.Kevent(w.kq, w.changes[:], w.events[:], nil); err {
	case nil:
		return nil
	case unix.EINTR:
		return errSignal
	default:
		return fmt.Errorf("timing: kevent timer for %d ns: %w", int64(end-now), err)
	}
}
