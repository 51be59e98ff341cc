package timing

import (
	"slices"
	"sync"
	"time"
)

// ManualClock is virtual time: a [Clock] that moves only when told to, or
// when every goroutine that waits on it is waiting. It is safe for
// concurrent use. The zero value reads Instant(0).
//
// [ManualClock.Set] and [ManualClock.Advance] move it explicitly. Its
// waiters ([ManualClock.NewWaiter]) move it too: once every waiter it has
// handed out is blocked in WaitUntil and none of their targets has been
// reached, the clock jumps to the earliest target. A session run on a
// manual clock therefore goes as fast as the CPU allows and sees exactly
// the instants its scheduler chose, and a test never sleeps.
//
// Order at one instant is deterministic: waiters rank in the order they
// were created, and a waiter whose target has been reached returns only
// when every earlier waiter is blocked on a later target. A runtime creates
// its platform thread's waiter first, so at each instant the platform
// polls before the simulation takes input, in every mode and on every
// machine. A woken waiter ([Waiter.Wake]) returns at once.
//
// A goroutine that holds a waiter and blocks on anything else (a channel,
// a lock) keeps the clock where it is until it waits on its waiter again:
// that is what makes virtual time exact, and what a test must keep in mind
// when it adds goroutines of its own. The same holds for a waiter whose
// goroutine has returned, or that was never waited on: it counts as
// running for good, so the clock no longer jumps, and waiters ranked
// after it whose targets are reached stay held. Only Set, Advance and
// Wake move things on from there; give each session its own clock, and
// end a goroutine's part in virtual time by having it be woken rather
// than by returning while others still wait.
type ManualClock struct {
	mu      sync.Mutex
	now     Instant
	waiters []*manualWaiter
}

// NewManualClock returns a manual clock reading start.
func NewManualClock(start Instant) *ManualClock { return &ManualClock{now: start} }

// Now returns the current manual reading.
func (c *ManualClock) Now() Instant {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d and returns the new reading.
// It panics if d is negative or the reading would overflow: both are test bugs.
func (c *ManualClock) Advance(d time.Duration) Instant {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d < 0 {
		panic("timing: ManualClock.Advance with a negative duration")
	}
	n, err := c.now.Add(d)
	if err != nil {
		panic("timing: ManualClock.Advance overflows")
	}
	c.now = n
	c.settle()
	return n
}

// Set moves the clock to t, which may be earlier than the current reading so
// that tests can feed a regression to the code under test. Set backwards
// releases nothing; a waiter already released keeps its release and may
// then read the clock before its target. When every waiter is blocked on
// a future target the clock jumps on to the earliest one at once, so a
// regression meant for the code under test is best set while one of its
// goroutines runs (from a hook, say).
func (c *ManualClock) Set(t Instant) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
	c.settle()
}

// NewWaiter returns a waiter on virtual time. Each goroutine that waits
// needs its own; see [ManualClock] for how waiters move the clock.
func (c *ManualClock) NewWaiter() Waiter {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := &manualWaiter{clock: c, release: make(chan error, 1)}
	c.waiters = append(c.waiters, w)
	return w
}

// manualWaiter is one goroutine's place in virtual time. Its fields are
// guarded by the clock's mutex.
type manualWaiter struct {
	clock    *ManualClock
	waiting  bool // blocked in WaitUntil
	target   Instant
	woken    bool // a Wake is pending
	released bool
	release  chan error
}

// WaitUntil blocks until the clock reads target and every earlier waiter
// is blocked on a later target, or until Wake. A target already reached
// therefore still waits while an earlier waiter runs. A pending Wake
// returns ErrWaitInterrupted at once, whatever the target.
func (w *manualWaiter) WaitUntil(target Instant) error {
	c := w.clock
	c.mu.Lock()
	if w.woken {
		w.woken = false
		c.mu.Unlock()
		return ErrWaitInterrupted
	}
	if w.released {
		c.mu.Unlock()
		panic("timing: WaitUntil on a released ManualClock waiter")
	}
	w.waiting, w.target = true, target
	c.settle()
	c.mu.Unlock()
	return <-w.release
}

// Release retires the waiter: its goroutine will not wait again (it has
// finished), so the clock no longer waits for it to block before moving,
// and later-ranked waiters no longer yield to it. A runtime releases the
// waiter of a goroutine it has joined. Waiting on a released waiter
// panics.
func (w *manualWaiter) Release() {
	c := w.clock
	c.mu.Lock()
	defer c.mu.Unlock()
	if i := slices.Index(c.waiters, w); i >= 0 {
		c.waiters = slices.Delete(c.waiters, i, i+1)
		w.released = true
	}
	c.settle()
}

// Wake interrupts the current wait, or the next one if none is in
// progress; wakes before a wait count once. Safe from any goroutine.
func (w *manualWaiter) Wake() {
	c := w.clock
	c.mu.Lock()
	defer c.mu.Unlock()
	w.woken = true
	c.settle()
}

// settle releases the waiters that may run and, when every waiter is
// blocked on a future target, moves the clock to the earliest one. Called
// with c.mu held whenever a waiter, a wake or the reading changes.
func (c *ManualClock) settle() {
	for {
		runs := false
		earliest := MaxInstant
		for i, w := range c.waiters {
			switch {
			case !w.waiting:
				runs = true
			case w.woken:
				w.woken, w.waiting = false, false
				w.release <- ErrWaitInterrupted
				runs = true
			case w.target <= c.now:
				// Released now, or held behind an earlier waiter that
				// still has work at this instant.
				if c.earlierBlocked(i) {
					w.waiting = false
					w.release <- nil
				}
				runs = true
			default:
				earliest = min(earliest, w.target)
			}
		}
		if runs || len(c.waiters) == 0 {
			return
		}
		c.now = earliest
	}
}

// earlierBlocked reports whether every waiter ranked before i is blocked
// on a target after the current reading.
func (c *ManualClock) earlierBlocked(i int) bool {
	for _, w := range c.waiters[:i] {
		if !w.waiting || w.woken || w.target <= c.now {
			return false
		}
	}
	return true
}
