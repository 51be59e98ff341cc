package timing

import (
	"fmt"
	"math"
	"time"
)

// An explicit suspension: a game that pauses while its window is
// unfocused stops simulation time on purpose. That time is neither lag to
// repay nor time to drop; the ledger counts it as suspended, as it counts
// a gap longer than DebtOptions.SuspendAfter.

// suspension is the scheduler's state for Suspend and Resume.
type suspension struct {
	on bool
	// unreported is suspended time that Suspend or Resume accounted for
	// outside Advance; the next Advance reports it in Batch.Suspended.
	unreported int64
}

// Suspend stops simulation time from at until [Scheduler.Resume], under
// every mode and policy. The time between the latest reading and at is
// ordinary time: it stays pending and is simulated (or dropped) after
// Resume as it would have been. From at on, real time is suspended: each
// Advance meanwhile selects nothing and reports the time since the
// previous reading in Batch.Suspended, and [Scheduler.NextUpdateAt] is
// MaxInstant, so a runtime waiting for it waits until it resumes. Ledger,
// pending time, debt and pacing credit are kept.
//
// An at before the latest reading suspends from that reading: time already
// accounted for stays as it was. Suspend on a suspended scheduler accounts
// the time up to at as suspended, like Advance. It returns
// [ErrNotStarted] before Start and an error wrapping [ErrOverflow],
// changing nothing, for an instant past the ledger's range (see Advance).
func (s *Scheduler) Suspend(at Instant) error {
	if !s.started {
		return ErrNotStarted
	}
	at = max(at, s.last)
	if at > s.limit {
		return s.limitError("Suspend", at)
	}
	if s.pause.on {
		s.pause.unreported += s.suspendUntil(at)
		s.schedule()
		return nil
	}
	e := int64(at - s.last)
	q, r := mul64(uint64(e), s.ph.p).add64(s.rem).divmod(s.ph.t)
	if q > math.MaxInt64 || (s.debt > 0 && int64(q) > math.MaxInt64-s.debt) {
		return fmt.Errorf("timing: Scheduler.Suspend: %w: %v of debt", ErrOverflow, time.Duration(e))
	}
	s.debt, s.rem = s.debt+int64(q), r
	s.last = at
	s.pause.on = true
	s.schedule()
	return nil
}

// Resume ends a suspension at at: the time from the latest reading (the
// suspension's start, or the latest Advance since) to at is suspended, and
// from at on real time counts again, from the pending time the suspension
// kept. The next Advance reports the suspended time Suspend and Resume
// accounted for in its Batch.Suspended. An at before the latest reading
// resumes from that reading. Resume on a scheduler that is not suspended
// does nothing. Its errors are Suspend's.
func (s *Scheduler) Resume(at Instant) error {
	if !s.started {
		return ErrNotStarted
	}
	if !s.pause.on {
		return nil
	}
	at = max(at, s.last)
	if at > s.limit {
		return s.limitError("Resume", at)
	}
	s.pause.unreported += s.suspendUntil(at)
	s.pause.on = false
	s.schedule()
	return nil
}

// Suspended reports whether a [Scheduler.Suspend] is in force.
func (s *Scheduler) Suspended() bool { return s.pause.on }

// suspendUntil accounts the time from the latest reading to at (not
// before it, within the limit) as suspended and returns it in
// nanoseconds.
func (s *Scheduler) suspendUntil(at Instant) int64 {
	e := int64(at - s.last)
	s.cursor.addNanos(e)
	s.suspended += e
	s.last = at
	return e
}

// advanceSuspended is Advance while suspended: the reading now (checked by
// Advance) ends a stretch of suspended time, and nothing is due.
func (s *Scheduler) advanceSuspended(now Instant) Batch {
	s.acting = 0
	e := s.suspendUntil(now) + s.takeUnreported()
	s.schedule()
	return Batch{Updates: s.buf[:0:0], Work: Work{Suspended: time.Duration(e)}}
}

// takeUnreported returns the suspended time not yet reported by a batch
// and clears it.
func (s *Scheduler) takeUnreported() int64 {
	e := s.pause.unreported
	s.pause.unreported = 0
	return e
}
