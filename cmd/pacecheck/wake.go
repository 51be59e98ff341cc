package main

import (
	"math/rand/v2"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// interruptible is a wait another goroutine can cut short.
type interruptible struct {
	name string
	w    timing.Waiter
}

func interruptibles() ([]interruptible, error) {
	var out []interruptible
	for _, slice := range []time.Duration{timing.DefaultWaitSlice, time.Millisecond} {
		w, err := timing.NewOSWaiter(slice)
		if err != nil {
			return nil, err
		}
		out = append(out, interruptible{name: "native/" + slice.String(), w: w})
	}
	out = append(out, interruptible{name: "futex", w: timing.NewFutexWaiter()})
	return append(out, interruptible{name: "timer+channel", w: timing.NewTimerWaiter(nil)}), nil
}

// measureWakes waits on the main goroutine for a far target while another
// goroutine calls Wake after a random 1-9 ms, n times, and returns how long
// each wait took to return after its Wake.
func measureWakes(it interruptible, n int) []time.Duration {
	out := make([]time.Duration, 0, n)
	woke := make(chan timing.Instant, 1)
	for range n {
		go func() {
			time.Sleep(time.Millisecond + rand.N(8*time.Millisecond))
			t := timing.Now()
			it.w.Wake()
			woke <- t
		}()
		_ = it.w.WaitUntil(timing.Now() + timing.Instant(time.Second))
		back := timing.Now()
		out = append(out, time.Duration(back-<-woke))
	}
	return out
}
