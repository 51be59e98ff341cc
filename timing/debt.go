package timing

import (
	"fmt"
	"math"
	"time"
)

// advanceRepay runs one cycle of the RepayDebt policy. The elapsed time e is
// already in s.debt and s.rem unless the gap is a suspension.
func (s *Scheduler) advanceRepay(e time.Duration, suspend bool) (n int, suspended int64) {
	d := &s.opts.Debt
	s.acting = 0
	if suspend {
		// A gap this long is not lag: account for it and move on. The
		// removed time is the oldest pending time, like every drop.
		s.cursor.addNanos(int64(e))
		s.suspended += int64(e)
		suspended = int64(e)
		s.acting |= MechSuspension
	}

	if s.debt > s.cutoffSteps {
		s.acting |= MechCutoff
		switch d.PastCutoff {
		case SlowDown:
			s.dropSteps(dropCutoff, uint64(s.debt-s.cutoffSteps))
			s.debt = s.cutoffSteps
		case DropTime:
			s.dropSteps(dropDropTime, uint64(s.debt))
			s.debt = 0
		default:
			ask := d.Hook.PastCutoff(d.PastCutoff, s.stepsDuration(s.debt))
			if ask > 0 {
				k, _ := mul64(uint64(ask), s.ph.p).divmod(s.ph.t)
				k = min(k, uint64(s.debt))
				if k > 0 {
					s.dropSteps(dropHook, k)
					s.debt -= int64(k)
				}
			}
		}
	}

	// A step falling due in this cycle is on time; debt beyond it is lag.
	inDebt := s.debtSteps() > 1
	if d.Pacing && !suspend && e > 0 {
		// Credit accrues at the pace chosen at the end of the previous
		// cycle, for the interval that has just passed.
		s.credit += s.accrue(int64(e))
	}

	var want int64
	if d.Pacing {
		want = int64(min(s.credit/s.ph.t, math.MaxInt64))
		switch {
		case s.debt >= 0 && s.rate < 1:
			// The simulation was ahead when this interval began and
			// pacing slowed it down: real time caught up during the
			// interval, but credit, which accrued slower than real
			// time, still decides the step, so the rest of the lead
			// is repaid at the slow pace rather than by waiting for a
			// whole step owed (an update up to a step late). It ends
			// less than a step ahead, and pace goes on repaying that.
			want = min(want, s.debt+1)
		case s.debt >= 0:
			// Pacing may repay debt faster, never overtake real time.
			want = min(want, s.debt)
		}
	} else {
		want = max(s.debt, 0)
	}
	scale := int64(1)
	if d.VariableStep {
		scale = int64(d.MaxStepScale)
	}
	want = max(min(want, int64(s.opts.MaxFixedUpdates)*scale), 0)
	if d.Pacing {
		// Credit carries only the fraction of a step it could not buy.
		// When the full batch held it back the whole leftover is dropped,
		// so pacing never saves up a burst; any cadence whose interval's
		// credit fits in one batch therefore runs at exactly the pace.
		s.credit -= uint64(want) * s.ph.t
		if s.debt >= 0 && want == s.debt {
			// Every whole step owed runs. Credit never buys time that
			// has not passed: at most the pending remainder is kept, so
			// after a drop past the cutoff (or pacing that caught up)
			// the next step runs as soon as it is owed. Credit short of
			// the remainder is lag that pacing still repays (see pace).
			s.credit = min(s.credit, s.rem)
		} else if s.credit >= s.ph.t {
			s.credit = 0
		}
	}
	if want == 0 {
		s.pace()
		return 0, suspended
	}

	if scale > 1 {
		updates := (want + scale - 1) / scale
		base, extra := want/updates, want%updates
		for i := range updates {
			size := base
			if i < extra {
				size++
			}
			if size == 1 {
				s.emitStep(int(i))
				continue
			}
			s.emit(int(i), CatchUpUpdate, mul64(uint64(size), s.ph.t), int(size))
			s.mergedSteps += uint64(size)
			s.acting |= MechVariableStep
		}
		n = int(updates)
	} else {
		for i := range int(want) {
			s.emitStep(i)
		}
		n = int(want)
	}
	s.debt -= want
	s.pace()

	if d.QuietTicks && n > 1 {
		for i := range n - 1 {
			s.buf[i].Quiet = true
		}
		s.quietTicks += uint64(n - 1)
		s.acting |= MechQuietTicks
	}
	if d.CoarseCosmetic && inDebt {
		k := uint64(d.CosmeticEvery)
		for i := range n {
			if s.buf[i].Number%k != 0 {
				s.buf[i].Coarse = true
				s.acting |= MechCoarseCosmetic
			}
		}
	}
	return n, suspended
}

// pace sets the rate for the coming interval from the debt that remains.
func (s *Scheduler) pace() {
	d := &s.opts.Debt
	s.rate = 1
	if !d.Pacing {
		return
	}
	s.rate = 1 + float64(d.Gain*float64(s.lagSteps())*s.stepSeconds) // no FMA: see advanceRepay
	s.rate = max(d.MaxSlowDown, min(d.MaxSpeedUp, s.rate))
	if s.rate != 1 {
		s.acting |= MechPacing
	}
}

// lagSteps returns the debt that pacing repays, in whole steps. Ahead, it
// is the debt (s.debt, the floor, so rounded away from zero): a lead of a
// fraction of a step counts as one, so pacing repays it a few percent a
// tick instead of the next update waiting it out at once. Otherwise it is
// the time pending beyond the credit, rounded up: the updates run when the
// credit buys a step, so the simulation lags real time by that much more
// than the remainder of the step in progress. A fraction of a step counts
// as one here too, so pacing repays the last of a stall, and the
// simulation ends up in step with real time (credit equal to the
// remainder) rather than up to a step behind with no whole step owed.
func (s *Scheduler) lagSteps() int64 {
	if s.debt < 0 {
		return s.debt
	}
	pending, credit := s.pendingUnits(), u128{0, s.credit}
	if pending.cmp(credit) <= 0 {
		return 0
	}
	q, r := pending.sub(credit).divmod(s.ph.t)
	if r > 0 {
		q++
	}
	return int64(min(q, math.MaxInt64))
}

// debtSteps returns the debt in whole steps rounded toward zero: a
// simulation less than one step ahead is not in debt either way.
func (s *Scheduler) debtSteps() int64 {
	if s.debt < 0 && s.rem > 0 {
		return s.debt + 1
	}
	return s.debt
}

// stepsDuration converts k whole steps to time, rounded toward zero.
func (s *Scheduler) stepsDuration(k int64) time.Duration {
	neg := k < 0
	if neg {
		k = -k
	}
	q, _ := mul64(uint64(k), s.ph.t).divmod(s.ph.p)
	if q > math.MaxInt64 {
		q = math.MaxInt64
	}
	if neg {
		return -time.Duration(q)
	}
	return time.Duration(q)
}

// AdjustDebt adds d to the debt under RepayDebt: a positive d means the
// simulation owes d more (time spent resimulating after a rollback, or an
// authority's clock saying this peer is behind); a negative d means it is
// ahead by that much, and pacing slows it down. The adjustment is its own
// ledger total, Ledger.Adjusted. It moves the spans of the updates that
// follow back by d: the next update starts d before the previous one
// ended (see Update.Start). It returns an error, changing nothing, unless
// the scheduler is started in fixed mode under RepayDebt and |d| is at
// most DebtOptions.Cutoff; an adjustment that would take the accounts or
// the spans past int64 nanoseconds is [ErrOverflow].
func (s *Scheduler) AdjustDebt(d time.Duration) error {
	if !s.started {
		return ErrNotStarted
	}
	if s.opts.Mode != FixedMode || s.opts.Recovery != RepayDebt {
		return fmt.Errorf("timing: Scheduler.AdjustDebt needs FixedMode with RepayDebt, have %v mode with %v", s.opts.Mode, s.opts.Recovery)
	}
	if c := s.opts.Debt.Cutoff; d < -c || d > c {
		return fmt.Errorf("timing: Scheduler.AdjustDebt %v is out of range; allowed -%v to %v (DebtOptions.Cutoff)", d, c, c)
	}
	if err := s.adjustFits(d); err != nil {
		return err
	}
	t := s.ph.t
	if d >= 0 {
		u := mul64(uint64(d), s.ph.p)
		s.cursor.subUnits(u, &s.ph)
		q, r := u.add64(s.rem).divmod(t)
		s.debt += int64(q)
		s.rem = r
	} else {
		u := mul64(uint64(-d), s.ph.p)
		s.cursor.addUnits(u, &s.ph)
		k, r := u.divmod(t)
		s.debt -= int64(k)
		if s.rem >= r {
			s.rem -= r
		} else {
			s.rem += t - r
			s.debt--
		}
		s.credit = 0
	}
	s.adjusted += int64(d)
	acting := s.acting
	s.pace()
	s.acting = acting
	s.schedule()
	return nil
}

// adjustFits reports an adjustment that would take the accounts out of
// int64 nanoseconds: Real + Adjusted (so the pending time), the adjusted
// total, or the span cursor, which a positive d moves back and a negative
// d moves forward.
func (s *Scheduler) adjustFits(d time.Duration) error {
	accounted := int64(s.last-s.start) + s.adjusted // Real + Adjusted, in range
	var lo, hi int64                                // allowed range of d
	if s.adjusted >= 0 {
		lo, hi = math.MinInt64, math.MaxInt64-s.adjusted
	} else {
		lo, hi = math.MinInt64-s.adjusted, math.MaxInt64
	}
	if accounted >= 0 {
		hi = min(hi, math.MaxInt64-accounted)
	} else {
		lo = max(lo, math.MinInt64-accounted)
	}
	if c := s.cursor.ns; c >= 0 {
		lo = max(lo, -(math.MaxInt64 - c)) // cursor + |d| <= MaxInt64
	} else {
		hi = min(hi, c-math.MinInt64) // cursor - d >= MinInt64
	}
	if int64(d) < lo || int64(d) > hi {
		return fmt.Errorf("timing: Scheduler.AdjustDebt %v: %w: the ledger started at %d ns, read %d ns, has %v adjusted and its span cursor at %d ns; allowed %v to %v here",
			d, ErrOverflow, int64(s.start), int64(s.last), time.Duration(s.adjusted), s.cursor.ns, time.Duration(lo), time.Duration(hi))
	}
	return nil
}
