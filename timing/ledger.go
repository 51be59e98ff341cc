package timing

import (
	"strings"
	"time"
)

// Ledger says where every nanosecond of real time since Start went. After
// every Advance,
//
//	Real + Adjusted == Simulated + Dropped() + Suspended + PendingDebt + PendingRemainder
//
// holds exactly. Internally the scheduler keeps each total as whole
// nanoseconds plus an exact fraction (a rational step such as 1/60 s is not a
// whole number of nanoseconds); the totals here are rounded down, and
// PendingRemainder, the sub-step remainder, also carries those fractions, so
// it may differ from the exact remainder by a few nanoseconds.
type Ledger struct {
	// Real is the time from Start to the latest Advance.
	Real time.Duration
	// Simulated is the sum of every update's Delta.
	Simulated time.Duration
	// DroppedExcessLag is dropped by DropExcessLag.
	DroppedExcessLag time.Duration
	// DroppedCatchUpCap is dropped by VariableCatchUp's RecoveryCap.
	DroppedCatchUpCap time.Duration
	// DroppedCutoff is dropped by RepayDebt's SlowDown past the cutoff.
	DroppedCutoff time.Duration
	// DroppedDropTime is dropped by RepayDebt's DropTime past the cutoff.
	DroppedDropTime time.Duration
	// DroppedByHook is dropped at the request of a DebtHook.
	DroppedByHook time.Duration
	// Suspended is the total of gaps longer than DebtOptions.SuspendAfter.
	Suspended time.Duration
	// Adjusted is the net debt added by AdjustDebt (negative: removed).
	Adjusted time.Duration
	// PendingDebt is the time owed in whole steps, negative when the
	// simulation is ahead; zero in variable mode.
	PendingDebt time.Duration
	// PendingRemainder is the pending time beyond whole steps.
	PendingRemainder time.Duration
}

// Dropped returns the total dropped by every policy.
func (l Ledger) Dropped() time.Duration {
	return l.DroppedExcessLag + l.DroppedCatchUpCap + l.DroppedCutoff + l.DroppedDropTime + l.DroppedByHook
}

// Pending returns the time not yet simulated, dropped or suspended.
func (l Ledger) Pending() time.Duration { return l.PendingDebt + l.PendingRemainder }

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
	Mode     Mode
	Recovery Recovery
	// Step is the fixed step rounded to whole nanoseconds.
	Step time.Duration
	// Debt is the time owed in whole steps, negative when ahead, and
	// DebtTime the same as time.
	Debt     int64
	DebtTime time.Duration
	// Rate is the pace of simulated time against real time: 1 unless
	// RepayDebt's pacing is speeding up or slowing down. It is the pace
	// the simulation runs at, to within a step, for any cadence of Advance
	// calls that one batch can keep up with: waiting until NextUpdateAt
	// always does; a loop that calls Advance every interval i needs
	// Rate*i to be at most MaxFixedUpdates steps (times MaxStepScale with
	// VariableStep), or the batch limit, not pacing, sets the pace.
	Rate float64
	// Enabled lists the RepayDebt mechanisms switched on (none under other
	// policies); Acting those that acted in the latest Advance.
	Enabled Mechanism
	Acting  Mechanism
	// Dropped and Suspended are totals since Start.
	Dropped   time.Duration
	Suspended time.Duration
	// Ticks counts updates since Start by Kind.
	Ticks [NumKinds]uint64
	// Steps counts fixed steps simulated, merged steps included.
	Steps uint64
	// QuietTicks counts updates marked quiet.
	QuietTicks uint64
	// MergedSteps counts steps simulated inside merged updates.
	MergedSteps uint64
	// Alpha is the interpolation factor, as [Scheduler.Alpha].
	Alpha float64
	// NextUpdateAt is as [Scheduler.NextUpdateAt].
	NextUpdateAt Instant
	Ledger       Ledger
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
		Alpha:        s.alpha,
		NextUpdateAt: s.nextDue,
		Ledger:       l,
	}
}
