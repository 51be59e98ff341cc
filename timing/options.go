package timing

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/metronome-go/metronome/option"
)

// Mode selects how the scheduler turns elapsed time into updates.
type Mode uint8

const (
	// VariableMode runs one update per pacing interval whose delta is the
	// whole real time elapsed since the previous update.
	VariableMode Mode = iota
	// FixedMode accumulates elapsed time and runs updates of one fixed step.
	FixedMode
)

func (m Mode) String() string {
	switch m {
	case VariableMode:
		return "variable"
	case FixedMode:
		return "fixed"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// Recovery selects what fixed mode does when more whole steps are due than
// one cycle may run.
type Recovery uint8

const (
	// DropExcessLag runs MaxFixedUpdates steps, drops the excess whole
	// steps and keeps the sub-step remainder.
	DropExcessLag Recovery = iota
	// VariableCatchUp runs RecoveryPrefix fixed steps and then exactly one
	// larger update using the rest of the accumulated time, capped at
	// RecoveryCap. Whatever the cap leaves out is dropped; nothing carries
	// over.
	VariableCatchUp
	// RepayDebt keeps the time owed as debt and repays it with the
	// mechanisms of [DebtOptions].
	RepayDebt
)

func (r Recovery) String() string {
	switch r {
	case DropExcessLag:
		return "drop-excess-lag"
	case VariableCatchUp:
		return "variable-catch-up"
	case RepayDebt:
		return "repay-debt"
	}
	return fmt.Sprintf("Recovery(%d)", uint8(r))
}

// PastCutoff is what [RepayDebt] does when the debt grows past
// DebtOptions.Cutoff.
type PastCutoff uint8

const (
	// SlowDown holds the debt at the cutoff and drops the excess, every
	// cycle, for as long as the game is overloaded. Simulated time then runs
	// slower than real time. For a solo game.
	SlowDown PastCutoff = iota
	// DropTime drops all whole steps of debt at once. For a solo game.
	DropTime
	// Resync hands the debt to DebtOptions.Hook, which resynchronises with
	// an authority and says how much to drop. For a networked owner.
	Resync
	// SharedSlowdown hands the debt to DebtOptions.Hook, which slows every
	// peer down together and says how much to drop. For a networked host.
	SharedSlowdown
)

func (p PastCutoff) String() string {
	switch p {
	case SlowDown:
		return "slow-down"
	case DropTime:
		return "drop-time"
	case Resync:
		return "resync"
	case SharedSlowdown:
		return "shared-slowdown"
	}
	return fmt.Sprintf("PastCutoff(%d)", uint8(p))
}

// DebtHook is supplied by a networked game to decide what happens past the
// cutoff under [Resync] or [SharedSlowdown]. The scheduler calls it from
// Advance, on the goroutine that calls Advance.
type DebtHook interface {
	// PastCutoff receives the selected policy and the debt, in whole steps
	// expressed as time, and returns how much of it to drop. The scheduler
	// rounds the answer down to whole steps and clamps it to [0, debt]; what
	// is not dropped stays owed.
	PastCutoff(policy PastCutoff, debt time.Duration) time.Duration
}

// DebtHookFunc adapts a function to [DebtHook].
type DebtHookFunc func(policy PastCutoff, debt time.Duration) time.Duration

// PastCutoff calls f.
func (f DebtHookFunc) PastCutoff(policy PastCutoff, debt time.Duration) time.Duration {
	return f(policy, debt)
}

// DebtOptions tune the [RepayDebt] policy. Every mechanism can be switched
// off on its own. Start from DefaultOptions().Debt: several zero values are
// out of range.
//
// RepayDebt still runs at most Options.MaxFixedUpdates updates per Advance
// (each holding up to MaxStepScale steps with VariableStep). With the
// default of one, pacing can only repay faster than real time if the
// runtime calls Advance at [Scheduler.NextUpdateAt], which moves earlier
// while in debt; a loop tied to the display's refresh should allow two or
// more.
type DebtOptions struct {
	// Pacing runs the simulation between MaxSlowDown and MaxSpeedUp times
	// real time, at 1 + Gain*debt (debt in seconds), so a stall is repaid
	// smoothly instead of in a burst. Debt is counted in whole steps:
	// ahead, less than one step runs at real time; behind, the time the
	// pacing credit has not yet bought is rounded up, so the last fraction
	// of a stall is repaid too and the simulation ends in step with real
	// time (each step runs as soon as it is owed). Without pacing, owed
	// steps run as fast as MaxFixedUpdates allows and a simulation that is
	// ahead waits for real time. Default on.
	Pacing bool
	// MaxSpeedUp is the fastest pace, 1 to 4. Default 1.25.
	MaxSpeedUp float64
	// MaxSlowDown is the slowest pace, used when the simulation is ahead,
	// 0.25 to 1. Default 0.90.
	MaxSlowDown float64
	// Gain is the share of the debt repaid per second, (0, 10]. Default 0.5.
	Gain float64

	// QuietTicks marks every update of a multi-update batch but the last as
	// quiet, so cosmetic work can skip it. Default on.
	QuietTicks bool
	// CoarseCosmetic runs cosmetic work only on every CosmeticEvery-th tick
	// while in debt. Default off.
	CoarseCosmetic bool
	// CosmeticEvery is k for CoarseCosmetic, 2 to 60. Default 4.
	CosmeticEvery int `toml:"coarse_cosmetic_every"`

	// VariableStep merges up to MaxStepScale owed steps into one larger
	// update. Refused when Options.Rollback is set. Default off.
	VariableStep bool
	// MaxStepScale is the most steps one merged update may hold, 2 to 64.
	// Default 8.
	MaxStepScale int

	// Cutoff is the most debt kept before the PastCutoff policy applies,
	// at least one step and at most one hour. Default 2 s.
	Cutoff time.Duration
	// SuspendAfter treats a single gap between Advance calls longer than
	// this as a suspension (a breakpoint, a sleeping laptop): the gap is
	// recorded as suspended and never repaid. Zero disables it. Default 5 s.
	SuspendAfter time.Duration
	// PastCutoff says what happens past the cutoff. A solo game uses
	// SlowDown (default) or DropTime; Resync and SharedSlowdown need Hook.
	PastCutoff PastCutoff
	// Hook serves Resync and SharedSlowdown. Nil for a solo game.
	Hook DebtHook `toml:"-"`
}

// defaultDebtOptions returns the settings of the debt policy's design:
// pacing on (0.90 to 1.25, gain 0.5), quiet ticks on, coarse cosmetic off
// (every 4th tick when on), variable step off (8 steps when on), cutoff 2 s,
// suspension after 5 s, SlowDown past the cutoff.
func defaultDebtOptions() DebtOptions {
	return DebtOptions{
		Pacing:        true,
		MaxSpeedUp:    1.25,
		MaxSlowDown:   0.90,
		Gain:          0.5,
		QuietTicks:    true,
		CosmeticEvery: 4,
		MaxStepScale:  8,
		Cutoff:        2 * time.Second,
		SuspendAfter:  5 * time.Second,
		PastCutoff:    SlowDown,
	}
}

// Options configure a [Scheduler].
//
// Several zero values have their own meaning (a zero Interval is unpaced, a
// zero RecoveryCap is no cap, a zero Rate means "use FixedStep"), so a zero
// Options is not the default: start from [DefaultOptions] and change fields.
type Options struct {
	// Mode is VariableMode (default) or FixedMode.
	Mode Mode
	// Interval is the variable-mode pacing interval: an update is due once
	// this much time has passed since the previous one. Zero means unpaced
	// (every Advance with elapsed time runs an update). 0 to 1 h. Default
	// 1/60 s (16,666,667 ns).
	Interval time.Duration
	// FixedStep is the fixed-mode step when Rate is zero, 1 ns to 1 h. A
	// Rate replaces it, and then it is not checked.
	// Default 16,666,667 ns.
	FixedStep time.Duration `toml:"step"`
	// Rate, when non-zero, overrides FixedStep with an exact rational rate,
	// so that Hz(60) runs exactly 60 steps per simulated second.
	Rate Rate
	// MaxFixedUpdates is the most updates one Advance selects in fixed mode,
	// 1 to 64. Default 1.
	MaxFixedUpdates int
	// Recovery is the lag policy of fixed mode. Default DropExcessLag.
	Recovery Recovery
	// RecoveryPrefix is the number of fixed steps VariableCatchUp runs before
	// its one larger update, 0 to MaxFixedUpdates. Default 0.
	RecoveryPrefix int
	// RecoveryCap bounds the larger VariableCatchUp update; zero means no
	// cap. 0 or more. Default 100 ms.
	RecoveryCap time.Duration
	// Rollback declares that the game resimulates past ticks, which needs
	// identical steps: DebtOptions.VariableStep is then refused.
	Rollback bool `toml:"debt.rollback"`
	// Debt tunes RepayDebt. Its ranges are checked under every policy.
	Debt DebtOptions
}

// DefaultInterval is 1/60 s rounded to the nearest nanosecond.
const DefaultInterval = 16_666_667 * time.Nanosecond

// MaxBatch is the largest allowed MaxFixedUpdates.
const MaxBatch = 64

// maxSpan bounds steps, intervals and cutoffs.
const maxSpan = time.Hour

// DefaultOptions returns the defaults: variable mode paced at 1/60 s, fixed
// step 16,666,667 ns, one fixed update per cycle, DropExcessLag, no prefix,
// a 100 ms recovery cap and the debt policy's design defaults (see [DebtOptions]).
func DefaultOptions() Options {
	return Options{
		Mode:            VariableMode,
		Interval:        DefaultInterval,
		FixedStep:       DefaultInterval,
		MaxFixedUpdates: 1,
		Recovery:        DropExcessLag,
		RecoveryPrefix:  0,
		RecoveryCap:     100 * time.Millisecond,
		Debt:            defaultDebtOptions(),
	}
}

// Validate reports every problem with o at once, joined with errors.Join.
// Each is a *[option.Error] naming the option, its value and the allowed
// range. Every field is held to its own range whatever the others say
// (Debt under every Recovery policy, CosmeticEvery and MaxStepScale with
// their mechanism off), except FixedStep, which is not checked while a
// Rate replaces it; so a loader can check a value when it reads it. A
// problem that depends on another field is marked [option.Error.Relative]:
// a prefix above the update limit, a PastCutoff that needs a Hook, and
// under RepayDebt, the only policy they matter to, a cutoff shorter than
// one step and a variable step with Rollback.
func (o Options) Validate() error {
	var errs []error
	bad := func(field string, value any, problem, allowed string) {
		errs = append(errs, &option.Error{Pkg: "timing", Field: field, Value: value, Problem: problem, Allowed: allowed})
	}
	const outOfRange = "is out of range"
	if o.Mode > FixedMode {
		bad("Options.Mode", uint8(o.Mode), "is unknown", "VariableMode, FixedMode")
	}
	if o.Interval < 0 || o.Interval > maxSpan {
		bad("Options.Interval", o.Interval, outOfRange, fmt.Sprintf("0 (unpaced) to %v", maxSpan))
	}
	if o.Rate.IsZero() {
		if o.FixedStep <= 0 || o.FixedStep > maxSpan {
			bad("Options.FixedStep", o.FixedStep, outOfRange, fmt.Sprintf("1ns to %v", maxSpan))
		}
	} else {
		if o.Rate.Num < 1 || o.Rate.Num > maxRateTerm {
			bad("Options.Rate.Num", o.Rate.Num, outOfRange, "1 to 1e9")
		}
		if o.Rate.Den < 1 || o.Rate.Den > maxRateTerm {
			bad("Options.Rate.Den", o.Rate.Den, outOfRange, "1 to 1e9")
		}
		if o.Rate.Num >= 1 && o.Rate.Den >= 1 && o.Rate.Den > 3600*o.Rate.Num {
			bad("Options.Rate", o.Rate, "is too slow", "at least one tick per hour")
		}
	}
	if o.MaxFixedUpdates < 1 || o.MaxFixedUpdates > MaxBatch {
		bad("Options.MaxFixedUpdates", o.MaxFixedUpdates, outOfRange, fmt.Sprintf("1 to %d", MaxBatch))
	}
	if o.Recovery > RepayDebt {
		bad("Options.Recovery", uint8(o.Recovery), "is unknown", "DropExcessLag, VariableCatchUp, RepayDebt")
	}
	if o.RecoveryPrefix < 0 || o.RecoveryPrefix > max(o.MaxFixedUpdates, 0) {
		errs = append(errs, &option.Error{Pkg: "timing", Field: "Options.RecoveryPrefix", Value: o.RecoveryPrefix,
			Problem: outOfRange, Allowed: fmt.Sprintf("0 to Options.MaxFixedUpdates (%d)", o.MaxFixedUpdates),
			Names: []string{"Options.MaxFixedUpdates"}, Relative: o.RecoveryPrefix >= 0 && o.RecoveryPrefix <= MaxBatch})
	}
	if o.RecoveryCap < 0 {
		bad("Options.RecoveryCap", o.RecoveryCap, "is negative", "0 (no cap) or more")
	}
	return errors.Join(append(errs, o.Debt.validate(o)...)...)
}

// maxRateTerm bounds a Rate's numerator and denominator, so a step is at
// least 1 ns and the phase arithmetic cannot overflow.
const maxRateTerm = 1e9

func (d DebtOptions) validate(o Options) []error {
	var errs []error
	bad := func(field string, value any, problem, allowed string) {
		errs = append(errs, &option.Error{Pkg: "timing", Field: field, Value: value, Problem: problem, Allowed: allowed})
	}
	const outOfRange = "is out of range"
	inRange := func(v, lo, hi float64) bool { return !math.IsNaN(v) && v >= lo && v <= hi }
	if !inRange(d.MaxSpeedUp, 1, 4) {
		bad("DebtOptions.MaxSpeedUp", d.MaxSpeedUp, outOfRange, "1 to 4")
	}
	if !inRange(d.MaxSlowDown, 0.25, 1) {
		bad("DebtOptions.MaxSlowDown", d.MaxSlowDown, outOfRange, "0.25 to 1")
	}
	if !inRange(d.Gain, 0, 10) || d.Gain == 0 {
		bad("DebtOptions.Gain", d.Gain, outOfRange, "above 0 up to 10")
	}
	if d.CosmeticEvery < 2 || d.CosmeticEvery > 60 {
		bad("DebtOptions.CosmeticEvery", d.CosmeticEvery, outOfRange, "2 to 60")
	}
	if d.MaxStepScale < 2 || d.MaxStepScale > 64 {
		bad("DebtOptions.MaxStepScale", d.MaxStepScale, outOfRange, "2 to 64")
	}
	if o.Recovery == RepayDebt && d.VariableStep && o.Rollback {
		errs = append(errs, &option.Error{Pkg: "timing", Field: "DebtOptions.VariableStep",
			Problem: "is refused because Options.Rollback is set: resimulation needs identical fixed steps",
			Names:   []string{"Options.Rollback"}, Relative: true})
	}
	// The cutoff must hold at least one whole step, compared exactly: a
	// rate's step is rounded up to the next nanosecond.
	step := o.FixedStep
	if r := o.Rate; !r.IsZero() {
		step = 0
		if r.Num >= 1 && r.Num <= maxRateTerm && r.Den >= 1 && r.Den <= maxRateTerm {
			ph := newPhase(0, r)
			step = time.Duration(ceilNanos(u128{0, ph.t}, ph.p))
		}
	}
	if d.Cutoff > maxSpan || d.Cutoff <= 0 || o.Recovery == RepayDebt && d.Cutoff < step {
		errs = append(errs, &option.Error{Pkg: "timing", Field: "DebtOptions.Cutoff", Value: d.Cutoff, Problem: outOfRange,
			Allowed: fmt.Sprintf("one step (%v) to %v", step, maxSpan),
			Names:   []string{"Options.FixedStep", "Options.Rate"}, Relative: d.Cutoff > 0 && d.Cutoff <= maxSpan})
	}
	if d.SuspendAfter < 0 {
		bad("DebtOptions.SuspendAfter", d.SuspendAfter, "is negative", "0 (never) or more")
	}
	switch d.PastCutoff {
	case SlowDown, DropTime:
	case Resync, SharedSlowdown:
		if d.Hook == nil {
			errs = append(errs, &option.Error{Pkg: "timing", Field: "DebtOptions.PastCutoff", Value: d.PastCutoff,
				Problem: "needs DebtOptions.Hook (a networked role)", Allowed: fmt.Sprintf("%v or %v for a solo game", SlowDown, DropTime),
				Names: []string{"DebtOptions.Hook"}, Relative: true})
		}
	default:
		bad("DebtOptions.PastCutoff", uint8(d.PastCutoff), "is unknown", "SlowDown, DropTime, Resync, SharedSlowdown")
	}
	return errs
}
