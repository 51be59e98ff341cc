package timing

import (
	"fmt"
	"time"
)

// FrameSample is what [FrameClock.Sample] observed for one frame.
type FrameSample struct {
	// Elapsed is the accepted interval since the previous sample, at most
	// the clock's maximum delta.
	Elapsed time.Duration
	// Discarded is the part of the interval beyond the maximum delta.
	Discarded time.Duration
	// Baseline marks the first sample after construction or Reset: it only
	// establishes where measuring starts.
	Baseline bool
	// Regression marks a reading below the highest one seen; it reports
	// nothing and moves nothing.
	Regression bool
}

// FrameClock turns one reading per frame into a clamped interval. The first
// sample is a baseline; later samples report the elapsed time, clamped to
// the maximum delta with the excess reported as discarded. A stall still
// moves the baseline to the new reading, so the excess is never reported
// twice. The clock keeps the highest reading it has seen, across resets, so
// a reading from before it can never become a baseline. One goroutine, the
// frame loop's, owns a FrameClock and makes every call.
type FrameClock struct {
	maxDelta  time.Duration
	prev      Instant
	highWater Instant
	seen      bool // highWater is valid
	baseline  bool // prev is valid
}

// NewFrameClock returns a frame clock that accepts at most maxDelta per
// frame. A zero maxDelta deliberately freezes accepted time (everything is
// discarded). A negative maxDelta is an error.
func NewFrameClock(maxDelta time.Duration) (*FrameClock, error) {
	if maxDelta < 0 {
		return nil, fmt.Errorf("timing: NewFrameClock maxDelta %v is negative; allowed 0 or more", maxDelta)
	}
	return &FrameClock{maxDelta: maxDelta}, nil
}

// Sample records the reading now. Equal readings are valid and report zero.
func (c *FrameClock) Sample(now Instant) FrameSample {
	if c.seen && now < c.highWater {
		return FrameSample{Regression: true}
	}
	c.highWater, c.seen = now, true
	if !c.baseline {
		c.prev, c.baseline = now, true
		return FrameSample{Baseline: true}
	}
	d, err := Elapsed(c.prev, now)
	c.prev = now
	var s FrameSample
	if err != nil { // an interval beyond int64: all of it is excess
		s.Discarded = time.Duration(MaxInstant)
	} else {
		s.Elapsed = min(d, c.maxDelta)
		s.Discarded = d - s.Elapsed
	}
	return s
}

// Reset drops the baseline (after a suspension or at startup) so the next
// sample is a baseline again. The highest reading is kept.
func (c *FrameClock) Reset() { c.baseline = false }
