package timing

import (
	"errors"
	"fmt"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// On Windows osWaiter sleeps on a waitable timer, raced against an event
// that Wake sets (WaitForMultipleObjects), so a Wake ends a wait at once
// and the wait slice does not matter. The timer is created with
// CREATE_WAITABLE_TIMER_HIGH_RESOLUTION (Windows 10 1803 and later), which
// wakes within a fraction of a millisecond instead of at the next tick of
// the 15.6 ms (or timeBeginPeriod's 1 ms) system timer; where that flag is
// refused, a plain waitable timer is used. The due time is relative:
// Windows timers count 100 ns units from now, so every sleep of the wait
// loop recomputes the remaining time from a fresh [Now] reading and rounds
// it up, and the target stays absolute.
type waitState struct {
	handles [2]windows.Handle // the timer, then the wake event
	due     int64             // SetWaitableTimer's due time: negative, relative, 100 ns units
	err     error             // the handles could not be created: waits use sleepSlice
}

const (
	createWaitableTimerHighResolution = 0x2      // CREATE_WAITABLE_TIMER_HIGH_RESOLUTION
	timerAllAccess                    = 0x1f0003 // TIMER_ALL_ACCESS
)

var (
	kernel32                 = windows.NewLazySystemDLL("kernel32.dll")
	procCreateWaitableTimerW = kernel32.NewProc("CreateWaitableTimerExW")
	procSetWaitableTimer     = kernel32.NewProc("SetWaitableTimer")
)

// The handles live as long as the process: a program makes one or two
// waiters.
func (s *waitState) init() {
	if err := errors.Join(procCreateWaitableTimerW.Find(), procSetWaitableTimer.Find()); err != nil {
		s.err = fmt.Errorf("timing: waitable timers: %w", err)
		return
	}
	ev, err := windows.CreateEvent(nil, 0, 0, nil) // auto-reset, not signalled
	if err != nil {
		s.err = fmt.Errorf("timing: CreateEvent: %w", err)
		return
	}
	timer, err := createTimer(createWaitableTimerHighResolution)
	if err != nil {
		timer, err = createTimer(0)
	}
	if err != nil {
		windows.CloseHandle(ev)
		s.err = fmt.Errorf("timing: CreateWaitableTimerExW: %w", err)
		return
	}
	s.handles = [2]windows.Handle{timer, ev}
}

func createTimer(flags uintptr) (windows.Handle, error) {
	h, _, err := syscall.SyscallN(procCreateWaitableTimerW.Addr(), 0, 0, flags, timerAllAccess)
	if h == 0 {
		return 0, err
	}
	return windows.Handle(h), nil
}

func (w *osWaiter) wake() {
	if w.err == nil {
		_ = windows.SetEvent(w.handles[1]) // cannot fail for a valid event
	}
}

// release has nothing to give back: see [osWaiter.Release].
func (w *osWaiter) release() {}

// sliceSleeps: a Wake ends a WaitForMultipleObjects sleep at once.
const sliceSleeps = false

// sleep sets the timer for the time left until end, rounded up, and
// sleeps until it or the wake event fires; which one it was does not
// matter, as the loop then looks at the clock and the wake flag.
func (w *osWaiter) sleep(now, end Instant) error {
	if w.err != nil {
		return sleepSlice(now, end)
	}
	d := time.Duration(end - now)
	w.due = -int64((d + 99) / 100)
	if r, _, err := syscall.SyscallN(procSetWaitableTimer.Addr(), uintptr(w.handles[0]),
		uintptr(unsafe.Pointer(&w.due)), 0, 0, 0, 0); r == 0 {
		return fmt.Errorf("timing: SetWaitableTimer(%v): %w", d, err)
	}
	if _, err := windows.WaitForMultipleObjects(w.handles[:], false, windows.INFINITE); err != nil {
		return fmt.Errorf("timing: WaitForMultipleObjects: %w", err)
	}
	return nil
}
