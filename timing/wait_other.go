//go:build !linux && !windows && !darwin

package timing

import "time"

// On the systems without a native wait of their own (the BSDs, js/wasm,
// plan9) OSWaiter sleeps on a Go timer raced against Wake: time.Sleep's
// precision. The pacer measures every frame's lateness from its own clock
// reading after the wait, so a late wake is reported, never hidden.
type waitState struct {
	ch    chan struct{}
	timer *time.Timer
}

func (s *waitState) init() { s.ch = make(chan struct{}, 1) }

func (w *OSWaiter) wake() {
	select {
	case w.ch <- struct{}{}:
	default:
	}
}

// LowerTimerSlack does nothing outside Linux and returns nil.
func LowerTimerSlack() error { return nil }

func (w *OSWaiter) waitUntil(target Instant) error {
	for {
		if w.takeWake() {
			return ErrWaitInterrupted
		}
		now := Now()
		if now >= target {
			return nil
		}
		d := time.Duration(target - now)
		if w.timer == nil {
			w.timer = time.NewTimer(d)
		} else {
			w.timer.Reset(d)
		}
		select {
		case <-w.timer.C:
		case <-w.ch:
			w.timer.Stop()
		}
	}
}
