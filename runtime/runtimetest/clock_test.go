package runtimetest_test

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

func TestBubbleClockWaiter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := runtimetest.NewBubbleClock()
		w := c.NewWaiter()
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
			time.Sleep(5 * time.Millisecond)
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
