package timing_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/timing"
)

const msec = time.Millisecond

// schEpoch is a non-zero start so that no test depends on instants near zero.
const schEpoch = timing.Instant(1_000_000_000_000)

func schAt(d time.Duration) timing.Instant { return schEpoch + timing.Instant(d) }

func schFixed(step time.Duration, maxUpdates int, rec timing.Recovery) timing.Options {
	o := timing.DefaultOptions()
	o.Mode = timing.FixedMode
	o.FixedStep = step
	o.MaxFixedUpdates = maxUpdates
	o.Recovery = rec
	return o
}

func schStart(t testing.TB, o timing.Options) *timing.Scheduler {
	t.Helper()
	s, err := timing.NewScheduler(o)
	if err != nil {
		t.Fatalf("NewScheduler: %v", err)
	}
	s.Start(schEpoch)
	return s
}

func schAdvance(t testing.TB, s *timing.Scheduler, now timing.Instant) timing.Batch {
	t.Helper()
	b, err := s.Advance(now)
	if err != nil {
		t.Fatalf("Advance(%v): %v", now, err)
	}
	return b
}

type schWant struct {
	kind  timing.Kind
	delta time.Duration
}

func schDeltas(b timing.Batch) []schWant {
	var got []schWant
	for _, u := range b.Updates {
		got = append(got, schWant{u.Kind, u.Delta})
	}
	return got
}

func schEqual(a, b []schWant) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSeedExamples runs the worked examples of the simulation-timing
// contract with a manual clock.
func TestSeedExamples(t *testing.T) {
	f := func(d time.Duration) schWant { return schWant{timing.FixedUpdate, d} }
	c := func(d time.Duration) schWant { return schWant{timing.CatchUpUpdate, d} }
	catchUp := func(prefix int) timing.Options {
		o := schFixed(20*msec, 2, timing.VariableCatchUp)
		o.RecoveryPrefix = prefix
		o.RecoveryCap = 100 * msec
		return o
	}
	tests := []struct {
		name        string
		opts        timing.Options
		stall       time.Duration
		want        []schWant
		wantDropped time.Duration
		wantPending time.Duration
		wantNext    time.Duration
	}{
		{
			name:        "30ms step, two updates, 500ms stall, drop excess lag",
			opts:        schFixed(30*msec, 2, timing.DropExcessLag),
			stall:       500 * msec,
			want:        []schWant{f(30 * msec), f(30 * msec)},
			wantDropped: 420 * msec,
			wantPending: 20 * msec,
			wantNext:    510 * msec,
		},
		{
			name:        "20ms step, 500ms stall, 100ms cap, direct catch-up",
			opts:        catchUp(0),
			stall:       500 * msec,
			want:        []schWant{c(100 * msec)},
			wantDropped: 400 * msec,
			wantNext:    520 * msec,
		},
		{
			name:        "20ms step, 500ms stall, 100ms cap, two-step prefix",
			opts:        catchUp(2),
			stall:       500 * msec,
			want:        []schWant{f(20 * msec), f(20 * msec), c(100 * msec)},
			wantDropped: 360 * msec,
			wantNext:    520 * msec,
		},
		{
			name: "zero cap disables the limit",
			opts: func() timing.Options {
				o := catchUp(1)
				o.RecoveryCap = 0
				return o
			}(),
			stall:    510 * msec,
			want:     []schWant{f(20 * msec), c(490 * msec)},
			wantNext: 530 * msec,
		},
		{
			name:     "catch-up within the limit runs plain fixed steps",
			opts:     catchUp(2),
			stall:    45 * msec,
			want:     []schWant{f(20 * msec), f(20 * msec)},
			wantNext: 60 * msec,
			// 5 msec remains for the next deadline.
			wantPending: 5 * msec,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := schStart(t, tt.opts)
			b := schAdvance(t, s, schAt(tt.stall))
			if got := schDeltas(b); !schEqual(got, tt.want) {
				t.Errorf("updates = %v, want %v", got, tt.want)
			}
			if b.Dropped != tt.wantDropped {
				t.Errorf("batch dropped = %v, want %v", b.Dropped, tt.wantDropped)
			}
			last := b.Updates[len(b.Updates)-1]
			if !last.Final || last.Dropped != tt.wantDropped {
				t.Errorf("last update Final=%v Dropped=%v, want true and %v", last.Final, last.Dropped, tt.wantDropped)
			}
			for _, u := range b.Updates[:len(b.Updates)-1] {
				if u.Dropped != 0 || u.Final {
					t.Errorf("update %d carries Dropped=%v Final=%v, want only the last one to", u.Number, u.Dropped, u.Final)
				}
			}
			l := s.Ledger()
			if l.Pending() != tt.wantPending {
				t.Errorf("pending = %v, want %v", l.Pending(), tt.wantPending)
			}
			if l.Real != tt.stall || l.Simulated+l.Dropped()+l.Pending() != l.Real {
				t.Errorf("ledger %+v does not balance to %v", l, tt.stall)
			}
			if got := s.NextUpdateAt(); got != schAt(tt.wantNext) {
				t.Errorf("NextUpdateAt = %v, want %v", got, schAt(tt.wantNext))
			}
		})
	}
}

func TestCatchUpSpans(t *testing.T) {
	o := schFixed(20*msec, 2, timing.VariableCatchUp)
	o.RecoveryPrefix = 2
	s := schStart(t, o)
	b := schAdvance(t, s, schAt(500*msec))
	// 360 ms are dropped from the front, then two steps and the capped
	// catch-up that ends at the reading.
	want := [][2]timing.Instant{{schAt(360 * msec), schAt(380 * msec)}, {schAt(380 * msec), schAt(400 * msec)}, {schAt(400 * msec), schAt(500 * msec)}}
	if len(b.Updates) != len(want) {
		t.Fatalf("%d updates, want %d", len(b.Updates), len(want))
	}
	for i, u := range b.Updates {
		if got := [2]timing.Instant{u.Start, u.End}; got != want[i] {
			t.Errorf("update %d span = %v, want %v", i, got, want[i])
		}
	}
	if a := s.Alpha(); a != 0 {
		t.Errorf("alpha after a catch-up = %v, want 0", a)
	}
}

func TestZeroSchedulerUsesDefaults(t *testing.T) {
	var s timing.Scheduler
	s.Start(schEpoch)
	b := schAdvance(t, &s, schAt(20*msec))
	if len(b.Updates) != 1 || b.Updates[0].Kind != timing.VariableUpdate || b.Updates[0].Delta != 20*msec {
		t.Errorf("zero scheduler: %+v, want one 20ms variable update", b.Updates)
	}
}

func TestDropExcessLagSpans(t *testing.T) {
	s := schStart(t, schFixed(30*msec, 2, timing.DropExcessLag))
	b := schAdvance(t, s, schAt(500*msec))
	// The oldest time is dropped: the updates stand for the most recent
	// whole steps, the 20 msec remainder follows them.
	want := [][2]timing.Instant{{schAt(420 * msec), schAt(450 * msec)}, {schAt(450 * msec), schAt(480 * msec)}}
	for i, u := range b.Updates {
		if got := [2]timing.Instant{u.Start, u.End}; got != want[i] {
			t.Errorf("update %d span = %v, want %v", i, got, want[i])
		}
	}
	b = schAdvance(t, s, schAt(515*msec))
	if len(b.Updates) != 1 || b.Updates[0].Start != schAt(480*msec) || b.Updates[0].End != schAt(510*msec) {
		t.Errorf("next batch = %+v, want one update spanning 480..510 msec", b.Updates)
	}
}

// TestStallNeverRequestsEveryStep: a 500 msec stall at 20 msec is 25 steps
// due, and no configuration runs them all.
func TestStallNeverRequestsEveryStep(t *testing.T) {
	for _, rec := range []timing.Recovery{timing.DropExcessLag, timing.VariableCatchUp} {
		for limit := 1; limit <= 4; limit++ {
			for prefix := 0; prefix <= limit; prefix++ {
				o := schFixed(20*msec, limit, rec)
				o.RecoveryPrefix = prefix
				s := schStart(t, o)
				b := schAdvance(t, s, schAt(500*msec))
				max := limit
				if rec == timing.VariableCatchUp {
					max = prefix + 1
				}
				if len(b.Updates) > max || len(b.Updates) >= 25 {
					t.Errorf("%v limit %d prefix %d: %d updates, want at most %d", rec, limit, prefix, len(b.Updates), max)
				}
			}
		}
	}
}

func TestVariableMode(t *testing.T) {
	tests := []struct {
		name     string
		interval time.Duration
		readings []time.Duration
		want     []time.Duration // delta per reading, 0 = no update
	}{
		{"paced at 1/60 s", timing.DefaultInterval,
			[]time.Duration{10 * msec, 16 * msec, 17 * msec, 30 * msec, 40 * msec, 540 * msec},
			[]time.Duration{0, 0, 17 * msec, 0, 23 * msec, 500 * msec}},
		{"unpaced", 0,
			[]time.Duration{1 * msec, 1 * msec, 3 * msec, 100 * msec},
			[]time.Duration{1 * msec, 0, 2 * msec, 97 * msec}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := timing.DefaultOptions()
			o.Interval = tt.interval
			s := schStart(t, o)
			for i, r := range tt.readings {
				b := schAdvance(t, s, schAt(r))
				var got time.Duration
				if len(b.Updates) > 1 {
					t.Fatalf("reading %v: %d updates, want at most 1", r, len(b.Updates))
				}
				if len(b.Updates) == 1 {
					got = b.Updates[0].Delta
					if k := b.Updates[0].Kind; k != timing.VariableUpdate {
						t.Errorf("kind = %v, want variable", k)
					}
					if b.Updates[0].End != schAt(r) || b.Updates[0].Span() != got {
						t.Errorf("span %v..%v, want it to end at %v and match the delta", b.Updates[0].Start, b.Updates[0].End, schAt(r))
					}
				}
				if got != tt.want[i] {
					t.Errorf("reading %v: delta = %v, want %v", r, got, tt.want[i])
				}
				if a := s.Alpha(); a != 0 {
					t.Errorf("alpha = %v, want 0 in variable mode", a)
				}
			}
		})
	}
}

func TestVariableNextUpdateAt(t *testing.T) {
	s := schStart(t, timing.DefaultOptions())
	if got, want := s.NextUpdateAt(), schEpoch+timing.Instant(timing.DefaultInterval); got != want {
		t.Errorf("NextUpdateAt after Start = %v, want %v", got, want)
	}
	schAdvance(t, s, schAt(20*msec))
	if got, want := s.NextUpdateAt(), schAt(20*msec)+timing.Instant(timing.DefaultInterval); got != want {
		t.Errorf("NextUpdateAt = %v, want %v", got, want)
	}
}

func TestFixedNextUpdateAt(t *testing.T) {
	o := schFixed(0, 1, timing.DropExcessLag)
	o.Rate = timing.Hz(60)
	s := schStart(t, o)
	// 1/60 s is 16,666,666.67 ns: the first step is due at the next whole ns.
	for i, want := range []time.Duration{16_666_667, 33_333_334, 50_000_000, 66_666_667} {
		if got := s.NextUpdateAt(); got != schAt(want) {
			t.Errorf("step %d due at %v, want %v", i, got, schAt(want))
		}
		b := schAdvance(t, s, s.NextUpdateAt())
		if len(b.Updates) != 1 {
			t.Fatalf("at NextUpdateAt: %d updates, want 1", len(b.Updates))
		}
		if b2 := schAdvance(t, s, s.NextUpdateAt()-1); len(b2.Updates) != 0 {
			t.Fatalf("1 ns before NextUpdateAt: %d updates, want 0", len(b2.Updates))
		}
	}
}

func TestClockRegressionChangesNothing(t *testing.T) {
	for _, o := range []timing.Options{timing.DefaultOptions(), schFixed(10*msec, 2, timing.DropExcessLag), repayOpts()} {
		t.Run(o.Mode.String()+"/"+o.Recovery.String(), func(t *testing.T) {
			s := schStart(t, o)
			schAdvance(t, s, schAt(35*msec))
			before := s.Stats()
			_, err := s.Advance(schAt(34 * msec))
			if !errors.Is(err, timing.ErrClockRegression) {
				t.Fatalf("err = %v, want ErrClockRegression", err)
			}
			if after := s.Stats(); after != before {
				t.Errorf("stats changed by a rejected reading:\n got %+v\nwant %+v", after, before)
			}
		})
	}
}

func TestAdvanceBeforeStart(t *testing.T) {
	s, err := timing.NewScheduler(timing.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Advance(schEpoch); !errors.Is(err, timing.ErrNotStarted) {
		t.Errorf("err = %v, want ErrNotStarted", err)
	}
}

func TestValidation(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*timing.Options)
		wants []string // substrings, one error each
	}{
		{"defaults are valid", func(*timing.Options) {}, nil},
		{"negative interval", func(o *timing.Options) { o.Interval = -1 }, []string{"Options.Interval -1ns", "0 (unpaced) to 1h0m0s"}},
		{"negative cap", func(o *timing.Options) { o.RecoveryCap = -msec }, []string{"Options.RecoveryCap -1ms", "0 (no cap) or more"}},
		{"zero step", func(o *timing.Options) { o.FixedStep = 0 }, []string{"Options.FixedStep 0s", "1ns to 1h0m0s"}},
		{"negative step", func(o *timing.Options) { o.FixedStep = -msec }, []string{"Options.FixedStep -1ms"}},
		{"zero update limit", func(o *timing.Options) { o.MaxFixedUpdates = 0; o.RecoveryPrefix = 0 }, []string{"Options.MaxFixedUpdates 0", "1 to 64"}},
		{"prefix above the limit", func(o *timing.Options) { o.MaxFixedUpdates = 2; o.RecoveryPrefix = 3 }, []string{"Options.RecoveryPrefix 3", "0 to Options.MaxFixedUpdates (2)"}},
		{"rate numerator", func(o *timing.Options) { o.Rate = timing.Rate{Num: 0, Den: 1} }, []string{"Options.Rate.Num 0", "1 to 1e9"}},
		{"rate denominator", func(o *timing.Options) { o.Rate = timing.Rate{Num: 60, Den: -1} }, []string{"Options.Rate.Den -1", "1 to 1e9"}},
		{"rate too fast", func(o *timing.Options) { o.Rate = timing.Hz(2e9) }, []string{"Options.Rate.Num 2000000000"}},
		{"rate too slow", func(o *timing.Options) { o.Rate = timing.Rate{Num: 1, Den: 7200} }, []string{"at least one tick per hour"}},
		{"rate replaces a bad step", func(o *timing.Options) { o.FixedStep = 0; o.Rate = timing.Hz(60) }, nil},
		{"unknown mode", func(o *timing.Options) { o.Mode = 9 }, []string{"Options.Mode 9"}},
		{"unknown recovery", func(o *timing.Options) { o.Recovery = 9 }, []string{"Options.Recovery 9"}},
		{"every problem at once", func(o *timing.Options) {
			o.Interval, o.RecoveryCap, o.FixedStep, o.MaxFixedUpdates, o.RecoveryPrefix = -1, -1, 0, 0, 1
		}, []string{"Options.Interval", "Options.RecoveryCap", "Options.FixedStep", "Options.MaxFixedUpdates", "Options.RecoveryPrefix"}},
		{"cutoff against the step only under repay-debt", func(o *timing.Options) { o.FixedStep = 3 * time.Second }, nil},
		{"debt ranges under every policy", func(o *timing.Options) { o.Debt = timing.DebtOptions{} }, []string{"DebtOptions.MaxSpeedUp 0",
			"DebtOptions.MaxSlowDown 0", "DebtOptions.Gain 0", "DebtOptions.CosmeticEvery 0", "DebtOptions.MaxStepScale 0", "DebtOptions.Cutoff 0s"}},
		{"debt ranges", func(o *timing.Options) {
			o.Recovery = timing.RepayDebt
			o.Debt.MaxSpeedUp, o.Debt.MaxSlowDown, o.Debt.Gain = 0.5, 1.5, 0
			o.Debt.CosmeticEvery, o.Debt.MaxStepScale = 1, 1 // with their mechanisms off
			o.Debt.Cutoff, o.Debt.SuspendAfter = msec, -1
		}, []string{"DebtOptions.MaxSpeedUp 0.5", "DebtOptions.MaxSlowDown 1.5", "DebtOptions.Gain 0", "DebtOptions.CosmeticEvery 1",
			"DebtOptions.MaxStepScale 1", "DebtOptions.Cutoff 1ms", "DebtOptions.SuspendAfter -1ns"}},
		{"cutoff below one exact step", func(o *timing.Options) {
			o.Recovery, o.Rate, o.Debt.Cutoff = timing.RepayDebt, timing.Hz(3), 333_333_333
		}, []string{"DebtOptions.Cutoff 333.333333ms", "one step (333.333334ms)"}},
		{"cutoff of one exact step", func(o *timing.Options) {
			o.Recovery, o.Rate, o.Debt.Cutoff = timing.RepayDebt, timing.Hz(3), 333_333_334
		}, nil},
		{"variable step refused with rollback", func(o *timing.Options) {
			o.Recovery, o.Rollback, o.Debt.VariableStep = timing.RepayDebt, true, true
		}, []string{"DebtOptions.VariableStep is refused because Options.Rollback is set"}},
		{"variable step allowed without rollback", func(o *timing.Options) {
			o.Recovery, o.Debt.VariableStep = timing.RepayDebt, true
		}, nil},
		{"resync without hook", func(o *timing.Options) {
			o.Debt.PastCutoff = timing.Resync
		}, []string{"DebtOptions.PastCutoff resync needs DebtOptions.Hook"}},
		{"shared slowdown without hook", func(o *timing.Options) {
			o.Recovery, o.Debt.PastCutoff = timing.RepayDebt, timing.SharedSlowdown
		}, []string{"DebtOptions.PastCutoff shared-slowdown needs DebtOptions.Hook"}},
		{"resync with hook", func(o *timing.Options) {
			o.Recovery, o.Debt.PastCutoff = timing.RepayDebt, timing.Resync
			o.Debt.Hook = timing.DebtHookFunc(func(timing.PastCutoff, time.Duration) time.Duration { return 0 })
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := timing.DefaultOptions()
			tt.edit(&o)
			s, err := timing.NewScheduler(o)
			if len(tt.wants) == 0 {
				if err != nil || s == nil {
					t.Fatalf("NewScheduler = %v, %v; want a scheduler", s, err)
				}
				return
			}
			if err == nil || s != nil {
				t.Fatalf("NewScheduler = %v, %v; want an error", s, err)
			}
			msg := err.Error()
			for _, w := range tt.wants {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not mention %q", msg, w)
				}
			}
			for _, line := range strings.Split(msg, "\n") {
				if !strings.HasPrefix(line, "timing: ") {
					t.Errorf("error line %q lacks the package prefix", line)
				}
			}
		})
	}
}

func TestSetOptionsRejectsAndKeeps(t *testing.T) {
	s := schStart(t, schFixed(10*msec, 1, timing.DropExcessLag))
	bad := timing.DefaultOptions()
	bad.FixedStep = 0
	if err := s.SetOptions(bad); err == nil {
		t.Fatal("SetOptions accepted a zero step")
	}
	if got := s.Options().FixedStep; got != 10*msec {
		t.Errorf("step after a rejected SetOptions = %v, want 10ms", got)
	}
}

func TestSetOptionsLive(t *testing.T) {
	s := schStart(t, schFixed(10*msec, 1, timing.DropExcessLag))
	schAdvance(t, s, schAt(25*msec)) // one step, 10 msec dropped, 5 msec pending
	o := schFixed(10*msec, 4, timing.DropExcessLag)
	o.Rate = timing.Hz(60)
	if err := s.SetOptions(o); err != nil {
		t.Fatal(err)
	}
	b := schAdvance(t, s, schAt(60*msec))
	if len(b.Updates) != 2 {
		t.Errorf("after switching to 60 Hz: %d updates, want 2 (40 msec pending)", len(b.Updates))
	}
	l := s.Ledger()
	if l.Real != 60*msec || l.Simulated+l.Dropped()+l.Pending() != l.Real {
		t.Errorf("ledger %+v does not balance", l)
	}
	o.Mode = timing.VariableMode
	o.Interval = 0
	if err := s.SetOptions(o); err != nil {
		t.Fatal(err)
	}
	b = schAdvance(t, s, schAt(70*msec))
	if len(b.Updates) != 1 || b.Updates[0].Kind != timing.VariableUpdate {
		t.Fatalf("after switching to variable: %+v, want one variable update", b.Updates)
	}
	if l := s.Ledger(); l.Pending() != 0 || l.Simulated+l.Dropped() != 70*msec {
		t.Errorf("ledger %+v, want everything simulated or dropped", l)
	}
}

// TestRate60Hz: one simulated second at 60 Hz is exactly 60 ticks and
// exactly one second of deltas, however the frames split it.
func TestRate60Hz(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 20 {
		o := schFixed(0, timing.MaxBatch, timing.DropExcessLag)
		o.Rate = timing.Hz(60)
		s := schStart(t, o)
		var ticks int
		var sim time.Duration
		now := time.Duration(0)
		for now < time.Second {
			now = min(time.Second, now+time.Duration(rng.Int64N(int64(40*msec))))
			b := schAdvance(t, s, schAt(now))
			ticks += len(b.Updates)
			for _, u := range b.Updates {
				sim += u.Delta
				if u.Delta != 16_666_666 && u.Delta != 16_666_667 {
					t.Fatalf("delta %v, want 1/60 s rounded either way", u.Delta)
				}
			}
		}
		if ticks != 60 || sim != time.Second {
			t.Errorf("trial %d: %d ticks, %v simulated; want 60 ticks and 1s", trial, ticks, sim)
		}
		if l := s.Ledger(); l.Pending() != 0 || l.Dropped() != 0 {
			t.Errorf("trial %d: ledger %+v, want nothing pending or dropped", trial, l)
		}
	}
}

func TestRate60HzOneDay(t *testing.T) {
	o := schFixed(0, timing.MaxBatch, timing.DropExcessLag)
	o.Rate = timing.Hz(60)
	s := schStart(t, o)
	var ticks int
	// One Advance per simulated second: 64 updates fit one batch.
	for sec := 1; sec <= 24*3600; sec++ {
		b := schAdvance(t, s, schAt(time.Duration(sec)*time.Second))
		ticks += len(b.Updates)
	}
	if ticks != 5_184_000 {
		t.Errorf("ticks in 24 h = %d, want 5,184,000", ticks)
	}
	if l := s.Ledger(); l.Simulated != 24*time.Hour || l.Pending() != 0 {
		t.Errorf("ledger %+v, want 24h simulated and nothing pending", l)
	}
}

func TestAlpha(t *testing.T) {
	o := schFixed(20*msec, 1, timing.DropExcessLag)
	s := schStart(t, o)
	for _, tt := range []struct {
		now  time.Duration
		want float64
	}{{5 * msec, 0.25}, {20 * msec, 0}, {35 * msec, 0.75}, {39*msec + 999_999, 0.99999995}} {
		schAdvance(t, s, schAt(tt.now))
		if got := s.Alpha(); got != tt.want || got < 0 || got >= 1 {
			t.Errorf("at %v alpha = %v, want %v", tt.now, got, tt.want)
		}
	}
}

func TestHugeGapDoesNotOverflow(t *testing.T) {
	o := schFixed(0, 1, timing.DropExcessLag)
	// A prime near 1e9 ticks per second keeps the largest phase units per ns.
	o.Rate = timing.Rate{Num: 999_999_937, Den: 1}
	s, err := timing.NewScheduler(o)
	if err != nil {
		t.Fatal(err)
	}
	s.Start(0)
	b, err := s.Advance(timing.MaxInstant)
	if err != nil {
		t.Fatal(err)
	}
	l := s.Ledger()
	if len(b.Updates) != 1 || l.Real != time.Duration(timing.MaxInstant) || l.Simulated+l.Dropped()+l.Pending() != l.Real {
		t.Errorf("%d updates, ledger %+v; want 1 update and a balanced ledger", len(b.Updates), l)
	}
}

// TestValidateMarksRelations: a value wrong only against another field is
// marked Relative and names that field, so a loader that reads one key at
// a time can wait for the rest; a value out of its own range is not.
func TestValidateMarksRelations(t *testing.T) {
	tests := []struct {
		name     string
		edit     func(*timing.Options)
		field    string
		relative bool
		names    []string
	}{
		{"prefix above the limit", func(o *timing.Options) { o.MaxFixedUpdates, o.RecoveryPrefix = 2, 3 }, "Options.RecoveryPrefix", true, []string{"Options.MaxFixedUpdates"}},
		{"prefix above any limit", func(o *timing.Options) { o.RecoveryPrefix = timing.MaxBatch + 1 }, "Options.RecoveryPrefix", false, []string{"Options.MaxFixedUpdates"}},
		{"cutoff below the step", func(o *timing.Options) { o.Recovery, o.FixedStep, o.Debt.Cutoff = timing.RepayDebt, 100*msec, 50*msec }, "DebtOptions.Cutoff", true, []string{"Options.FixedStep", "Options.Rate"}},
		{"cutoff of zero", func(o *timing.Options) { o.Debt.Cutoff = 0 }, "DebtOptions.Cutoff", false, []string{"Options.FixedStep", "Options.Rate"}},
		{"variable step with rollback", func(o *timing.Options) { o.Recovery, o.Rollback, o.Debt.VariableStep = timing.RepayDebt, true, true }, "DebtOptions.VariableStep", true, []string{"Options.Rollback"}},
		{"resync without hook", func(o *timing.Options) { o.Debt.PastCutoff = timing.Resync }, "DebtOptions.PastCutoff", true, []string{"DebtOptions.Hook"}},
		{"gain", func(o *timing.Options) { o.Debt.Gain = 0 }, "DebtOptions.Gain", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := timing.DefaultOptions()
			tt.edit(&o)
			var fe *option.Error
			if !errors.As(o.Validate(), &fe) {
				t.Fatalf("Validate = %v, want an *option.Error", o.Validate())
			}
			if fe.Field != tt.field || fe.Relative != tt.relative || !slices.Equal(fe.Names, tt.names) {
				t.Errorf("got %s relative=%v names=%v, want %s relative=%v names=%v", fe.Field, fe.Relative, fe.Names, tt.field, tt.relative, tt.names)
			}
		})
	}
}
