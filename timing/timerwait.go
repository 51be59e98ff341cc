package timing

import "time"

// timerWaiter is the portable [Waiter]: one reused Go timer raced against a
// wake channel. It waits with time.Sleep's precision on real time, and on
// the fake time of a testing/synctest bubble, which Go timers follow: the
// waiter of a clock whose reading Go timers follow. Its clock must be one
// of those: Go timers do not follow a [ManualClock].
//
// One goroutine at a time may wait on a timerWaiter; Wake may be called
// from any goroutine. It allocates nothing per wait.
type timerWaiter struct {
	clock Clock
	timer *time.Timer
	wake  chan struct{}
}

// NewTimerWaiter returns a waiter on a timer measured against clock's
// reading; a nil clock is [SystemClock].
func NewTimerWaiter(clock Clock) Waiter { return newTimerWaiter(clock) }

func newTimerWaiter(clock Clock) *timerWaiter {
	if clock == nil {
		clock = SystemClock{}
	}
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &timerWaiter{clock: clock, timer: t, wake: make(chan struct{}, 1)}
}

// WaitUntil sleeps until the clock reads target and returns nil, or
// returns [ErrWaitInterrupted] when [timerWaiter.Wake] was called since the
// last interrupted wait (a Wake before the call counts). A target already
// passed returns at once.
func (w *timerWaiter) WaitUntil(target Instant) error {
	for {
		select {
		case <-w.wake:
			return ErrWaitInterrupted
		default:
		}
		d := time.Duration(target - w.clock.Now())
		if d <= 0 {
			return nil
		}
		w.timer.Reset(d)
		select {
		case <-w.timer.C:
		case <-w.wake:
			w.timer.Stop()
			return ErrWaitInterrupted
		}
	}
}

// Wake interrupts the current wait, or the next one if none is in progress.
// Wakes that arrive before a wait notices them count once.
func (w *timerWaiter) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Release stops the timer.
func (w *timerWaiter) Release() { w.timer.Stop() }
