package timing_test

import (
	"errors"
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// TestSystemClockWaiter checks the native waiter the runtime uses: a wait
// ends at or after its target, a Wake before a wait interrupts it, and a
// Wake from another goroutine ends an hour-long wait (a lost wake would
// hang the test until its timeout).
func TestSystemClockWaiter(t *testing.T) {
	c := timing.SystemClock{}
	w := c.NewWaiter()
	target := c.Now().AddSaturating(2 * time.Millisecond)
	if err := w.WaitUntil(target); err != nil {
		t.Fatalf("plain wait: got %v, want nil", err)
	}
	if now := c.Now(); now < target {
		t.Errorf("plain wait returned %v before its target", time.Duration(target-now))
	}
	w.Wake()
	w.Wake()
	if err := w.WaitUntil(c.Now().AddSaturating(time.Hour)); !errors.Is(err, timing.ErrWaitInterrupted) {
		t.Errorf("wait after Wake: got %v, want ErrWaitInterrupted", err)
	}
	if err := w.WaitUntil(c.Now()); err != nil {
		t.Errorf("wait after a consumed Wake: got %v, want nil (wakes before a wait count once)", err)
	}
	for i := range 50 {
		started := make(chan struct{})
		go func() {
			<-started
			w.Wake()
		}()
		close(started) // the Wake races with the start of the wait
		if err := w.WaitUntil(c.Now().AddSaturating(time.Hour)); !errors.Is(err, timing.ErrWaitInterrupted) {
			t.Fatalf("wait %d woken from another goroutine: got %v, want ErrWaitInterrupted", i, err)
		}
	}
}
