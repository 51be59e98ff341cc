package runtimetest

import (
	"sync"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// Start is the first reading of the clocks this package makes: far from
// zero, so that instants scripted a little before it are still valid.
const Start = timing.Instant(time.Hour)

// BubbleClock reads the fake time of a testing/synctest bubble and waits
// with Go timers, which that fake time drives: inside a bubble, time moves
// only when every goroutine of the bubble is blocked, so a whole session
// runs in no real time, and work that takes time is a time.Sleep. Make it
// inside the bubble. Order at one instant is the Go scheduler's; use a
// [timing.ManualClock] where that order must be exact.
type BubbleClock struct{ base time.Time }

// NewBubbleClock returns a clock that reads [Start] now.
func NewBubbleClock() *BubbleClock { return &BubbleClock{base: time.Now()} }

// Now returns Start plus the fake time elapsed since the clock was made.
func (c *BubbleClock) Now() timing.Instant { return Start + timing.Instant(time.Since(c.base)) }

// At returns the instant d after the clock was made.
func (c *BubbleClock) At(d time.Duration) timing.Instant { return Start.AddSaturating(d) }

// NewWaiter returns a timer waiter ([timing.NewTimerWaiter]) on the clock: its Go timer
// follows the bubble's fake time.
func (c *BubbleClock) NewWaiter() timing.Waiter { return timing.NewTimerWaiter(c) }

// Owner names a goroutine that waits: the platform thread, or the
// simulation goroutine of concurrent mode.
type Owner int

const (
	// Platform is the caller of Run.
	Platform Owner = iota
	// Simulation is the simulation owner: the simulation goroutine in
	// concurrent mode, the platform thread in sequential mode.
	Simulation
)

// Clock is a [timing.ManualClock] that remembers which waiter belongs to
// which owner, so that fakes can stand for work that takes time: on
// virtual time, work of duration d is its owner waiting d on its own
// waiter ([Clock.Spend]), while the other owner may run. A runtime asks its
// clock for the platform's waiter first and the simulation's second (see
// runtime.Options.Clock). Use a Clock for one runtime.
type Clock struct {
	*timing.ManualClock
	mu      sync.Mutex
	waiters []timing.Waiter
}

// NewClock returns a virtual clock reading [Start].
func NewClock() *Clock { return &Clock{ManualClock: timing.NewManualClock(Start)} }

// At returns the instant d after [Start].
func (c *Clock) At(d time.Duration) timing.Instant { return Start.AddSaturating(d) }

// NewWaiter returns a waiter of the underlying manual clock and notes its
// owner.
func (c *Clock) NewWaiter() timing.Waiter {
	w := c.ManualClock.NewWaiter()
	c.mu.Lock()
	c.waiters = append(c.waiters, w)
	c.mu.Unlock()
	return w
}

// Spend stands for work of duration d done by owner: it waits until d from
// now on owner's waiter (the platform's in sequential mode, where one
// thread owns both), so the clock moves on by d for that owner while the
// other keeps running. Call it on owner's goroutine, inside a hook or an
// adapter method. It does nothing for d <= 0 or before a runtime has asked
// for waiters.
func (c *Clock) Spend(owner Owner, d time.Duration) {
	if d <= 0 {
		return
	}
	c.mu.Lock()
	if len(c.waiters) == 0 {
		c.mu.Unlock()
		return
	}
	w := c.waiters[min(int(owner), len(c.waiters)-1)]
	c.mu.Unlock()
	target := c.Now().AddSaturating(d)
	woken := false
	for c.Now() < target {
		if w.WaitUntil(target) != nil {
			woken = true // work goes on; the wake is for the owner's next wait
		}
	}
	if woken {
		w.Wake()
	}
}
