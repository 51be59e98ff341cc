package timing

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Instant is a reading of a monotonic clock in integer nanoseconds. The epoch
// is arbitrary and private to the process: compare and subtract instants from
// the same clock, never persist them or convert them to wall time.
//
// The zero Instant is an ordinary reading, not a sentinel.
type Instant int64

// MaxInstant is the largest representable instant. Deadlines that would pass
// it saturate here when the caller asks for saturation.
const MaxInstant = Instant(math.MaxInt64)

var (
	// ErrOverflow reports that an instant or duration would leave the
	// representable range.
	ErrOverflow = errors.New("timing: instant arithmetic overflows")
	// ErrClockRegression reports a clock reading earlier than one already
	// seen: a monotonic clock never goes backwards, so the input is wrong.
	ErrClockRegression = errors.New("timing: clock went backwards")
	// ErrNegativeDuration reports a negative interval where only
	// non-negative ones mean anything.
	ErrNegativeDuration = errors.New("timing: negative duration")
)

// Nanoseconds returns the instant as integer nanoseconds since the clock's epoch.
func (t Instant) Nanoseconds() int64 { return int64(t) }

// Add returns t+d. If the sum leaves the representable range it returns t
// unchanged and ErrOverflow; a negative d that would go below the epoch's
// range is also an overflow.
func (t Instant) Add(d time.Duration) (Instant, error) {
	s := int64(t) + int64(d)
	if (d > 0 && s < int64(t)) || (d < 0 && s > int64(t)) {
		return t, fmt.Errorf("%w: %d ns + %v", ErrOverflow, int64(t), d)
	}
	return Instant(s), nil
}

// AddSaturating returns t+d, clamped to [math.MinInt64, MaxInstant].
// It never allocates, so hot paths may saturate freely.
func (t Instant) AddSaturating(d time.Duration) Instant {
	s := int64(t) + int64(d)
	switch {
	case d > 0 && s < int64(t):
		return MaxInstant
	case d < 0 && s > int64(t):
		return Instant(math.MinInt64)
	}
	return Instant(s)
}

// Elapsed returns end-start. A negative interval is ErrClockRegression and an
// interval too large for time.Duration is ErrOverflow; on either error the
// returned duration is zero and nothing else is affected.
func Elapsed(start, end Instant) (time.Duration, error) {
	if end < start {
		return 0, fmt.Errorf("%w: %d ns is before %d ns", ErrClockRegression, int64(end), int64(start))
	}
	d := int64(end) - int64(start)
	if d < 0 { // wrapped: the true difference exceeds MaxInt64
		return 0, fmt.Errorf("%w: interval from %d ns to %d ns", ErrOverflow, int64(start), int64(end))
	}
	return time.Duration(d), nil
}

// Before reports whether t is strictly earlier than u.
func (t Instant) Before(u Instant) bool { return t < u }

// After reports whether t is strictly later than u.
func (t Instant) After(u Instant) bool { return t > u }

// String formats the instant as nanoseconds since the clock's epoch.
func (t Instant) String() string { return fmt.Sprintf("t+%dns", int64(t)) }
