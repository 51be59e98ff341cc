//go:build !linux && !windows && !darwin

package timing

import "time"

// On the systems without a native wait of their own (the BSDs, js/wasm,
// plan9) osWaiter sleeps on one reused Go timer raced against a wake
// channel: time.Sleep's precision. The pacer measures every frame's
// lateness from its own clock reading after the wait, so a late wake is
// reported, never hidden.
type waitState struct {
	timer *time.Timer
	wakes chan struct{}
}

func (s *waitState) init() {
	s.timer = time.NewTimer(time.Hour)
	s.timer.Stop()
	s.wakes = make(chan struct{}, 1)
}

// sliceSleeps: a Wake ends a sleep at once.
const sliceSleeps = false

func (w *osWaiter) wake() {
	select {
	case w.wakes <- struct{}{}:
	default:
	}
}

func (w *osWaiter) release() { w.timer.Stop() }

// sleep waits for the timer or a Wake. A Wake the loop has already seen
// leaves its token in the channel, which ends the next sleep at once; the
// loop then sleeps again, once.
func (w *osWaiter) sleep(now, end Instant) error {
	w.timer.Reset(time.Duration(end - now))
	select {
	case <-w.timer.C:
	case <-w.wakes:
		w.timer.Stop()
	}
	return nil
}
