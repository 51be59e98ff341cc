//go:build !linux && !windows && !darwin

package timing

// On the systems without a native wait of their own (the BSDs, js/wasm,
// plan9) osWaiter is a [NewTimerWaiter]'s waiter on the system clock: time.Sleep's
// precision. The pacer measures every frame's lateness from its own clock
// reading after the wait, so a late wake is reported, never hidden. The
// wake flag of osWaiter is not used: the timer waiter's channel keeps the
// pending Wake.
type waitState struct{ timer *timerWaiter }

func (s *waitState) init() { s.timer = newTimerWaiter(SystemClock{}) }

func (w *osWaiter) wake() { w.timer.Wake() }

func (w *osWaiter) release() { w.timer.Release() }

func (w *osWaiter) waitUntil(target Instant) error {
	w.takeWake()
	return w.timer.WaitUntil(target)
}
