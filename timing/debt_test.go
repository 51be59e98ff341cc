package timing_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// repayOpts is 60 Hz fixed mode under RepayDebt with the seed defaults and
// room for two updates per cycle, so pacing can run above one step per frame.
func repayOpts() timing.Options {
	o := schFixed(timing.DefaultInterval, 2, timing.RepayDebt)
	o.Debt = timing.DefaultOptions().Debt
	return o
}

// debtRun drives a scheduler with a manual clock and keeps the totals.
type debtRun struct {
	t       *testing.T
	s       *timing.Scheduler
	now     time.Duration
	steps   int
	batches []timing.Batch // copies
}

func newDebtRun(t *testing.T, o timing.Options) *debtRun {
	return &debtRun{t: t, s: schStart(t, o)}
}

// frame advances the clock by d and returns the batch, checking the ledger.
func (r *debtRun) frame(d time.Duration) timing.Batch {
	r.t.Helper()
	r.now += d
	b := schAdvance(r.t, r.s, schAt(r.now))
	if err := r.s.CheckLedger(); err != nil {
		r.t.Fatalf("at %v: %v", r.now, err)
	}
	for _, u := range b.Updates {
		r.steps += max(u.Steps, 1)
	}
	b.Updates = append([]timing.Update(nil), b.Updates...)
	r.batches = append(r.batches, b)
	return b
}

// TestRepayStallUnderPacing: a 1.5 s stall is repaid in full, never faster
// than MaxSpeedUp, and never in a burst larger than one cycle allows.
func TestRepayStallUnderPacing(t *testing.T) {
	o := repayOpts()
	step := timing.DefaultInterval
	r := newDebtRun(t, o)
	for range 60 {
		r.frame(step)
	}
	if st := r.s.Stats(); st.Debt != 0 || st.Rate != 1 {
		t.Fatalf("before the stall: debt %d, rate %v; want 0 and 1", st.Debt, st.Rate)
	}
	r.frame(1500 * time.Millisecond)
	stallEnd := r.now
	st := r.s.Stats()
	if st.Debt < 85 || st.Rate != o.Debt.MaxSpeedUp || !st.Acting.Has(timing.MechPacing) {
		t.Fatalf("after the stall: %+v; want about 88 steps of debt, rate 1.25, pacing acting", st)
	}
	type mark struct {
		at    time.Duration
		steps int
	}
	var marks []mark
	for r.s.Stats().Debt > 0 && r.now-stallEnd < 30*time.Second {
		marks = append(marks, mark{r.now, r.steps})
		b := r.frame(step)
		if len(b.Updates) > o.MaxFixedUpdates {
			t.Fatalf("batch of %d updates, more than MaxFixedUpdates", len(b.Updates))
		}
		if rate := r.s.Stats().Rate; rate > o.Debt.MaxSpeedUp || rate < 1 {
			t.Fatalf("rate %v outside [1, MaxSpeedUp] while repaying", rate)
		}
	}
	repaidAfter := r.now - stallEnd
	l := r.s.Ledger()
	if l.Dropped() != 0 || l.Suspended != 0 || l.PendingDebt != 0 {
		t.Errorf("ledger %+v: want nothing dropped, suspended or owed", l)
	}
	if l.Simulated+l.PendingRemainder != l.Real {
		t.Errorf("simulated %v + remainder %v != real %v: the stall was not repaid in full", l.Simulated, l.PendingRemainder, l.Real)
	}
	// At 1.25x the 1.5 s cannot be repaid in less than 6 s; a proportional
	// pace takes longer; a stall still unrepaid after 20 s is a failure.
	if repaidAfter < 6*time.Second || repaidAfter > 20*time.Second {
		t.Errorf("repaid after %v, want between 6s and 20s", repaidAfter)
	}
	// Over any window after the stall, steps <= 1.25 * window + one batch.
	for i := range marks {
		for j := i + 1; j < len(marks); j += 7 {
			window := marks[j].at - marks[i].at
			steps := marks[j].steps - marks[i].steps
			limit := o.Debt.MaxSpeedUp*float64(window)/float64(step) + float64(o.MaxFixedUpdates)
			if float64(steps) > limit {
				t.Fatalf("%d steps in %v after the stall, above the pace limit %.1f", steps, window, limit)
			}
		}
	}
	t.Logf("1.5 s stall repaid in %v", repaidAfter)
}

// TestRepayPastCutoff: an update that always takes 30 ms at 60 Hz with one
// update per cycle falls behind until the cutoff, then the policy acts.
func TestRepayPastCutoff(t *testing.T) {
	var hookCalls int
	var hookDebt time.Duration
	hook := timing.DebtHookFunc(func(p timing.PastCutoff, debt time.Duration) time.Duration {
		hookCalls++
		hookDebt = debt
		return debt // resync: start again from the authority's state
	})
	tests := []struct {
		policy timing.PastCutoff
		check  func(t *testing.T, l timing.Ledger, st timing.Stats, maxDebt time.Duration)
	}{
		{timing.SlowDown, func(t *testing.T, l timing.Ledger, st timing.Stats, maxDebt time.Duration) {
			if maxDebt > 2*time.Second {
				t.Errorf("debt reached %v, want it held at the 2s cutoff", maxDebt)
			}
			if st.DebtTime < 2*time.Second-2*timing.DefaultInterval {
				t.Errorf("debt %v, want it held near the cutoff while overloaded", st.DebtTime)
			}
			if l.DroppedCutoff <= 0 || l.Dropped() != l.DroppedCutoff {
				t.Errorf("ledger %+v, want every drop under the cutoff policy", l)
			}
		}},
		{timing.DropTime, func(t *testing.T, l timing.Ledger, st timing.Stats, maxDebt time.Duration) {
			if maxDebt > 2*time.Second {
				t.Errorf("debt reached %v, want at most the cutoff", maxDebt)
			}
			// Each time the cutoff is passed all debt goes at once, so the
			// drops come in lumps of about 2 s.
			if l.DroppedDropTime < 2*time.Second || l.Dropped() != l.DroppedDropTime {
				t.Errorf("ledger %+v, want whole-debt drops", l)
			}
		}},
		{timing.Resync, func(t *testing.T, l timing.Ledger, st timing.Stats, maxDebt time.Duration) {
			if hookCalls == 0 || hookDebt <= 2*time.Second-timing.DefaultInterval {
				t.Errorf("hook called %d times with %v, want calls with the debt past the cutoff", hookCalls, hookDebt)
			}
			if l.DroppedByHook < 2*time.Second || l.Dropped() != l.DroppedByHook {
				t.Errorf("ledger %+v, want drops by the hook", l)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.policy.String(), func(t *testing.T) {
			o := repayOpts()
			o.MaxFixedUpdates = 1
			o.Debt.PastCutoff = tt.policy
			if tt.policy == timing.Resync {
				o.Debt.Hook = hook
			}
			r := newDebtRun(t, o)
			var maxDebt time.Duration
			var dropTimeEvents, cutoffCycles int
			prevDropped := time.Duration(0)
			for range 600 { // 18 s of 30 ms updates
				r.frame(30 * time.Millisecond)
				st := r.s.Stats()
				maxDebt = max(maxDebt, st.DebtTime)
				if st.Acting.Has(timing.MechCutoff) {
					cutoffCycles++
				}
				if st.Dropped > prevDropped {
					dropTimeEvents++
				}
				prevDropped = st.Dropped
			}
			l, st := r.s.Ledger(), r.s.Stats()
			if cutoffCycles == 0 {
				t.Error("the cutoff never acted")
			}
			if tt.policy == timing.DropTime && dropTimeEvents < 2 {
				t.Errorf("%d drop events, want one per cutoff crossing (several in 18 s)", dropTimeEvents)
			}
			if tt.policy == timing.SlowDown && dropTimeEvents < 300 {
				t.Errorf("%d cycles dropped time, want continuous drops while overloaded", dropTimeEvents)
			}
			tt.check(t, l, st, maxDebt)
		})
	}
}

// TestVariableStepOnlyWhereAllowed: merged steps appear only with
// VariableStep on, only while in debt, and never for a rollback game.
func TestVariableStepOnlyWhereAllowed(t *testing.T) {
	o := repayOpts()
	o.Debt.Pacing = false
	o.Debt.VariableStep = true
	step := timing.DefaultInterval
	r := newDebtRun(t, o)
	b := r.frame(step)
	if len(b.Updates) != 1 || b.Updates[0].Kind != timing.FixedUpdate || b.Updates[0].Steps != 1 {
		t.Fatalf("without debt: %+v, want one plain fixed step", b.Updates)
	}
	b = r.frame(12 * step)
	if len(b.Updates) != 2 {
		t.Fatalf("12 steps owed: %d updates, want 2 merged", len(b.Updates))
	}
	for _, u := range b.Updates {
		if u.Kind != timing.CatchUpUpdate || u.Steps != 6 || u.Delta < 6*step-6 || u.Delta > 6*step+6 {
			t.Errorf("merged update %+v, want 6 steps of variable catch-up", u)
		}
	}
	if st := r.s.Stats(); st.MergedSteps != 12 || st.Ticks[timing.CatchUpUpdate] != 2 || !st.Acting.Has(timing.MechVariableStep) {
		t.Errorf("stats %+v, want 12 merged steps in 2 catch-up ticks", st)
	}
	// The longest merge is MaxStepScale steps per update.
	b = r.frame(40 * step)
	if len(b.Updates) != 2 || b.Updates[0].Steps != 8 || b.Updates[1].Steps != 8 {
		t.Errorf("40 steps owed: %+v, want two updates of 8 steps", b.Updates)
	}

	o.Debt.VariableStep = false
	r = newDebtRun(t, o)
	b = r.frame(12 * step)
	for _, u := range b.Updates {
		if u.Kind != timing.FixedUpdate || u.Steps != 1 {
			t.Errorf("VariableStep off: %+v, want fixed steps", u)
		}
	}

	o.Debt.VariableStep = true
	o.Rollback = true
	if _, err := timing.NewScheduler(o); err == nil || !strings.Contains(err.Error(), "Rollback") {
		t.Errorf("NewScheduler with rollback and variable step: %v, want a refusal naming Rollback", err)
	}
	s := schStart(t, repayOpts())
	if err := s.SetOptions(o); err == nil {
		t.Error("SetOptions accepted variable step for a rollback game")
	}
}

func TestSuspensionIsNotRepaid(t *testing.T) {
	tests := []struct {
		name          string
		suspendAfter  time.Duration
		gap           time.Duration
		wantSuspended time.Duration
		wantCutoff    bool
	}{
		{"a long gap is a suspension", 5 * time.Second, 6 * time.Second, 6 * time.Second, false},
		{"a gap below the threshold is lag", 5 * time.Second, 4900 * time.Millisecond, 0, true},
		{"suspension switched off", 0, 6 * time.Second, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := repayOpts()
			o.Debt.SuspendAfter = tt.suspendAfter
			step := timing.DefaultInterval
			r := newDebtRun(t, o)
			r.frame(step + step/2) // a little remainder before the gap
			debtBefore := r.s.Stats().Debt
			b := r.frame(tt.gap)
			st := r.s.Stats()
			if b.Suspended != tt.wantSuspended || st.Suspended != tt.wantSuspended {
				t.Errorf("suspended %v (batch %v), want %v", st.Suspended, b.Suspended, tt.wantSuspended)
			}
			if st.Acting.Has(timing.MechCutoff) != tt.wantCutoff {
				t.Errorf("acting %v, cutoff want %v", st.Acting, tt.wantCutoff)
			}
			if tt.wantSuspended == 0 {
				return
			}
			if st.Debt != debtBefore || len(b.Updates) > 0 {
				t.Errorf("debt %d -> %d with %d updates, want the gap neither owed nor run", debtBefore, st.Debt, len(b.Updates))
			}
			for range 60 {
				r.frame(step)
			}
			if st := r.s.Stats(); st.Debt != 0 || st.Dropped != 0 || r.s.Ledger().Suspended != tt.gap {
				t.Errorf("after a second: %+v, want no debt, nothing dropped, the gap suspended", st)
			}
		})
	}
}

func TestAheadSlowsDown(t *testing.T) {
	o := repayOpts()
	step := timing.DefaultInterval
	r := newDebtRun(t, o)
	for range 10 {
		r.frame(step)
	}
	if err := r.s.AdjustDebt(-500 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	st := r.s.Stats()
	// 500 ms is a hair under 30 steps of 16,666,667 ns: 29 whole steps.
	if st.Debt != -29 || st.DebtTime != -29*step || st.Rate != o.Debt.MaxSlowDown {
		t.Fatalf("after adjusting: debt %d (%v) rate %v, want -29 steps at MaxSlowDown", st.Debt, st.DebtTime, st.Rate)
	}
	stepsBefore := r.steps
	// One second of frames: the simulation runs at MaxSlowDown, 54 steps
	// instead of 60, and never freezes.
	for i := range 60 {
		b := r.frame(step)
		if rate := r.s.Stats().Rate; rate != o.Debt.MaxSlowDown {
			t.Fatalf("frame %d: rate %v, want MaxSlowDown %v while well ahead", i, rate, o.Debt.MaxSlowDown)
		}
		if i%10 == 9 && len(b.Updates) == 0 && r.steps == stepsBefore {
			t.Fatal("the simulation froze instead of slowing down")
		}
	}
	if got := r.steps - stepsBefore; got < 53 || got > 55 {
		t.Errorf("%d steps in one second ahead, want about 54 (0.9 x 60)", got)
	}
	for range 60 * 30 {
		r.frame(step)
		// The last fraction of a step ahead is paced too (Debt counts
		// whole steps): caught up is no debt at rate 1.
		if st := r.s.Stats(); st.Debt == 0 && st.Rate == 1 {
			break
		}
	}
	st = r.s.Stats()
	if st.Debt != 0 || st.Dropped != 0 || st.Rate != 1 {
		t.Errorf("after catching up: %+v, want no debt, nothing dropped, rate 1", st)
	}
	if l := r.s.Ledger(); l.Adjusted != -500*time.Millisecond {
		t.Errorf("adjusted %v, want -500ms", l.Adjusted)
	}
}

func TestQuietAndCosmetic(t *testing.T) {
	step := timing.DefaultInterval
	tests := []struct {
		name         string
		quiet        bool
		coarse       bool
		wantQuiet    []bool
		wantCosmetic []bool
	}{
		{"quiet ticks", true, false, []bool{true, false}, []bool{true, true}},
		{"quiet ticks off", false, false, []bool{false, false}, []bool{true, true}},
		// Ticks 0 and 1 are the first batch; tick 0 is a multiple of 4.
		{"coarse cosmetic while in debt", false, true, []bool{false, false}, []bool{true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := repayOpts()
			o.Debt.Pacing = false
			o.Debt.QuietTicks = tt.quiet
			o.Debt.CoarseCosmetic = tt.coarse
			r := newDebtRun(t, o)
			b := r.frame(5 * step)
			if len(b.Updates) != 2 {
				t.Fatalf("%d updates, want 2", len(b.Updates))
			}
			for i, u := range b.Updates {
				if u.Quiet != tt.wantQuiet[i] || u.Coarse == tt.wantCosmetic[i] {
					t.Errorf("update %d: quiet %v cosmetic %v, want %v %v", i, u.Quiet, !u.Coarse, tt.wantQuiet[i], tt.wantCosmetic[i])
				}
				if u.RunCosmetic() != (tt.wantCosmetic[i] && !tt.wantQuiet[i]) {
					t.Errorf("update %d: RunCosmetic %v", i, u.RunCosmetic())
				}
			}
			// Debt is repaid; out of debt every tick is cosmetic and alone.
			for range 5 {
				r.frame(step)
			}
			b = r.frame(step)
			if len(b.Updates) != 1 || b.Updates[0].Quiet || b.Updates[0].Coarse {
				t.Errorf("out of debt: %+v, want one loud cosmetic update", b.Updates)
			}
			wantQuietTotal := uint64(0)
			if tt.quiet {
				// Debt 5: batches of two at debts 5, 4 (3+1), 3 (2+1)
				// and 2 (1+1), then single steps.
				wantQuietTotal = 4
			}
			if got := r.s.Stats().QuietTicks; got != wantQuietTotal {
				t.Errorf("quiet ticks %d, want %d", got, wantQuietTotal)
			}
		})
	}
}

func TestRepayWithoutPacing(t *testing.T) {
	o := repayOpts()
	o.Debt.Pacing = false
	step := timing.DefaultInterval
	r := newDebtRun(t, o)
	r.frame(10 * step)
	if st := r.s.Stats(); st.Debt != 8 || st.Rate != 1 || st.Acting.Has(timing.MechPacing) {
		t.Errorf("stats %+v, want 8 steps owed at rate 1", st)
	}
	// Every cycle runs the most it may: debt falls by one a frame.
	for want := int64(7); want >= 0; want-- {
		r.frame(step)
		if got := r.s.Stats().Debt; got != want {
			t.Fatalf("debt %d, want %d", got, want)
		}
	}
}

func TestAdjustDebtErrors(t *testing.T) {
	s := schStart(t, schFixed(10*msec, 1, timing.DropExcessLag))
	if err := s.AdjustDebt(msec); err == nil {
		t.Error("AdjustDebt accepted under DropExcessLag")
	}
	s = schStart(t, repayOpts())
	if err := s.AdjustDebt(3 * time.Second); err == nil || !strings.Contains(err.Error(), "DebtOptions.Cutoff") {
		t.Errorf("AdjustDebt(3s) = %v, want a range error naming the cutoff", err)
	}
	var fresh timing.Scheduler
	if err := fresh.AdjustDebt(0); !errors.Is(err, timing.ErrNotStarted) {
		t.Errorf("AdjustDebt before Start = %v, want ErrNotStarted", err)
	}
	if err := s.AdjustDebt(100 * msec); err != nil {
		t.Fatal(err)
	}
	// 100 ms is a hair under 6 steps of 16,666,667 ns.
	if st := s.Stats(); st.Debt != 5 {
		t.Errorf("debt after +100ms = %d steps, want 5", st.Debt)
	}
}

func TestRepayNextUpdateAtFollowsPace(t *testing.T) {
	o := repayOpts()
	o.MaxFixedUpdates = 1
	step := timing.DefaultInterval
	r := newDebtRun(t, o)
	r.frame(step)
	if got, want := r.s.NextUpdateAt(), schAt(2*step); got != want {
		t.Errorf("without debt NextUpdateAt = %v, want %v", got, want)
	}
	r.frame(60 * step) // about 1 s behind: pace 1.25 (capped)
	r.frame(step)      // a frame's credit leaves a quarter step over
	next := time.Duration(r.s.NextUpdateAt() - schAt(r.now))
	if want := time.Duration(float64(step) * 0.75 / 1.25); next < want-time.Microsecond || next > want+time.Microsecond {
		t.Errorf("in debt the next update is due in %v, want %v (the rest of a step at 1.25x)", next, want)
	}
	// Driven at NextUpdateAt, updates come one step at 1.25x apart.
	for i := range 5 {
		at := r.s.NextUpdateAt()
		r.frame(time.Duration(at - schAt(r.now)))
		next := time.Duration(r.s.NextUpdateAt() - at)
		if want := time.Duration(float64(step) / 1.25); next < want-time.Microsecond || next > want+time.Microsecond {
			t.Errorf("update %d: the next is due in %v, want %v (one step at 1.25x)", i, next, want)
		}
	}
}

func TestMechanismString(t *testing.T) {
	if got := (timing.MechPacing | timing.MechCutoff).String(); got != "pacing+cutoff" {
		t.Errorf("got %q", got)
	}
	if got := timing.Mechanism(0).String(); got != "none" {
		t.Errorf("got %q", got)
	}
}

// TestVariableStepKeepsUpWithSlowFrames: at 20 frames per second a 60 Hz
// simulation allowed one update per cycle keeps up only by merging steps.
func TestVariableStepKeepsUpWithSlowFrames(t *testing.T) {
	for _, merge := range []bool{false, true} {
		o := repayOpts()
		o.MaxFixedUpdates = 1
		o.Debt.VariableStep = merge
		r := newDebtRun(t, o)
		for range 200 { // 10 s
			r.frame(50 * msec)
		}
		st := r.s.Stats()
		if merge {
			if st.Dropped != 0 || st.Debt > 3 || st.MergedSteps == 0 {
				t.Errorf("merging: %+v, want it to keep up with merged steps and drop nothing", st)
			}
		} else if st.Dropped == 0 || !st.Acting.Has(timing.MechCutoff) {
			t.Errorf("one step per frame: %+v, want it to fall behind to the cutoff", st)
		}
	}
}

func TestNextUpdateAtSaturates(t *testing.T) {
	s, err := timing.NewScheduler(schFixed(timing.DefaultInterval, 1, timing.DropExcessLag))
	if err != nil {
		t.Fatal(err)
	}
	s.Start(timing.MaxInstant - 10)
	if got := s.NextUpdateAt(); got != timing.MaxInstant {
		t.Errorf("NextUpdateAt near the end of the clock = %v, want MaxInstant", got)
	}
}

// TestDropTimeRunsTheOwedStep is issue 22's case: an 8 ms step, four
// updates a cycle, first read 3503 ms after Start. DropTime drops the 437
// whole steps past the cutoff and keeps the 7 ms remainder, so one more
// millisecond owes a whole step: it runs at 3504 ms, NextUpdateAt names
// that instant, and the drop is reported once, on that update.
func TestDropTimeRunsTheOwedStep(t *testing.T) {
	o := schFixed(8*msec, 4, timing.RepayDebt)
	o.Debt = timing.DefaultOptions().Debt
	o.Debt.PastCutoff = timing.DropTime
	s := schStart(t, o)
	b := schAdvance(t, s, schAt(3503*msec))
	if len(b.Updates) != 0 || b.Dropped != 0 {
		t.Fatalf("at 3503ms: %d updates, %v reported dropped; want none yet", len(b.Updates), b.Dropped)
	}
	if l := s.Ledger(); l.DroppedDropTime != 3496*msec || l.PendingRemainder != 7*msec {
		t.Fatalf("at 3503ms: dropped %v, remainder %v; want 3.496s and 7ms", l.DroppedDropTime, l.PendingRemainder)
	}
	if got, want := s.NextUpdateAt(), schAt(3504*msec); got != want {
		t.Errorf("NextUpdateAt = %v after Start, want %v (the owed step)", time.Duration(got-schEpoch), time.Duration(want-schEpoch))
	}
	b = schAdvance(t, s, schAt(3504*msec))
	if len(b.Updates) != 1 || b.Dropped != 3496*msec || b.Updates[0].Dropped != 3496*msec {
		t.Fatalf("at 3504ms: %d updates, batch dropped %v; want the owed step carrying the 3.496s drop", len(b.Updates), b.Dropped)
	}
	if u := b.Updates[0]; u.End != schAt(3504*msec) {
		t.Errorf("the update ends at %v, want 3.504s", time.Duration(u.End-schEpoch))
	}
	for i := range 10 { // on time after that, and the drop is not reported again
		at := schAt(3504*msec + time.Duration(i+1)*8*msec)
		if got := s.NextUpdateAt(); got != at {
			t.Fatalf("step %d: NextUpdateAt = %v, want %v", i, time.Duration(got-schEpoch), time.Duration(at-schEpoch))
		}
		if b := schAdvance(t, s, at); len(b.Updates) != 1 || b.Dropped != 0 {
			t.Fatalf("step %d: %d updates, %v dropped; want one on time, nothing dropped", i, len(b.Updates), b.Dropped)
		}
	}
}

// TestPacedInStepAfterRepaying is issue 22's first defect at the
// scheduler: once pacing has repaid a stall, and the fraction of a step
// left with it, a whole step owed never waits. Read at 144 Hz with 60 Hz steps, every reading after the debt is
// repaid leaves no whole step pending, the remainder is the reading's
// distance from the latest span end (Alpha is that over one step), and
// the next update is due exactly when the next step is owed.
func TestPacedInStepAfterRepaying(t *testing.T) {
	frame := time.Second / 144
	for _, tt := range []struct {
		limit int
		stall time.Duration
	}{{1, 60 * msec}, {1, 100 * msec}, {4, 100 * msec}, {4, 1500 * msec}, {1, 1500 * msec}} {
		t.Run(fmt.Sprintf("limit %d, %v stall", tt.limit, tt.stall), func(t *testing.T) {
			o := repayOpts()
			o.Rate = timing.Hz(60)
			o.MaxFixedUpdates = tt.limit
			r := newDebtRun(t, o)
			for range 144 {
				r.frame(frame)
			}
			r.frame(tt.stall)
			for r.s.Stats().Debt > 0 && r.now < 30*time.Second {
				r.frame(frame)
			}
			if r.s.Stats().Debt > 0 {
				t.Fatalf("debt %d steps after 30 s", r.s.Stats().Debt)
			}
			// What is left is less than a step: pacing repays it at its
			// least speed-up within a few seconds, evenly.
			repaid := r.now
			for r.s.Stats().Rate != 1 {
				if r.now-repaid > 3*time.Second {
					t.Fatalf("%v after the debt read zero the rate is still %v", r.now-repaid, r.s.Stats().Rate)
				}
				r.frame(frame)
				if st := r.s.Stats(); st.Rate < 1 || st.Rate > 1+o.Debt.Gain*(time.Second/60).Seconds()+1e-9 {
					t.Fatalf("repaying the last step: rate %v, want the least speed-up", st.Rate)
				}
			}
			t.Logf("the debt read zero at %v; in step %v later", repaid, r.now-repaid)
			var end timing.Instant
			for i := range 5 * 144 {
				b := r.frame(frame)
				if n := len(b.Updates); n > 0 {
					end = b.Updates[n-1].End
				}
				l, st := r.s.Ledger(), r.s.Stats()
				if st.Debt != 0 || l.PendingDebt != 0 {
					t.Fatalf("frame %d after repaying: %d whole steps owed and waiting (rate %v)", i, st.Debt, st.Rate)
				}
				if end == 0 {
					continue
				}
				lag := time.Duration(schAt(r.now) - end)
				if d := lag - l.PendingRemainder; d < -time.Microsecond || d > time.Microsecond {
					t.Fatalf("frame %d: the reading is %v past the latest span end, but %v is pending", i, lag, l.PendingRemainder)
				}
				if a, want := r.s.Alpha(), lag.Seconds()*60; a < want-1e-3 || a > want+1e-3 {
					t.Fatalf("frame %d: alpha %v, want %v (the reading's distance from the span end over one step)", i, a, want)
				}
			}
		})
	}
}
