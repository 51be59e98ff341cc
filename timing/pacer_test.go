package timing_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// wakeRule says where one WaitUntil call leaves the synthetic clock.
type wakeRule struct {
	offset time.Duration // wake at the asked time plus offset
	stay   bool          // return without moving the clock
	to     timing.Instant
	abs    bool // wake at to
	err    error
}

// scriptClock is a synthetic clock that is its own only waiter. Each
// WaitUntil consumes one rule; with no rule left it wakes exactly at the
// asked time.
type scriptClock struct {
	now   timing.Instant
	rules []wakeRule
	asked []timing.Instant
}

func (c *scriptClock) Now() timing.Instant      { return c.now }
func (c *scriptClock) NewWaiter() timing.Waiter { return c }
func (c *scriptClock) Wake()                    {}
func (c *scriptClock) Release()                 {}

func (c *scriptClock) WaitUntil(t timing.Instant) error {
	c.asked = append(c.asked, t)
	r := wakeRule{}
	if len(c.rules) > 0 {
		r, c.rules = c.rules[0], c.rules[1:]
	}
	switch {
	case r.abs:
		c.now = r.to
	case r.stay:
	default:
		if w := t + timing.Instant(r.offset); w > c.now {
			c.now = w
		}
	}
	return r.err
}

const ms = time.Millisecond

func at(d time.Duration) timing.Instant { return timing.Instant(d) }

var testPolicy = timing.PacingPolicy{Interval: 10 * ms, MaxLateness: 40 * ms}

func newTestPacer(t *testing.T, c *scriptClock) *timing.FramePacer {
	t.Helper()
	p, err := timing.NewFramePacer(testPolicy, c, c)
	if err != nil {
		t.Fatalf("NewFramePacer: %v", err)
	}
	return p
}

func earlyWakes(n int, by time.Duration) []wakeRule {
	r := make([]wakeRule, n)
	for i := range r {
		r[i] = wakeRule{offset: -by}
	}
	return r
}

var errWaitBroken = errors.New("wait broken")

func TestPaceOutcomes(t *testing.T) {
	tests := []struct {
		name string
		// prep runs after a baseline at 1000 ms (unless noBaseline) and
		// before the call under test; it moves the clock and sets rules.
		noBaseline bool
		prep       func(c *scriptClock)
		deadline   timing.Instant // zero: Pace
		want       timing.PaceResult
		wantErr    error
	}{
		{
			name:       "first call is a baseline",
			noBaseline: true,
			want:       timing.PaceResult{Outcome: timing.PaceBaseline, Target: at(1000 * ms), Wake: at(1000 * ms), Next: at(1010 * ms)},
		},
		{
			name: "waits to the target",
			prep: func(c *scriptClock) { c.now = at(1003 * ms) },
			want: timing.PaceResult{Outcome: timing.PaceWaited, Target: at(1010 * ms), Wake: at(1010 * ms), Waits: 1, Next: at(1020 * ms)},
		},
		{
			name: "oversleep shifts this frame only",
			prep: func(c *scriptClock) { c.rules = []wakeRule{{offset: 2 * ms}} },
			want: timing.PaceResult{Outcome: timing.PaceWaited, Target: at(1010 * ms), Wake: at(1012 * ms), Lateness: 2 * ms, Waits: 1, Next: at(1020 * ms)},
		},
		{
			name: "oversleep past the next target skips it",
			prep: func(c *scriptClock) { c.rules = []wakeRule{{offset: 13 * ms}} },
			want: timing.PaceResult{Outcome: timing.PaceWaited, Target: at(1010 * ms), Wake: at(1023 * ms), Lateness: 13 * ms, Skipped: 1, Waits: 1, Next: at(1030 * ms)},
		},
		{
			name: "exactly on the target needs no wait",
			prep: func(c *scriptClock) { c.now = at(1010 * ms) },
			want: timing.PaceResult{Outcome: timing.PaceWaited, Target: at(1010 * ms), Wake: at(1010 * ms), Next: at(1020 * ms)},
		},
		{
			name: "late frame starts at once",
			prep: func(c *scriptClock) { c.now = at(1015 * ms) },
			want: timing.PaceResult{Outcome: timing.PaceLate, Target: at(1010 * ms), Wake: at(1015 * ms), Lateness: 5 * ms, Next: at(1020 * ms)},
		},
		{
			name: "late frame skips missed targets",
			prep: func(c *scriptClock) { c.now = at(1035 * ms) },
			want: timing.PaceResult{Outcome: timing.PaceLate, Target: at(1010 * ms), Wake: at(1035 * ms), Lateness: 25 * ms, Skipped: 2, Next: at(1040 * ms)},
		},
		{
			name: "lateness at the bound keeps the phase",
			prep: func(c *scriptClock) { c.now = at(1050 * ms) },
			want: timing.PaceResult{Outcome: timing.PaceLate, Target: at(1010 * ms), Wake: at(1050 * ms), Lateness: 40 * ms, Skipped: 4, Next: at(1060 * ms)},
		},
		{
			name: "beyond the bound re-anchors",
			prep: func(c *scriptClock) { c.now = at(1055 * ms) },
			want: timing.PaceResult{Outcome: timing.PaceRescheduled, Target: at(1010 * ms), Wake: at(1055 * ms), Lateness: 45 * ms, Next: at(1065 * ms)},
		},
		{
			name: "oversleep beyond the bound re-anchors",
			prep: func(c *scriptClock) { c.rules = []wakeRule{{offset: 41 * ms}} },
			want: timing.PaceResult{Outcome: timing.PaceRescheduled, Target: at(1010 * ms), Wake: at(1051 * ms), Lateness: 41 * ms, Waits: 1, Next: at(1061 * ms)},
		},
		{
			name: "failed wait starts at once and keeps the phase",
			prep: func(c *scriptClock) {
				c.now = at(1002 * ms)
				c.rules = []wakeRule{{abs: true, to: at(1004 * ms), err: errWaitBroken}}
			},
			want:    timing.PaceResult{Outcome: timing.PaceWaitFailed, Target: at(1010 * ms), Wake: at(1004 * ms), Lateness: -6 * ms, Waits: 1, Next: at(1020 * ms)},
			wantErr: errWaitBroken,
		},
		{
			name: "eight early wakes start the frame",
			prep: func(c *scriptClock) { c.rules = earlyWakes(8, ms) },
			want: timing.PaceResult{Outcome: timing.PaceWaitLimit, Target: at(1010 * ms), Wake: at(1009 * ms), Lateness: -ms, Waits: 8, EarlyWakes: 8, Next: at(1020 * ms)},
		},
		{
			name: "seven early wakes then on time",
			prep: func(c *scriptClock) { c.rules = earlyWakes(7, ms) },
			want: timing.PaceResult{Outcome: timing.PaceWaited, Target: at(1010 * ms), Wake: at(1010 * ms), Waits: 8, EarlyWakes: 7, Next: at(1020 * ms)},
		},
		{
			name: "a wait that never moves the clock is not a spin",
			prep: func(c *scriptClock) {
				c.rules = []wakeRule{{stay: true}, {stay: true}, {stay: true}, {stay: true}, {stay: true}, {stay: true}, {stay: true}, {stay: true}, {stay: true}}
			},
			want: timing.PaceResult{Outcome: timing.PaceWaitLimit, Target: at(1010 * ms), Wake: at(1000 * ms), Lateness: -10 * ms, Waits: 8, EarlyWakes: 8, Next: at(1020 * ms)},
		},
		{
			name: "reading below the previous re-anchors",
			prep: func(c *scriptClock) { c.now = at(990 * ms) },
			want: timing.PaceResult{Outcome: timing.PaceClockRegression, Target: at(990 * ms), Wake: at(990 * ms), Next: at(1000 * ms)},
		},
		{
			name: "reading below the previous during a wait re-anchors",
			prep: func(c *scriptClock) {
				c.now = at(1002 * ms)
				c.rules = []wakeRule{{abs: true, to: at(1001 * ms)}}
			},
			want: timing.PaceResult{Outcome: timing.PaceClockRegression, Target: at(1001 * ms), Wake: at(1001 * ms), Waits: 1, Next: at(1011 * ms)},
		},
		{
			name:     "an earlier deadline returns without a frame",
			prep:     func(c *scriptClock) { c.now = at(1001 * ms) },
			deadline: at(1004 * ms),
			want:     timing.PaceResult{Outcome: timing.PaceDeadline, Target: at(1010 * ms), Wake: at(1004 * ms), Lateness: -6 * ms, Waits: 1, Next: at(1010 * ms)},
		},
		{
			name:     "a past deadline returns at once",
			prep:     func(c *scriptClock) { c.now = at(1003 * ms) },
			deadline: at(999 * ms),
			want:     timing.PaceResult{Outcome: timing.PaceDeadline, Target: at(1010 * ms), Wake: at(1003 * ms), Lateness: -7 * ms, Next: at(1010 * ms)},
		},
		{
			name:     "a later deadline does not delay the frame",
			deadline: at(1500 * ms),
			want:     timing.PaceResult{Outcome: timing.PaceWaited, Target: at(1010 * ms), Wake: at(1010 * ms), Waits: 1, Next: at(1020 * ms)},
		},
		{
			name: "an interrupted wait keeps the target",
			prep: func(c *scriptClock) {
				c.rules = []wakeRule{{abs: true, to: at(1005 * ms), err: timing.ErrWaitInterrupted}}
			},
			want:    timing.PaceResult{Outcome: timing.PaceInterrupted, Target: at(1010 * ms), Wake: at(1005 * ms), Lateness: -5 * ms, Waits: 1, Next: at(1010 * ms)},
			wantErr: timing.ErrWaitInterrupted,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &scriptClock{now: at(1000 * ms)}
			p := newTestPacer(t, c)
			if !tt.noBaseline {
				if r := p.Pace(); r.Outcome != timing.PaceBaseline {
					t.Fatalf("first call: got %v, want baseline", r.Outcome)
				}
			}
			if tt.prep != nil {
				tt.prep(c)
			}
			var got timing.PaceResult
			if tt.deadline != 0 {
				got = p.PaceUntil(tt.deadline)
			} else {
				got = p.Pace()
			}
			if !errors.Is(got.Err, tt.wantErr) {
				t.Errorf("Err = %v, want %v", got.Err, tt.wantErr)
			}
			got.Err = nil
			tt.want.Interval = testPolicy.Interval
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if next, ok := p.Target(); !ok || next != tt.want.Next {
				t.Errorf("Target() = %v, %v; want %v, true", next, ok, tt.want.Next)
			}
		})
	}
}

func TestPaceOverflow(t *testing.T) {
	c := &scriptClock{now: timing.MaxInstant - 5}
	p := newTestPacer(t, c)
	r := p.Pace()
	if r.Outcome != timing.PaceOverflow || r.Wake != c.now {
		t.Fatalf("got %v at %v, want overflow at %v", r.Outcome, r.Wake, c.now)
	}
	if _, ok := p.Target(); ok {
		t.Errorf("schedule kept after overflow")
	}
	c.now = at(time.Second)
	if r := p.Pace(); r.Outcome != timing.PaceBaseline {
		t.Errorf("after overflow got %v, want baseline", r.Outcome)
	}

	// The next target of a late frame overflows.
	c.now = timing.MaxInstant - at(25*ms)
	p.Reset()
	p.Pace()
	c.now = timing.MaxInstant - at(5*ms)
	if r := p.Pace(); r.Outcome != timing.PaceOverflow || r.Lateness != 10*ms || r.Next != r.Wake {
		t.Errorf("late frame near the end of time: %+v, want overflow 10ms late", r)
	}
	if _, ok := p.Target(); ok {
		t.Errorf("schedule kept after overflow")
	}
}

// TestFailingWaitsDoNotRunAhead: a wait that fails at once while the clock
// stands still starts every frame early; the schedule must not run away
// from the clock, so once the target is more than two intervals ahead the
// pacer re-anchors.
func TestFailingWaitsDoNotRunAhead(t *testing.T) {
	c := &scriptClock{now: at(time.Second)}
	p := newTestPacer(t, c)
	p.Pace()
	fail := []wakeRule{{stay: true, err: errWaitBroken}}
	var got []timing.PaceOutcome
	for range 4 {
		c.rules = fail
		got = append(got, p.Pace().Outcome)
	}
	want := []timing.PaceOutcome{timing.PaceWaitFailed, timing.PaceWaitFailed, timing.PaceClockRegression, timing.PaceWaitFailed}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("outcomes %v, want %v", got, want)
		}
	}
	if next, _ := p.Target(); next-c.now > at(2*testPolicy.Interval) {
		t.Errorf("target %v is more than two intervals after the clock %v", next, c.now)
	}
}

// TestTargetsFollowTargets drives many frames with uneven work and wake
// errors and checks every frame aimed at anchor + k*interval.
func TestTargetsFollowTargets(t *testing.T) {
	c := &scriptClock{now: at(time.Second)}
	p := newTestPacer(t, c)
	anchor := p.Pace().Next - at(testPolicy.Interval)
	work := []time.Duration{1 * ms, 7 * ms, 3 * ms, 9 * ms, 0}
	over := []time.Duration{0, 3 * ms, 1 * ms, 9 * ms, 2 * ms, 0, 5 * ms}
	for i := range 200 {
		c.now += at(work[i%len(work)])
		c.rules = []wakeRule{{offset: over[i%len(over)]}}
		r := p.Pace()
		want := anchor + at(time.Duration(i+1)*testPolicy.Interval)
		if r.Target != want {
			t.Fatalf("frame %d: target %v, want %v (%+v)", i, r.Target, want, r)
		}
		if r.Outcome != timing.PaceWaited && r.Outcome != timing.PaceLate {
			t.Fatalf("frame %d: outcome %v", i, r.Outcome)
		}
	}
}

// TestNoBurstAfterStall checks that after a stall within the lateness bound
// the next frame waits for a target after the late frame instead of
// starting back to back.
func TestNoBurstAfterStall(t *testing.T) {
	for _, stall := range []time.Duration{15 * ms, 38 * ms, 45 * ms, 3 * time.Second} {
		c := &scriptClock{now: at(time.Second)}
		p := newTestPacer(t, c)
		p.Pace()
		c.now += at(stall)
		late := p.Pace()
		if late.Outcome != timing.PaceLate && late.Outcome != timing.PaceRescheduled {
			t.Fatalf("stall %v: got %v, want late or rescheduled", stall, late.Outcome)
		}
		for i := range 5 {
			before := c.now
			r := p.Pace()
			if r.Outcome != timing.PaceWaited || r.Waits != 1 {
				t.Fatalf("stall %v, frame %d after: %v with %d waits, want one wait", stall, i, r.Outcome, r.Waits)
			}
			if gap := r.Wake - before; gap <= 0 {
				t.Fatalf("stall %v, frame %d after: started %v after the previous frame", stall, i, time.Duration(gap))
			}
		}
	}
}

func TestRegressionDuringWaitThenRecovers(t *testing.T) {
	c := &scriptClock{now: at(time.Second)}
	p := newTestPacer(t, c)
	p.Pace()
	c.now = at(500 * ms)
	if r := p.Pace(); r.Outcome != timing.PaceClockRegression {
		t.Fatalf("got %v, want clock regression", r.Outcome)
	}
	r := p.Pace()
	if r.Outcome != timing.PaceWaited || r.Target != at(510*ms) {
		t.Fatalf("after regression got %v aimed at %v, want waited at 510ms", r.Outcome, r.Target)
	}
}

func TestResetAndSetPolicy(t *testing.T) {
	c := &scriptClock{now: at(time.Second)}
	p := newTestPacer(t, c)
	p.Pace()
	p.Pace()
	p.Reset()
	if _, ok := p.Target(); ok {
		t.Error("Target after Reset reports a schedule")
	}
	if r := p.Pace(); r.Outcome != timing.PaceBaseline {
		t.Errorf("after Reset got %v, want baseline", r.Outcome)
	}
	hidden := timing.PacingForRate(10)
	if err := p.SetPolicy(hidden); err != nil {
		t.Fatalf("SetPolicy: %v", err)
	}
	if r := p.Pace(); r.Outcome != timing.PaceBaseline || r.Next-r.Wake != at(100*ms) {
		t.Errorf("after SetPolicy got %v next in %v, want baseline next in 100ms", r.Outcome, time.Duration(r.Next-r.Wake))
	}
	if err := p.SetPolicy(timing.PacingPolicy{}); err == nil {
		t.Error("SetPolicy accepted a zero interval")
	}
	if got := p.Policy(); got != hidden {
		t.Errorf("rejected policy changed the pacer: %+v", got)
	}
}

func TestPacingPolicyValidate(t *testing.T) {
	tests := []struct {
		name   string
		p      timing.PacingPolicy
		errHas []string
	}{
		{"60 Hz", timing.PacingForRate(60), nil},
		{"bounds", timing.PacingPolicy{Interval: time.Nanosecond, MaxLateness: 0}, nil},
		{"upper bounds", timing.PacingPolicy{Interval: time.Second, MaxLateness: time.Minute}, nil},
		{"zero interval", timing.PacingPolicy{}, []string{"Interval 0s", "[1ns, 1s]"}},
		{"long interval", timing.PacingPolicy{Interval: 2 * time.Second}, []string{"Interval 2s"}},
		{"both wrong", timing.PacingPolicy{Interval: -1, MaxLateness: -1}, []string{"Interval -1ns", "MaxLateness -1ns", "[0s, 1m0s]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.p.Validate()
			if (err == nil) != (tt.errHas == nil) {
				t.Fatalf("Validate() = %v, want error containing %q", err, tt.errHas)
			}
			for _, s := range tt.errHas {
				if !strings.Contains(err.Error(), s) || !strings.HasPrefix(err.Error(), "timing: ") {
					t.Errorf("error %q lacks %q or the package prefix", err, s)
				}
			}
		})
	}
	if _, err := timing.NewFramePacer(timing.PacingPolicy{}, nil, nil); err == nil || !strings.Contains(err.Error(), "clock is nil") || !strings.Contains(err.Error(), "waiter is nil") || !strings.Contains(err.Error(), "Interval") {
		t.Errorf("NewFramePacer(zero, nil, nil) = %v, want all three problems", err)
	}
}

func TestPacingForRate(t *testing.T) {
	tests := []struct {
		hz   int
		want time.Duration
	}{
		{60, 16_666_667 * time.Nanosecond},
		{10, 100 * ms},
		{1, time.Second},
		{1000, ms},
		{0, 0},
		{-5, 0},
	}
	for _, tt := range tests {
		got := timing.PacingForRate(tt.hz)
		if got.Interval != tt.want || got.MaxLateness != 4*tt.want {
			t.Errorf("PacingForRate(%d) = %+v, want interval %v and lateness %v", tt.hz, got, tt.want, 4*tt.want)
		}
	}
}

func TestPaceOutcomeString(t *testing.T) {
	if got := timing.PaceWaitLimit.String(); got != "wait_limit" {
		t.Errorf("got %q, want wait_limit", got)
	}
	if got := timing.PaceOutcome(200).String(); got != "PaceOutcome(200)" {
		t.Errorf("got %q", got)
	}
	for o, want := range map[timing.PaceOutcome]bool{
		timing.PaceNone: false, timing.PaceBaseline: true, timing.PaceWaited: true, timing.PaceLate: true,
		timing.PaceRescheduled: true, timing.PaceWaitFailed: true, timing.PaceWaitLimit: true,
		timing.PaceClockRegression: true, timing.PaceOverflow: true, timing.PaceDeadline: false,
		timing.PaceInterrupted: false, timing.PaceOutcome(200): false,
	} {
		if got := o.Started(); got != want {
			t.Errorf("%v.Started() = %v, want %v", o, got, want)
		}
	}
}

// A runtime waits for whichever comes first: its own deadline (an input
// poll, maintenance) or the frame target.
func ExampleFramePacer_PaceUntil() {
	clock := &fixedClock{}
	pacer, _ := timing.NewFramePacer(timing.PacingForRate(60), clock, clock)
	pacer.Pace() // baseline at 0
	poll := timing.Instant(0)
	for range 6 {
		poll += timing.Instant(5 * time.Millisecond)
		r := pacer.PaceUntil(poll)
		if r.Outcome == timing.PaceDeadline {
			fmt.Printf("poll input at %v\n", time.Duration(r.Wake))
			continue
		}
		fmt.Printf("frame at %v (%s)\n", time.Duration(r.Wake), r.Outcome)
		poll = r.Wake
	}
	// Output:
	// poll input at 5.3ms
	// poll input at 10.3ms
	// poll input at 15.3ms
	// frame at 16.966667ms (waited)
	// poll input at 22.266667ms
	// poll input at 27.266667ms
}

// fixedClock is the smallest clock with its waiter: a counter the wait
// moves.
type fixedClock struct{ now timing.Instant }

func (c *fixedClock) Now() timing.Instant      { return c.now }
func (c *fixedClock) NewWaiter() timing.Waiter { return c }
func (c *fixedClock) Wake()                    {}
func (c *fixedClock) Release()                 {}
func (c *fixedClock) WaitUntil(t timing.Instant) error {
	c.now = t + timing.Instant(300*time.Microsecond) // every wake is 0.3 ms late
	return nil
}

func ExampleFramePacer() {
	clock := &fixedClock{}
	pacer, err := timing.NewFramePacer(timing.PacingForRate(100), clock, clock)
	if err != nil {
		panic(err)
	}
	for frame := range 4 {
		r := pacer.Pace()
		fmt.Printf("frame %d: %-8s target %-4v late %-6v skipped %d\n",
			frame, r.Outcome, time.Duration(r.Target), r.Lateness, r.Skipped)
		clock.now += timing.Instant(4 * time.Millisecond) // the frame's work
		if frame == 1 {
			clock.now += timing.Instant(20 * time.Millisecond) // a stall
		}
	}
	// Output:
	// frame 0: baseline target 0s   late 0s     skipped 0
	// frame 1: waited   target 10ms late 300µs  skipped 0
	// frame 2: late     target 20ms late 14.3ms skipped 1
	// frame 3: waited   target 40ms late 300µs  skipped 0
}
