package timing_test

import (
	"errors"
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

func TestStopwatch(t *testing.T) {
	type step struct {
		op      string // start, pause, resume, reset, read
		now     timing.Instant
		want    time.Duration // for read
		wantErr error
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"zero value reads zero", []step{{"read", 100, 0, nil}}},
		{"running", []step{{"start", 10, 0, nil}, {"read", 25, 15, nil}, {"read", 40, 30, nil}}},
		{"equal readings are valid", []step{{"start", 10, 0, nil}, {"read", 10, 0, nil}, {"pause", 10, 0, nil}, {"resume", 10, 0, nil}}},
		{"paused read is frozen", []step{{"start", 10, 0, nil}, {"pause", 30, 0, nil}, {"read", 100, 20, nil}, {"read", 200, 20, nil}}},
		{"resume excludes the gap", []step{{"start", 10, 0, nil}, {"pause", 30, 0, nil}, {"resume", 100, 0, nil}, {"read", 105, 25, nil}}},
		{"start discards the previous run", []step{{"start", 10, 0, nil}, {"pause", 30, 0, nil}, {"start", 50, 0, nil}, {"read", 55, 5, nil}}},
		{"reset stops", []step{{"start", 10, 0, nil}, {"reset", 0, 0, nil}, {"read", 50, 0, nil}}},
		{"pause while stopped", []step{{"pause", 10, 0, timing.ErrInvalidTransition}, {"read", 20, 0, nil}}},
		{"pause twice keeps state", []step{{"start", 0, 0, nil}, {"pause", 10, 0, nil}, {"pause", 20, 0, timing.ErrInvalidTransition}, {"read", 30, 10, nil}}},
		{"resume while running", []step{{"start", 0, 0, nil}, {"resume", 5, 0, timing.ErrInvalidTransition}, {"read", 10, 10, nil}}},
		{"reversed pause keeps state", []step{{"start", 10, 0, nil}, {"pause", 5, 0, timing.ErrClockRegression}, {"read", 20, 10, nil}}},
		{"reversed resume keeps state", []step{{"start", 10, 0, nil}, {"pause", 20, 0, nil}, {"resume", 15, 0, timing.ErrClockRegression}, {"read", 30, 10, nil}}},
		{"reversed read", []step{{"start", 10, 0, nil}, {"read", 9, 0, timing.ErrClockRegression}, {"read", 11, 1, nil}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w timing.Stopwatch
			for i, s := range tt.steps {
				var err error
				var got time.Duration
				switch s.op {
				case "start":
					w.Start(s.now)
				case "pause":
					err = w.Pause(s.now)
				case "resume":
					err = w.Resume(s.now)
				case "reset":
					w.Reset()
				case "read":
					got, err = w.Read(s.now)
				}
				if !errors.Is(err, s.wantErr) {
					t.Fatalf("step %d %s(%d): err = %v, want %v", i, s.op, s.now, err, s.wantErr)
				}
				if got != s.want {
					t.Errorf("step %d %s(%d) = %v, want %v", i, s.op, s.now, got, s.want)
				}
			}
		})
	}
}

func TestDeadline(t *testing.T) {
	var d timing.Deadline
	if d.Due(0) || armed(&d) {
		t.Fatal("zero deadline is due or armed")
	}
	tests := []struct {
		name    string
		now     timing.Instant
		delay   time.Duration
		wantErr error
		wantAt  timing.Instant
		due     map[timing.Instant]bool
	}{
		{"zero delay is due at once", 100, 0, nil, 100, map[timing.Instant]bool{99: false, 100: true}},
		{"equality is due", 100, 10, nil, 110, map[timing.Instant]bool{109: false, 110: true, 500: true}},
		{"negative delay keeps the deadline", 100, -1, timing.ErrNegativeDuration, 110, map[timing.Instant]bool{110: true}},
		{"overflow keeps the deadline", timing.MaxInstant, 1, timing.ErrOverflow, 110, map[timing.Instant]bool{109: false}},
	}
	for _, tt := range tests {
		err := d.Arm(tt.now, tt.delay)
		if !errors.Is(err, tt.wantErr) {
			t.Fatalf("%s: err = %v, want %v", tt.name, err, tt.wantErr)
		}
		if at, armed := d.At(); at != tt.wantAt || !armed {
			t.Errorf("%s: At = %v, %v; want %v, true", tt.name, at, armed, tt.wantAt)
		}
		for now, want := range tt.due {
			if got := d.Due(now); got != want {
				t.Errorf("%s: Due(%v) = %v, want %v", tt.name, now, got, want)
			}
		}
	}
	if got := d.Remaining(104); got != 6 {
		t.Errorf("Remaining = %v, want 6ns", got)
	}
	d.Cancel()
	if d.Due(1000) || armed(&d) || d.Remaining(0) != 0 {
		t.Error("cancelled deadline is still due or armed")
	}
}

func TestFrameClock(t *testing.T) {
	type sample struct {
		now  timing.Instant
		want timing.FrameSample
	}
	tests := []struct {
		name     string
		maxDelta time.Duration
		reset    int // reset before this sample index; -1 none
		samples  []sample
	}{
		{"baseline then intervals", 100, -1, []sample{
			{1000, timing.FrameSample{Baseline: true}},
			{1016, timing.FrameSample{Elapsed: 16}},
			{1016, timing.FrameSample{}},
			{1050, timing.FrameSample{Elapsed: 34}},
		}},
		{"stall clamps and moves the baseline", 100, -1, []sample{
			{1000, timing.FrameSample{Baseline: true}},
			{1500, timing.FrameSample{Elapsed: 100, Discarded: 400}},
			{1510, timing.FrameSample{Elapsed: 10}},
		}},
		{"backwards keeps the high-water mark", 100, -1, []sample{
			{1000, timing.FrameSample{Baseline: true}},
			{1020, timing.FrameSample{Elapsed: 20}},
			{1010, timing.FrameSample{Regression: true}},
			{1015, timing.FrameSample{Regression: true}},
			{1030, timing.FrameSample{Elapsed: 10}},
		}},
		{"reset makes a new baseline above the high-water mark", 100, 2, []sample{
			{1000, timing.FrameSample{Baseline: true}},
			{1020, timing.FrameSample{Elapsed: 20}},
			{1010, timing.FrameSample{Regression: true}},
			{5000, timing.FrameSample{Baseline: true}},
			{5005, timing.FrameSample{Elapsed: 5}},
		}},
		{"zero max delta freezes accepted time", 0, -1, []sample{
			{0, timing.FrameSample{Baseline: true}},
			{7, timing.FrameSample{Discarded: 7}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := timing.NewFrameClock(tt.maxDelta)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range tt.samples {
				if i == tt.reset {
					c.Reset()
				}
				got := c.Sample(s.now)
				if got != s.want {
					t.Errorf("sample %d at %d = %+v, want %+v", i, s.now, got, s.want)
				}
			}
		})
	}
	if _, err := timing.NewFrameClock(-1); err == nil {
		t.Error("NewFrameClock(-1) accepted a negative maximum")
	}
}

// armed reports whether d is set, through At.
func armed(d *timing.Deadline) bool {
	_, ok := d.At()
	return ok
}
