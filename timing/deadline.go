package timing

import (
	"fmt"
	"time"
)

// Deadline is an instant that is either armed or not. It runs no callback:
// the owner asks [Deadline.Due] with the current reading. The zero value is
// disarmed. It is a plain value for one goroutine; share it only with your
// own synchronisation.
type Deadline struct {
	at    Instant
	armed bool
}

// Arm sets the deadline to now+delay. A zero delay is due at once. A
// negative delay fails with ErrNegativeDuration and an instant past the
// clock's range with ErrOverflow; either way an existing deadline is kept.
func (d *Deadline) Arm(now Instant, delay time.Duration) error {
	if delay < 0 {
		return fmt.Errorf("timing: Deadline.Arm: %w: %v", ErrNegativeDuration, delay)
	}
	at, err := now.Add(delay)
	if err != nil {
		return fmt.Errorf("timing: Deadline.Arm: %w", err)
	}
	d.at, d.armed = at, true
	return nil
}

// Cancel disarms the deadline.
func (d *Deadline) Cancel() { d.armed = false }

// At returns the deadline and whether it is armed.
func (d *Deadline) At() (Instant, bool) { return d.at, d.armed }

// Due reports whether the deadline is armed and now has reached it;
// reaching it exactly counts. A due deadline stays armed until cancelled or
// re-armed.
func (d *Deadline) Due(now Instant) bool { return d.armed && now >= d.at }

// Remaining returns the time left until the deadline at now: zero when it
// is due or disarmed.
func (d *Deadline) Remaining(now Instant) time.Duration {
	if !d.armed || now >= d.at {
		return 0
	}
	r, err := Elapsed(now, d.at)
	if err != nil {
		return time.Duration(MaxInstant)
	}
	return r
}
