package timing_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"testing"

	"github.com/metronome-go/metronome/timing"
)

// contractModes are the configurations whose NextUpdateAt contract is
// checked: every mode, both variable pacings, every recovery policy and
// the RepayDebt mechanisms that move the next update.
func contractModes() []struct {
	name string
	opts timing.Options
} {
	unpaced := timing.DefaultOptions()
	unpaced.Interval = 0
	rate := schFixed(0, 1, timing.DropExcessLag)
	rate.Rate = timing.Hz(60)
	catchUp := schFixed(20*msec, 2, timing.VariableCatchUp)
	catchUp.RecoveryPrefix = 1
	noPacing := repayOpts()
	noPacing.Debt.Pacing = false
	merge := repayOpts()
	merge.Debt.VariableStep = true
	repayRate := repayOpts()
	repayRate.Rate = timing.Rate{Num: 60000, Den: 1001}
	one := repayOpts()
	one.MaxFixedUpdates = 1
	return []struct {
		name string
		opts timing.Options
	}{
		{"variable paced", timing.DefaultOptions()},
		{"variable unpaced", unpaced},
		{"fixed drop excess", schFixed(10*msec, 1, timing.DropExcessLag)},
		{"fixed 60 Hz rate", rate},
		{"catch-up", catchUp},
		{"repay paced", repayOpts()},
		{"repay paced one update", one},
		{"repay unpaced", noPacing},
		{"repay merged steps", merge},
		{"repay NTSC rate", repayRate},
	}
}

// TestNextUpdateAtIsDue: a loop that waits on a manual clock until
// NextUpdateAt and then calls Advance gets at least one update every time,
// and the clock moves on, in every mode: through a stall, an adjustment
// either way under RepayDebt, and an unpaced variable scheduler.
func TestNextUpdateAtIsDue(t *testing.T) {
	for _, m := range contractModes() {
		t.Run(m.name, func(t *testing.T) {
			clock := timing.NewManualClock(schEpoch)
			w := clock.NewWaiter()
			s := schStart(t, m.opts)
			repay := m.opts.Mode == timing.FixedMode && m.opts.Recovery == timing.RepayDebt
			calls, updates := 0, 0
			for i := range 2000 {
				switch {
				case i == 500:
					clock.Advance(300 * msec) // a stall: not a wait for NextUpdateAt
					b := schAdvance(t, s, clock.Now())
					updates += len(b.Updates)
					continue
				case i == 1000 && repay:
					if err := s.AdjustDebt(-200 * msec); err != nil {
						t.Fatal(err)
					}
				case i == 1500 && repay:
					if err := s.AdjustDebt(100 * msec); err != nil {
						t.Fatal(err)
					}
				}
				before := clock.Now()
				next := s.NextUpdateAt()
				if next < before {
					t.Fatalf("call %d: NextUpdateAt %v is before the latest reading %v", i, next, before)
				}
				if err := w.WaitUntil(next); err != nil {
					t.Fatal(err)
				}
				if got := clock.Now(); got != next {
					t.Fatalf("call %d: the clock reads %v after waiting for %v", i, got, next)
				}
				b := schAdvance(t, s, clock.Now())
				calls++
				if len(b.Updates) == 0 {
					t.Fatalf("call %d: Advance at NextUpdateAt %v (previous reading %v) selected nothing; stats %+v",
						i, next, before, s.Stats())
				}
				updates += len(b.Updates)
			}
			if calls != 2000-1 || updates < calls {
				t.Errorf("%d Advance calls at NextUpdateAt with %d updates, want 1999 calls each with an update", calls, updates)
			}
			if l := s.Ledger(); l.Real <= 0 {
				t.Errorf("the clock did not move: ledger %+v", l)
			}
		})
	}
}

// TestRepayPaceMatchesRate: after the reference stall (1.5 s at a 6 ms
// step), a runtime that waits until NextUpdateAt, exactly or at the next
// 60 Hz display refresh after it, repays at MaxSpeedUp while the debt is
// large, and over every 1 s window the simulated time it runs matches the
// rate Stats reports.
func TestRepayPaceMatchesRate(t *testing.T) {
	const step = 6 * msec
	const window = time.Second
	for _, limit := range []int{4, 8} {
		for _, frame := range []time.Duration{0, timing.DefaultInterval} {
			name := fmt.Sprintf("MaxFixedUpdates %d, wake at NextUpdateAt", limit)
			if frame > 0 {
				name = fmt.Sprintf("MaxFixedUpdates %d, wake at the 60 Hz refresh after NextUpdateAt", limit)
			}
			t.Run(name, func(t *testing.T) {
				o := schFixed(step, limit, timing.RepayDebt)
				o.Debt = timing.DefaultOptions().Debt
				s := schStart(t, o)
				clock := timing.NewManualClock(schEpoch)
				w := clock.NewWaiter()
				advance := func() {
					t.Helper()
					target := s.NextUpdateAt()
					if frame > 0 {
						k := (target - schEpoch + timing.Instant(frame) - 1) / timing.Instant(frame)
						target = schEpoch + k*timing.Instant(frame)
					}
					if err := w.WaitUntil(target); err != nil {
						t.Fatal(err)
					}
					schAdvance(t, s, clock.Now())
				}
				for clock.Now() < schAt(time.Second) {
					advance()
				}
				clock.Advance(1500 * msec)
				schAdvance(t, s, clock.Now())
				if st := s.Stats(); st.Rate != o.Debt.MaxSpeedUp {
					t.Fatalf("after the stall the rate is %v, want MaxSpeedUp %v", st.Rate, o.Debt.MaxSpeedUp)
				}
				winStart, simStart := clock.Now(), s.Ledger().Simulated
				var reported float64 // rate in force times real time, over the window
				rate, prev := s.Stats().Rate, clock.Now()
				n := 0
				for s.Stats().Debt > 0 {
					advance()
					now := clock.Now()
					reported += rate * float64(now-prev)
					rate, prev = s.Stats().Rate, now
					if now-winStart < timing.Instant(window) {
						continue
					}
					real := float64(now - winStart)
					ran := float64(s.Ledger().Simulated-simStart) / real
					want := reported / real
					if diff := ran - want; diff < -0.01 || diff > 0.01 {
						t.Errorf("window %d: simulation ran at %.4fx, Stats.Rate says %.4fx", n, ran, want)
					}
					if n < 3 && ran < o.Debt.MaxSpeedUp-0.01 {
						t.Errorf("window %d: simulation ran at %.4fx with debt above 0.5 s, want MaxSpeedUp %v", n, ran, o.Debt.MaxSpeedUp)
					}
					if n < 3 {
						t.Logf("window %d: ran %.4fx, reported %.4fx", n, ran, want)
					}
					winStart, simStart, reported = now, s.Ledger().Simulated, 0
					n++
				}
				if n < 4 || s.Stats().Dropped != 0 {
					t.Errorf("repaid in %d windows with %v dropped, want at least 4 windows and nothing dropped", n, s.Stats().Dropped)
				}
			})
		}
	}
}

// TestScheduledWaitIsNotSuspension: a gap the scheduler asked for, a step
// longer than SuspendAfter or a simulation far ahead without pacing, is
// not a suspension; a reading that late past NextUpdateAt is.
func TestScheduledWaitIsNotSuspension(t *testing.T) {
	longStep := repayOpts()
	longStep.FixedStep = 7 * time.Second
	longStep.Debt.Cutoff = time.Minute
	ahead := repayOpts()
	ahead.Debt.Pacing = false
	ahead.Debt.Cutoff = time.Minute
	tests := []struct {
		name   string
		opts   timing.Options
		adjust time.Duration
	}{
		{"7 s step, suspension after 5 s", longStep, 0},
		{"10 s ahead without pacing", ahead, -10 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := schStart(t, tt.opts)
			if tt.adjust != 0 {
				if err := s.AdjustDebt(tt.adjust); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 3 {
				next := s.NextUpdateAt()
				b := schAdvance(t, s, next)
				if len(b.Updates) != 1 || b.Suspended != 0 {
					t.Fatalf("Advance %d at NextUpdateAt: %d updates, %v suspended; want one update and no suspension", i, len(b.Updates), b.Suspended)
				}
			}
			late := s.NextUpdateAt() + timing.Instant(tt.opts.Debt.SuspendAfter) + 1
			if b := schAdvance(t, s, late); b.Suspended == 0 {
				t.Errorf("a reading SuspendAfter+1ns past NextUpdateAt was not a suspension")
			}
		})
	}
}

// TestLedgerRangeIsChecked: readings and adjustments that would take the
// ledger past int64 nanoseconds are refused with ErrOverflow, naming the
// readings and the allowed range, and change nothing; the readings up to
// the limit are accepted and balance.
func TestLedgerRangeIsChecked(t *testing.T) {
	const minInstant = timing.Instant(math.MinInt64)
	type step struct {
		adjust  time.Duration // AdjustDebt when non-zero, else Advance(at)
		at      timing.Instant
		wantErr bool
	}
	tests := []struct {
		name  string
		opts  timing.Options
		start timing.Instant
		steps []step
	}{
		{"issue 14: Start(MinInt64), Advance(-1), Advance(MaxInt64-1)", schFixed(10*msec, 1, timing.DropExcessLag), minInstant,
			[]step{{at: -1}, {at: timing.MaxInstant - 1, wantErr: true}, {at: -1}}},
		{"variable mode across the whole clock", timing.DefaultOptions(), minInstant,
			[]step{{at: -2}, {at: -1}, {at: 0, wantErr: true}, {at: timing.MaxInstant, wantErr: true}}},
		{"the last representable reading", schFixed(10*msec, 1, timing.DropExcessLag), 0,
			[]step{{at: timing.MaxInstant}}},
		{"repay: added debt shortens the range", repayOpts(), 0,
			[]step{{adjust: time.Second}, {at: timing.MaxInstant - timing.Instant(time.Second) + 1, wantErr: true},
				{at: timing.MaxInstant - timing.Instant(time.Second)}}},
		{"repay: debt added at the full range", repayOpts(), 0,
			[]step{{at: timing.MaxInstant}, {adjust: msec, wantErr: true}, {adjust: -msec, wantErr: true}}},
		{"repay: the span cursor cannot go below the clock", repayOpts(), minInstant,
			[]step{{adjust: msec, wantErr: true}, {adjust: -msec}}},
		{"repay: a lead cannot pass the end of the clock", repayOpts(), timing.MaxInstant - timing.Instant(time.Second),
			[]step{{adjust: -900 * msec}, {adjust: -200 * msec, wantErr: true}, {at: timing.MaxInstant - timing.Instant(500*msec), wantErr: true},
				{at: timing.MaxInstant - timing.Instant(950*msec)}, {at: timing.MaxInstant, wantErr: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := timing.NewScheduler(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			s.Start(tt.start)
			for i, st := range tt.steps {
				before := s.Stats()
				var err error
				if st.adjust != 0 {
					err = s.AdjustDebt(st.adjust)
				} else {
					_, err = s.Advance(st.at)
				}
				if st.wantErr {
					if !errors.Is(err, timing.ErrOverflow) || !strings.Contains(err.Error(), "allowed") {
						t.Fatalf("step %d (%+v): err = %v, want ErrOverflow naming what is allowed", i, st, err)
					}
					if st.adjust == 0 && !strings.Contains(err.Error(), fmt.Sprint(int64(st.at))) {
						t.Errorf("step %d: %v does not name the reading %d", i, err, int64(st.at))
					}
					if after := s.Stats(); after != before {
						t.Errorf("step %d: a refused call changed the scheduler:\n got %+v\nwant %+v", i, after, before)
					}
					continue
				}
				if err != nil {
					t.Fatalf("step %d (%+v): %v", i, st, err)
				}
				l := s.Ledger()
				if l.Real < 0 || l.Simulated < 0 || l.Dropped() < 0 || l.Suspended < 0 {
					t.Errorf("step %d: ledger %+v has a negative total", i, l)
				}
				if err := s.CheckLedger(); err != nil {
					t.Errorf("step %d: %v", i, err)
				}
				if st.adjust == 0 && l.Real != time.Duration(st.at-tt.start) {
					t.Errorf("step %d: Real = %v, want %v", i, l.Real, time.Duration(st.at-tt.start))
				}
			}
		})
	}
}

// TestSpanShifts: an update starts where the previous one ended, moved by
// the time dropped or suspended in between and moved back by the debt
// AdjustDebt added (as Update.Start documents).
func TestSpanShifts(t *testing.T) {
	step := timing.DefaultInterval
	tests := []struct {
		name  string
		opts  timing.Options
		event func(t *testing.T, s *timing.Scheduler, now *time.Duration)
		shift time.Duration // next Start - previous End
	}{
		{"no event: contiguous", repayOpts(), func(*testing.T, *timing.Scheduler, *time.Duration) {}, 0},
		{"AdjustDebt(+30ms) replays 30 ms", repayOpts(), func(t *testing.T, s *timing.Scheduler, _ *time.Duration) {
			if err := s.AdjustDebt(30 * msec); err != nil {
				t.Fatal(err)
			}
		}, -30 * msec},
		{"AdjustDebt(-30ms) skips 30 ms", repayOpts(), func(t *testing.T, s *timing.Scheduler, _ *time.Duration) {
			if err := s.AdjustDebt(-30 * msec); err != nil {
				t.Fatal(err)
			}
		}, 30 * msec},
		{"a suspension skips the gap", repayOpts(), func(t *testing.T, s *timing.Scheduler, now *time.Duration) {
			*now += 6 * time.Second
			if b := schAdvance(t, s, schAt(*now)); b.Suspended != 6*time.Second || len(b.Updates) != 0 {
				t.Fatalf("gap: %+v, want a 6 s suspension without updates", b)
			}
		}, 6 * time.Second},
		{"DropExcessLag skips what it drops", schFixed(step, 1, timing.DropExcessLag), func(t *testing.T, s *timing.Scheduler, now *time.Duration) {
			*now += 3 * step // with the next frame, three steps owed besides the one it runs
		}, 3 * step},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := schStart(t, tt.opts)
			now := time.Duration(0)
			var prev timing.Update
			for range 5 {
				now += step
				b := schAdvance(t, s, schAt(now))
				if len(b.Updates) != 1 {
					t.Fatalf("%d updates at %v, want 1", len(b.Updates), now)
				}
				prev = b.Updates[0]
			}
			before := s.Ledger()
			tt.event(t, s, &now)
			var next timing.Update
			for next.Span() == 0 {
				now += step
				if b := schAdvance(t, s, schAt(now)); len(b.Updates) > 0 {
					next = b.Updates[0]
				}
			}
			if got := time.Duration(next.Start - prev.End); got != tt.shift {
				t.Errorf("next update starts %v after the previous one ended, want %v", got, tt.shift)
			}
			after := s.Ledger()
			if got, want := time.Duration(next.Start-prev.End), (after.Dropped()-before.Dropped())+(after.Suspended-before.Suspended)-(after.Adjusted-before.Adjusted); got != want {
				t.Errorf("shift %v, want the ledger's dropped + suspended - adjusted in between, %v", got, want)
			}
		})
	}
}
