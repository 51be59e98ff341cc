package timing_test

import (
	"errors"
	"fmt"
	goruntime "runtime"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// manualStart is a reading far from zero, so that a test can go back.
const manualStart = timing.Instant(time.Hour)

func manualAt(d time.Duration) timing.Instant { return manualStart + timing.Instant(d) }

// TestManualClockWithoutWaiters: with no waiters the clock moves only when
// told to, and refuses what can only be a test bug.
func TestManualClockWithoutWaiters(t *testing.T) {
	var zero timing.ManualClock
	if got := zero.Now(); got != 0 {
		t.Errorf("zero ManualClock reads %v, want 0", got)
	}
	c := timing.NewManualClock(manualStart)
	steps := []struct {
		op   string
		d    time.Duration
		want timing.Instant
	}{
		{"now", 0, manualStart},
		{"advance", 5 * time.Millisecond, manualAt(5 * time.Millisecond)},
		{"advance", 0, manualAt(5 * time.Millisecond)},
		{"set", -time.Minute, manualAt(-time.Minute)}, // backwards: a regression for the code under test
		{"now", 0, manualAt(-time.Minute)},
		{"set", time.Minute, manualAt(time.Minute)},
		{"advance", time.Second, manualAt(time.Minute + time.Second)},
	}
	for i, s := range steps {
		var got timing.Instant
		switch s.op {
		case "now":
			got = c.Now()
		case "advance":
			got = c.Advance(s.d)
		case "set":
			c.Set(manualAt(s.d))
			got = c.Now()
		}
		if got != s.want {
			t.Errorf("step %d %s(%v) reads %v, want %v", i, s.op, s.d, got, s.want)
		}
	}
	for _, tt := range []struct {
		name  string
		clock *timing.ManualClock
		d     time.Duration
	}{
		{"negative", timing.NewManualClock(manualStart), -1},
		{"overflow", timing.NewManualClock(timing.MaxInstant - 1), 2},
	} {
		t.Run("Advance panics: "+tt.name, func(t *testing.T) {
			before := tt.clock.Now()
			defer func() {
				if recover() == nil {
					t.Errorf("Advance(%v) did not panic", tt.d)
				}
				if got := tt.clock.Now(); got != before {
					t.Errorf("a refused Advance moved the clock from %v to %v", before, got)
				}
			}()
			tt.clock.Advance(tt.d)
		})
	}
}

// TestManualClockPlainWaits: a lone waiter moves the clock to each future
// target at once, and a target already reached returns without moving it.
func TestManualClockPlainWaits(t *testing.T) {
	c := timing.NewManualClock(manualStart)
	w := c.NewWaiter()
	for i, tt := range []struct {
		target, want timing.Instant
	}{
		{manualAt(10 * time.Millisecond), manualAt(10 * time.Millisecond)},
		{manualAt(10 * time.Millisecond), manualAt(10 * time.Millisecond)}, // reached: no move
		{manualAt(3 * time.Millisecond), manualAt(10 * time.Millisecond)},  // passed: no move
		{manualAt(time.Hour), manualAt(time.Hour)},
		{timing.MaxInstant, timing.MaxInstant},
	} {
		if err := w.WaitUntil(tt.target); err != nil {
			t.Fatalf("wait %d until %v: %v", i, tt.target, err)
		}
		if got := c.Now(); got != tt.want {
			t.Errorf("after wait %d until %v the clock reads %v, want %v", i, tt.target, got, tt.want)
		}
	}
}

// manualLog records what waiting goroutines saw, in order.
type manualLog struct {
	mu      sync.Mutex
	entries []string
}

func (l *manualLog) add(format string, args ...any) {
	l.mu.Lock()
	l.entries = append(l.entries, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

// TestManualClockOrderAtEqualInstants: two goroutines wait on interleaved
// targets, several of them equal. Whatever the Go scheduler does, exactly
// one runs at a time; at an instant both wait for, rank 0 (the first
// waiter made) runs first and rank 1 only once rank 0 waits on a later
// target. The log is the same on every run.
func TestManualClockOrderAtEqualInstants(t *testing.T) {
	ms := func(n int) timing.Instant { return manualAt(time.Duration(n) * time.Millisecond) }
	targets := [2][]timing.Instant{
		{ms(10), ms(20), ms(20), ms(30), ms(45)},
		{ms(10), ms(15), ms(20), ms(30), ms(30)},
	}
	want := []string{
		"0 at 10", "0 waits 20", // rank 1 is held at 10 until rank 0 waits beyond it
		"1 at 10", "1 waits 15",
		"1 at 15", "1 waits 20",
		"0 at 20", "0 waits 20", // the same instant again: rank 0 goes on first
		"0 at 20", "0 waits 30",
		"1 at 20", "1 waits 30",
		"0 at 30", "0 waits 45",
		"1 at 30", "1 waits 30",
		"1 at 30", "1 done",
		"0 at 45", "0 done",
		"1 wakes 0",
	}
	for run := range 200 {
		c := timing.NewManualClock(manualStart)
		waiters := [2]timing.Waiter{c.NewWaiter(), c.NewWaiter()}
		var log manualLog
		var wg sync.WaitGroup
		for rank := range 2 {
			wg.Go(func() {
				for i, target := range targets[rank] {
					if err := waiters[rank].WaitUntil(target); err != nil {
						log.add("%d error %v", rank, err)
						return
					}
					now := c.Now()
					log.add("%d at %d", rank, (now-manualStart)/timing.Instant(time.Millisecond))
					if now != target {
						log.add("%d woke at %v for %v", rank, now, target)
					}
					if i+1 < len(targets[rank]) {
						log.add("%d waits %d", rank, (targets[rank][i+1]-manualStart)/timing.Instant(time.Millisecond))
					} else {
						log.add("%d done", rank)
					}
				}
				// A goroutine that returns keeps counting as running (see
				// ManualClock), so neither leaves while the other needs
				// the clock: rank 1 waits for the clock's last instant
				// but one, then wakes rank 0, which waits for the last.
				if rank == 1 {
					if err := waiters[1].WaitUntil(timing.MaxInstant - 1); err != nil {
						log.add("1 error %v", err)
					}
					log.add("1 wakes 0")
					waiters[0].Wake()
				} else if err := waiters[0].WaitUntil(timing.MaxInstant); !errors.Is(err, timing.ErrWaitInterrupted) {
					log.add("0 left with %v", err)
				}
			})
		}
		wg.Wait()
		if !slices.Equal(log.entries, want) {
			t.Fatalf("run %d:\n got %q\nwant %q", run, log.entries, want)
		}
		if got := c.Now(); got != timing.MaxInstant-1 {
			t.Fatalf("run %d: the clock reads %v at the end, want MaxInstant-1", run, got)
		}
	}
}

// TestManualClockWakeBeforeWait: a Wake before a wait interrupts it at once
// without moving the clock; wakes before a wait count once.
func TestManualClockWakeBeforeWait(t *testing.T) {
	c := timing.NewManualClock(manualStart)
	w := c.NewWaiter()
	w.Wake()
	w.Wake()
	if err := w.WaitUntil(manualAt(time.Hour)); !errors.Is(err, timing.ErrWaitInterrupted) {
		t.Fatalf("wait after Wake: %v, want ErrWaitInterrupted", err)
	}
	if got := c.Now(); got != manualStart {
		t.Errorf("an interrupted wait moved the clock to %v", got)
	}
	if err := w.WaitUntil(manualAt(time.Second)); err != nil {
		t.Fatalf("wait after the Wake was consumed: %v, want nil (wakes before a wait count once)", err)
	}
	if got := c.Now(); got != manualAt(time.Second) {
		t.Errorf("clock reads %v, want %v", got, manualAt(time.Second))
	}
	// A wake pending on a target already reached still interrupts.
	w.Wake()
	if err := w.WaitUntil(manualStart); !errors.Is(err, timing.ErrWaitInterrupted) {
		t.Errorf("wait for a reached target after Wake: %v, want ErrWaitInterrupted", err)
	}
}

// waitResult runs WaitUntil on its own goroutine and reports the result.
func waitResult(w timing.Waiter, target timing.Instant) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- w.WaitUntil(target) }()
	return ch
}

// returned reports whether a wait started with waitResult has returned,
// once every goroutine of the bubble is blocked.
func returned(ch <-chan error) (error, bool) {
	synctest.Wait()
	select {
	case err := <-ch:
		return err, true
	default:
		return nil, false
	}
}

// TestManualClockWakeDuringWait: a Wake ends a blocked wait at once with
// ErrWaitInterrupted, whether its target is in the future (the clock held
// by a waiter that is not waiting) or reached but held behind an earlier
// waiter; the clock does not move.
func TestManualClockWakeDuringWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := timing.NewManualClock(manualStart)
		busy := c.NewWaiter() // rank 0, never waits: the clock stays put
		w := c.NewWaiter()

		future := waitResult(w, manualAt(time.Hour))
		if _, done := returned(future); done {
			t.Fatal("a wait returned while a waiter was running and its target was in the future")
		}
		w.Wake()
		if err, done := returned(future); !done || !errors.Is(err, timing.ErrWaitInterrupted) {
			t.Fatalf("wait woken during its sleep: returned %v with %v, want ErrWaitInterrupted", done, err)
		}

		held := waitResult(w, manualStart) // reached, but rank 0 is running
		if _, done := returned(held); done {
			t.Fatal("rank 1 returned at a reached instant while rank 0 was running")
		}
		w.Wake()
		if err, done := returned(held); !done || !errors.Is(err, timing.ErrWaitInterrupted) {
			t.Fatalf("held wait woken: returned %v with %v, want ErrWaitInterrupted", done, err)
		}
		if got := c.Now(); got != manualStart {
			t.Errorf("the clock moved to %v", got)
		}
		// Nothing was left pending: the next wait sleeps until released.
		again := waitResult(w, manualAt(time.Minute))
		if _, done := returned(again); done {
			t.Fatal("a consumed Wake interrupted a later wait")
		}
		busy.Wake() // harmless on a waiter that is not waiting
		if err := busy.WaitUntil(manualAt(2 * time.Minute)); !errors.Is(err, timing.ErrWaitInterrupted) {
			t.Fatalf("rank 0's pending Wake: %v, want ErrWaitInterrupted", err)
		}
		// Rank 0 now waits beyond rank 1's target: the clock jumps to it.
		zeroDone := waitResult(busy, manualAt(2*time.Minute))
		if err, done := returned(again); !done || err != nil {
			t.Fatalf("rank 1 once rank 0 waits: returned %v with %v, want nil", done, err)
		}
		if got := c.Now(); got != manualAt(time.Minute) {
			t.Errorf("clock reads %v, want rank 1's target %v", got, manualAt(time.Minute))
		}
		// Rank 1 gone for good would hold the clock; wake rank 0 to end.
		busy.Wake()
		if err, done := returned(zeroDone); !done || !errors.Is(err, timing.ErrWaitInterrupted) {
			t.Fatalf("rank 0 woken: returned %v with %v", done, err)
		}
	})
}

// TestManualClockSetAndAdvanceRelease: with a waiter that is not waiting
// holding the clock, Set and Advance from another goroutine release the
// waiters whose targets they reach, in rank order, and none other; Set
// backwards releases nothing.
func TestManualClockSetAndAdvanceRelease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := timing.NewManualClock(manualStart)
		a := c.NewWaiter() // rank 0
		b := c.NewWaiter() // rank 1
		c.NewWaiter()      // rank 2, held by this goroutine, never waits
		var log manualLog
		aDone := make(chan struct{})
		go func() {
			defer close(aDone)
			for _, target := range []timing.Instant{manualAt(10 * time.Millisecond), manualAt(15 * time.Millisecond)} {
				if err := a.WaitUntil(target); err != nil {
					log.add("a error %v", err)
					return
				}
				log.add("a at %v", time.Duration(c.Now()-manualStart))
			}
			log.add("a waits 1h")
			if err := a.WaitUntil(manualAt(time.Hour)); err != nil {
				log.add("a woken: %v", err)
			}
		}()
		bDone := waitResult(b, manualAt(12*time.Millisecond))
		synctest.Wait()
		if got := c.Now(); got != manualStart {
			t.Fatalf("the clock moved to %v with a waiter not waiting", got)
		}

		c.Set(manualAt(-5 * time.Millisecond)) // backwards: nothing due
		if _, done := returned(bDone); done || len(log.entries) != 0 {
			t.Fatalf("Set backwards released a waiter: %q", log.entries)
		}
		c.Advance(15 * time.Millisecond) // to 10 ms: a's first target
		synctest.Wait()
		if want := []string{"a at 10ms"}; !slices.Equal(log.entries, want) {
			t.Fatalf("after Advance to 10 ms: %q, want %q", log.entries, want)
		}
		if _, done := returned(bDone); done {
			t.Fatal("b returned before its target")
		}
		// 20 ms passes a's second target and b's: a (rank 0) first, b
		// only once a waits beyond 20 ms.
		c.Set(manualAt(20 * time.Millisecond))
		err, done := returned(bDone)
		if !done || err != nil {
			t.Fatalf("b after Set to 20 ms: returned %v with %v, want nil", done, err)
		}
		if want := []string{"a at 10ms", "a at 20ms", "a waits 1h"}; !slices.Equal(log.entries, want) {
			t.Errorf("log %q, want %q (a before b)", log.entries, want)
		}
		a.Wake()
		<-aDone
		if got := c.Now(); got != manualAt(20*time.Millisecond) {
			t.Errorf("the clock reads %v, want 20 ms", got)
		}
	})
}

// TestManualClockJumpsWhenAllWait: when every waiter is blocked on a future
// target the clock jumps to the earliest and releases its waiter; a waiter
// made later holds the clock until it waits.
func TestManualClockJumpsWhenAllWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := timing.NewManualClock(manualStart)
		a, b := c.NewWaiter(), c.NewWaiter()
		far := waitResult(a, manualAt(time.Minute))
		near := waitResult(b, manualAt(time.Second))
		if err, done := returned(near); !done || err != nil {
			t.Fatalf("the earliest target: returned %v with %v, want nil", done, err)
		}
		if got := c.Now(); got != manualAt(time.Second) {
			t.Fatalf("clock reads %v, want the earliest target %v", got, manualAt(time.Second))
		}
		if _, done := returned(far); done {
			t.Fatal("the later target returned early")
		}
		late := c.NewWaiter() // not waiting: the clock stays at 1 s
		near = waitResult(b, manualAt(2*time.Minute))
		if _, done := returned(far); done || c.Now() != manualAt(time.Second) {
			t.Fatalf("the clock moved to %v while a new waiter had not waited", c.Now())
		}
		lateDone := waitResult(late, manualAt(3*time.Minute))
		if err, done := returned(far); !done || err != nil || c.Now() != manualAt(time.Minute) {
			t.Fatalf("once every waiter waits: a returned %v with %v at %v, want nil at 1 m", done, err, c.Now())
		}
		if err, done := returned(near); done {
			t.Fatalf("b returned %v at 1 m while a ran", err)
		}
		aDone := waitResult(a, manualAt(time.Hour))
		if err, done := returned(near); !done || err != nil || c.Now() != manualAt(2*time.Minute) {
			t.Fatalf("b once a waits again: returned %v with %v at %v, want nil at 2 m", done, err, c.Now())
		}
		// b's goroutine has returned: it counts as running from now on,
		// so the clock stays at 2 m and only a Wake ends the others.
		if err, done := returned(lateDone); done {
			t.Fatalf("late returned %v with the clock held by b", err)
		}
		late.Wake()
		a.Wake()
		for name, ch := range map[string]<-chan error{"late": lateDone, "a": aDone} {
			if err, done := returned(ch); !done || !errors.Is(err, timing.ErrWaitInterrupted) {
				t.Errorf("%s woken: returned %v with %v, want ErrWaitInterrupted", name, done, err)
			}
		}
		if got := c.Now(); got != manualAt(2*time.Minute) {
			t.Errorf("the clock reads %v, want 2 m", got)
		}
	})
}

// TestManualClockRelease: a waiter whose goroutine has finished would hold
// the clock for ever (it counts as running); released, it no longer does,
// and later-ranked waiters stop yielding to it.
func TestManualClockRelease(t *testing.T) {
	c := timing.NewManualClock(0)
	first := c.NewWaiter()  // its goroutine "finishes" without waiting
	second := c.NewWaiter() // keeps waiting
	done := make(chan error, 1)
	go func() { done <- second.WaitUntil(100) }()
	// With first running, the clock cannot move to 100.
	for range 100 {
		goruntime.Gosched()
	}
	select {
	case err := <-done:
		t.Fatalf("wait returned (%v) while an earlier waiter was running", err)
	default:
	}
	first.Release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := c.Now(); got != 100 {
		t.Errorf("clock after the release: %v, want 100", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("WaitUntil on a released waiter did not panic")
		}
	}()
	_ = first.WaitUntil(200)
}
