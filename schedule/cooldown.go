package schedule

import "math"

// Cooldown is a tick deadline kept by value on whatever owns it, typically an
// ECS component: "ready again in N ticks", "is it ready", "how long until".
// It needs no queue. The zero Cooldown is ready from tick 0.
//
// Deadlines past the last uint64 tick saturate there: a cooldown started with
// more ticks than remain becomes ready only at tick math.MaxUint64.
type Cooldown struct {
	readyAt uint64
	length  uint64
}

// Start makes the cooldown ready again ticks after now, whether or not it
// was ready.
func (c *Cooldown) Start(now, ticks uint64) {
	c.length = ticks
	if ticks > math.MaxUint64-now {
		c.readyAt = math.MaxUint64
		return
	}
	c.readyAt = now + ticks
}

// Use starts the cooldown for ticks and reports true if it is ready at now;
// otherwise it leaves it running and reports false. It is the usual way to
// gate an action: if c.Use(tick, 30) { fire() }.
func (c *Cooldown) Use(now, ticks uint64) bool {
	if !c.Ready(now) {
		return false
	}
	c.Start(now, ticks)
	return true
}

// Reset makes the cooldown ready at once.
func (c *Cooldown) Reset() { *c = Cooldown{} }

// Ready reports whether the cooldown has run out at tick now.
func (c Cooldown) Ready(now uint64) bool { return now >= c.readyAt }

// ReadyAt returns the first tick at which the cooldown is ready.
func (c Cooldown) ReadyAt() uint64 { return c.readyAt }

// Remaining returns how many ticks after now the cooldown becomes ready, 0
// when it is ready.
func (c Cooldown) Remaining(now uint64) uint64 {
	if now >= c.readyAt {
		return 0
	}
	return c.readyAt - now
}

// Progress returns how far the cooldown has run at tick now, from 0 when it
// was started to 1 when it is ready; meant for drawing a cooldown bar.
func (c Cooldown) Progress(now uint64) float64 {
	left := c.Remaining(now)
	if left == 0 || c.length == 0 {
		return 1
	}
	if left >= c.length {
		return 0
	}
	return 1 - float64(left)/float64(c.length)
}

// Repeat is a drift-free repeating timer kept by value on its owner: its
// occurrences fall on first, first+period, first+2*period and so on, however
// irregularly it is polled. The zero Repeat never fires.
type Repeat struct {
	next   uint64
	period uint64
	done   bool
}

// NewRepeat returns a timer whose first occurrence is at tick first. A
// period of 0 gives a timer that never fires.
func NewRepeat(first, period uint64) Repeat {
	return Repeat{next: first, period: period}
}

// Fire returns how many occurrences fell due at or before now since the
// previous call, and moves past them. Polled every tick it returns 0 or 1;
// after a gap it returns the number missed, and the caller decides whether
// to act once or that many times. Once an occurrence would pass the last
// uint64 tick the timer stops.
func (r *Repeat) Fire(now uint64) uint64 {
	if r.stopped() || now < r.next {
		return 0
	}
	n := (now-r.next)/r.period + 1
	if n > math.MaxUint64/r.period || r.next > math.MaxUint64-n*r.period {
		r.done = true
		return n
	}
	r.next += n * r.period
	return n
}

// Next returns the tick of the next occurrence, and false once the timer
// has stopped or never had a period.
func (r Repeat) Next() (uint64, bool) { return r.next, !r.stopped() }

func (r Repeat) stopped() bool { return r.done || r.period == 0 }

// Remaining returns how many ticks after now the next occurrence falls, 0
// when it is already due or the timer has stopped.
func (r Repeat) Remaining(now uint64) uint64 {
	if r.stopped() || now >= r.next {
		return 0
	}
	return r.next - now
}

// Period returns the number of ticks between occurrences.
func (r Repeat) Period() uint64 { return r.period }
