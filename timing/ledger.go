package timing

import (
	"math"
	"math/bits"
	"strings"
	"time"
)

// Ledger says where every nanosecond of real time since Start went. After
// every Advance,
//
//	Real + Adjusted == Simulated + Dropped() + Suspended + PendingDebt + PendingRemainder
//
// holds exactly; [Ledger.Imbalance] and [Ledger.Balanced] check it on any
// Ledger value. Internally the scheduler keeps each total as whole
// nanoseconds plus an exact fraction (a rational step such as 1/60 s is not a
// whole number of nanoseconds); the totals here are rounded down, and
// PendingRemainder, the sub-step remainder, also carries those fractions, so
// it may differ from the exact remainder by a few nanoseconds.
type Ledger struct {
	// Real is the time from Start to the latest Advance.
	Real time.Duration `json:"real_ns"`
	// Simulated is the sum of every update's Delta.
	Simulated time.Duration `json:"simulated_ns"`
	// DroppedExcessLag is dropped by DropExcessLag.
	DroppedExcessLag time.Duration `json:"dropped_excess_lag_ns"`
	// DroppedCatchUpCap is dropped by VariableCatchUp's RecoveryCap.
	DroppedCatchUpCap time.Duration `json:"dropped_catch_up_cap_ns"`
	// DroppedCutoff is dropped by RepayDebt's SlowDown past the cutoff.
	DroppedCutoff time.Duration `json:"dropped_cutoff_ns"`
	// DroppedDropTime is dropped by RepayDebt's DropTime past the cutoff.
	DroppedDropTime time.Duration `json:"dropped_drop_time_ns"`
	// DroppedByHook is dropped at the request of a DebtHook.
	DroppedByHook time.Duration `json:"dropped_by_hook_ns"`
	// Suspended is the total of gaps longer than DebtOptions.SuspendAfter.
	Suspended time.Duration `json:"suspended_ns"`
	// Adjusted is the net debt added by AdjustDebt (negative: removed),
	// AddResimulation and AdjustAdvantage included.
	Adjusted time.Duration `json:"adjusted_ns"`
	// Resimulation is the part of Adjusted that is real time spent
	// resimulating after rollbacks ([Scheduler.AddResimulation]), and
	// Advantage the part that is frame advantage over remote peers
	// ([Scheduler.AdjustAdvantage]; ahead is negative).
	Resimulation time.Duration `json:"resimulation_ns"`
	Advantage    time.Duration `json:"advantage_ns"`
	// PendingDebt is the time owed in whole steps, negative when the
	// simulation is ahead; zero in variable mode.
	PendingDebt time.Duration `json:"pending_debt_ns"`
	// PendingRemainder is the pending time beyond whole steps.
	PendingRemainder time.Duration `json:"pending_remainder_ns"`
}

// Dropped returns the total dropped by every policy.
func (l Ledger) Dropped() time.Duration {
	return l.DroppedExcessLag + l.DroppedCatchUpCap + l.DroppedCutoff + l.DroppedDropTime + l.DroppedByHook
}

// Pending returns the time not yet simulated, dropped or suspended.
func (l Ledger) Pending() time.Duration { return l.PendingDebt + l.PendingRemainder }

// Imbalance checks that every nanosecond since Start is accounted for:
// simulated, dropped (by each cause), suspended or pending, with the debt
// AdjustDebt added counted as real time owed. It returns
//
//	(Real + Adjusted) - (Simulated + DroppedExcessLag + DroppedCatchUpCap +
//	    DroppedCutoff + DroppedDropTime + DroppedByHook + Suspended +
//	    PendingDebt + PendingRemainder)
//
// computed exactly, in 128 bits, so that a total that wrapped around int64
// shows as an imbalance instead of cancelling out; the result saturates at
// the range of time.Duration. A scheduler's Ledger always returns 0: a
// non-zero answer means a ledger that was built, edited or transported
// wrongly. Positive means real time unaccounted for, negative more
// accounted for than passed.
func (l Ledger) Imbalance() time.Duration {
	var a acc128
	a.add(int64(l.Real))
	a.add(int64(l.Adjusted))
	for _, d := range [...]time.Duration{l.Simulated, l.DroppedExcessLag, l.DroppedCatchUpCap, l.DroppedCutoff,
		l.DroppedDropTime, l.DroppedByHook, l.Suspended, l.PendingDebt, l.PendingRemainder} {
		a.sub(int64(d))
	}
	return time.Duration(a.saturate())
}

// Balanced reports whether the ledger balances ([Ledger.Imbalance] is 0)
// and none of the intervals that cannot be negative is: Real, Simulated,
// each dropped total and Suspended. Adjusted and the pending time may be
// negative (a simulation ahead of real time).
func (l Ledger) Balanced() bool {
	for _, d := range [...]time.Duration{l.Real, l.Simulated, l.DroppedExcessLag, l.DroppedCatchUpCap, l.DroppedCutoff,
		l.DroppedDropTime, l.DroppedByHook, l.Suspended} {
		if d < 0 {
			return false
		}
	}
	return l.Imbalance() == 0
}

// acc128 is a signed 128-bit accumulator, two's complement in hi:lo.
type acc128 struct {
	hi int64
	lo uint64
}

func (a *acc128) add(x int64) {
	var c uint64
	a.lo, c = bits.Add64(a.lo, uint64(x), 0)
	a.hi += int64(c) + x>>63 // x>>63 sign-extends x into the high word
}

func (a *acc128) sub(x int64) {
	var b uint64
	a.lo, b = bits.Sub64(a.lo, uint64(x), 0)
	a.hi -= int64(b) + x>>63
}

// saturate returns the value clamped to int64.
func (a acc128) saturate() int64 {
	switch {
	case a.hi == 0 && a.lo <= math.MaxInt64:
		return int64(a.lo)
	case a.hi == -1 && a.lo > math.MaxInt64:
		return int64(a.lo)
	case a.hi < 0:
		return math.MinInt64
	}
	return math.MaxInt64
}

// Ledger returns the accounts as of the latest Advance.
func (s *Scheduler) Ledger() Ledger {
	l := Ledger{
		Real:              time.Duration(s.last - s.start),
		Simulated:         time.Duration(s.sim.ns),
		DroppedExcessLag:  time.Duration(s.dropped[dropExcessLag].ns),
		DroppedCatchUpCap: time.Duration(s.dropped[dropCatchUpCap].ns),
		DroppedCutoff:     time.Duration(s.dropped[dropCutoff].ns),
		DroppedDropTime:   time.Duration(s.dropped[dropDropTime].ns),
		DroppedByHook:     time.Duration(s.dropped[dropHook].ns),
		Suspended:         time.Duration(s.suspended),
		Adjusted:          time.Duration(s.adjusted),
		Resimulation:      time.Duration(s.resimTime),
		Advantage:         time.Duration(s.advantage),
		PendingDebt:       s.stepsDuration(s.owed()),
	}
	l.PendingRemainder = l.Real + l.Adjusted - l.Simulated - l.Dropped() - l.Suspended - l.PendingDebt
	return l
}

// Mechanism is a set of RepayDebt mechanisms, as reported by Stats.
type Mechanism uint8

const (
	// MechPacing: the pace differs from real time.
	MechPacing Mechanism = 1 << iota
	// MechQuietTicks: the latest batch had quiet updates.
	MechQuietTicks
	// MechCoarseCosmetic: the latest batch skipped cosmetic work on some ticks.
	MechCoarseCosmetic
	// MechVariableStep: the latest batch merged steps.
	MechVariableStep
	// MechSuspension: the latest gap was a suspension.
	MechSuspension
	// MechCutoff: the debt passed the cutoff and its policy applied.
	MechCutoff
)

var mechNames = [...]string{"pacing", "quiet-ticks", "coarse-cosmetic", "variable-step", "suspension", "cutoff"}

// Has reports whether every mechanism of x is in m.
func (m Mechanism) Has(x Mechanism) bool { return m&x == x }

// String lists the mechanisms joined by "+", or "none".
func (m Mechanism) String() string {
	if m == 0 {
		return "none"
	}
	var b strings.Builder
	for i, name := range mechNames {
		if m&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte('+')
			}
			b.WriteString(name)
		}
	}
	return b.String()
}

// Stats is a snapshot of the scheduler for overlays and telemetry.
type Stats struct {
	Mode     Mode     `json:"mode"`
	Recovery Recovery `json:"recovery"`
	// Step is the fixed step rounded to whole nanoseconds.
	Step time.Duration `json:"step_ns"`
	// Debt is the time owed in whole steps, negative when ahead, and
	// DebtTime the same as time.
	Debt     int64         `json:"debt_steps"`
	DebtTime time.Duration `json:"debt_ns"`
	// Rate is the pace of simulated time against real time: 1 unless
	// RepayDebt's pacing is speeding up or slowing down. It is the pace
	// the simulation runs at, to within a step, for any cadence of Advance
	// calls that one batch can keep up with: waiting until NextUpdateAt
	// always does; a loop that calls Advance every interval i needs
	// Rate*i to be at most MaxFixedUpdates steps (times MaxStepScale with
	// VariableStep), or the batch limit, not pacing, sets the pace.
	Rate float64 `json:"rate"`
	// Enabled lists the RepayDebt mechanisms switched on (none under other
	// policies); Acting those that acted in the latest Advance.
	Enabled Mechanism `json:"enabled"`
	Acting  Mechanism `json:"acting"`
	// Dropped and Suspended are totals since Start: Ledger.Dropped() and
	// Ledger.Suspended, so the JSON report leaves them to the ledger.
	Dropped   time.Duration `json:"-"`
	Suspended time.Duration `json:"-"`
	// Ticks counts updates since Start by Kind (in JSON an array in the
	// order of the Kind constants).
	Ticks [NumKinds]uint64 `json:"ticks_by_kind"`
	// Steps counts fixed steps simulated, merged steps included.
	Steps uint64 `json:"steps"`
	// QuietTicks counts updates marked quiet.
	QuietTicks uint64 `json:"quiet_ticks"`
	// MergedSteps counts steps simulated inside merged updates.
	MergedSteps uint64 `json:"merged_steps"`
	// Resimulated counts the ticks run again after rollbacks, as reported
	// by [Scheduler.AddResimulation]; the time they took is
	// Ledger.Resimulation.
	Resimulated uint64 `json:"resimulated_ticks"`
	// Alpha is the interpolation factor, as [Scheduler.Alpha].
	Alpha float64 `json:"alpha"`
	// NextUpdateAt is as [Scheduler.NextUpdateAt].
	NextUpdateAt Instant `json:"next_update_at_ns"`
	Ledger       Ledger  `json:"ledger"`
}

// owed is the debt reported in whole steps: none in variable mode, where
// pending time only waits for the pacing interval.
func (s *Scheduler) owed() int64 {
	if s.opts.Mode != FixedMode {
		return 0
	}
	return s.debtSteps()
}

func (s *Scheduler) enabled() Mechanism {
	if s.opts.Mode != FixedMode || s.opts.Recovery != RepayDebt {
		return 0
	}
	d := &s.opts.Debt
	m := MechCutoff
	for _, on := range []struct {
		b bool
		m Mechanism
	}{{d.Pacing, MechPacing}, {d.QuietTicks, MechQuietTicks}, {d.CoarseCosmetic, MechCoarseCosmetic},
		{d.VariableStep, MechVariableStep}, {d.SuspendAfter > 0, MechSuspension}} {
		if on.b {
			m |= on.m
		}
	}
	return m
}

// Stats computes the statistics on request; nothing is computed per tick.
func (s *Scheduler) Stats() Stats {
	l := s.Ledger()
	rate := s.rate
	if s.opts.Mode != FixedMode || s.opts.Recovery != RepayDebt || !s.opts.Debt.Pacing {
		rate = 1
	}
	return Stats{
		Mode:         s.opts.Mode,
		Recovery:     s.opts.Recovery,
		Step:         s.Step(),
		Debt:         s.owed(),
		DebtTime:     l.PendingDebt,
		Rate:         rate,
		Enabled:      s.enabled(),
		Acting:       s.acting,
		Dropped:      l.Dropped(),
		Suspended:    l.Suspended,
		Ticks:        s.ticksByKind,
		Steps:        s.steps,
		QuietTicks:   s.quietTicks,
		MergedSteps:  s.mergedSteps,
		Resimulated:  s.resimTicks,
		Alpha:        s.alpha,
		NextUpdateAt: s.nextDue,
		Ledger:       l,
	}
}
