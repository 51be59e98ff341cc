package timing

import "time"

// sleepUntil is the wait of an osWaiter on Windows or macOS whose native
// timer could not be set up (no handle or no kqueue left: its creation error is kept in
// waitState.err): the Go runtime's timer, time.Sleep's precision, and a
// Wake seen within DefaultWaitSlice. A failing native wait would return
// its error on every call, and a loop that retries would spin.
func (w *osWaiter) sleepUntil(target Instant) error {
	for {
		if w.takeWake() {
			return ErrWaitInterrupted
		}
		now := Now()
		if now >= target {
			return nil
		}
		time.Sleep(min(time.Duration(target-now), DefaultWaitSlice))
	}
}
