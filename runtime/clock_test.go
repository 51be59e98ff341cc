package runtime_test

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

func TestTimerWaiter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newBubbleClock()
		w := runtime.NewTimerWaiter(c)
		start := c.Now()
		if err := w.WaitUntil(start.AddSaturating(30 * time.Millisecond)); err != nil {
			t.Fatalf("plain wait: got %v, want nil", err)
		}
		if got := time.Duration(c.Now() - start); got != 30*time.Millisecond {
			t.Errorf("plain wait lasted %v, want 30ms", got)
		}
		if err := w.WaitUntil(start); err != nil {
			t.Errorf("wait for a passed target: got %v, want nil", err)
		}
		w.Wake()
		w.Wake() // wakes before a wait count once
		if err := w.WaitUntil(c.Now().AddSaturating(time.Hour)); !errors.Is(err, timing.ErrWaitInterrupted) {
			t.Errorf("wait after Wake: got %v, want ErrWaitInterrupted", err)
		}
		before := c.Now()
		go func() {
			spend(5 * time.Millisecond)
			w.Wake()
		}()
		if err := w.WaitUntil(c.Now().AddSaturating(time.Hour)); !errors.Is(err, timing.ErrWaitInterrupted) {
			t.Errorf("wait woken midway: got %v, want ErrWaitInterrupted", err)
		}
		if got := time.Duration(c.Now() - before); got != 5*time.Millisecond {
			t.Errorf("woken wait lasted %v, want 5ms", got)
		}
	})
}

// TestStopWakesWaits stops a session whose every wait is a second long:
// the stop must end the waits at once, not at their deadlines.
func TestStopWakesWaits(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(mode, nil)
				r.opts.Timing.Mode = timing.FixedMode
				r.opts.Timing.FixedStep = time.Second
				r.opts.Maintenance = time.Second
				r.opts.Polling.Spacing = time.Second
				r.game.onPlatform = stopAt(100 * time.Millisecond)
				start := r.clock.Now()
				if _, err := r.run(); err != nil {
					t.Fatal(err)
				}
				if got := time.Duration(r.clock.Now() - start); got != 100*time.Millisecond {
					t.Errorf("Run returned %v after start, want 100ms (when Stop was called)", got)
				}
			})
		})
	}
}

// TestSystemClockWaiter checks the native waiter the runtime uses: a wait
// ends at or after its target, a Wake before a wait interrupts it, and a
// Wake from another goroutine ends an hour-long wait (a lost wake would
// hang the test until its timeout).
func TestSystemClockWaiter(t *testing.T) {
	c := runtime.SystemClock{}
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
