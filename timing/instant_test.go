package timing_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

func TestInstantAdd(t *testing.T) {
	tests := []struct {
		name    string
		t       timing.Instant
		d       time.Duration
		want    timing.Instant
		wantErr error
	}{
		{"zero", 0, 0, 0, nil},
		{"forward", 10, 5, 15, nil},
		{"backward", 10, -5, 5, nil},
		{"one ns at a large epoch", timing.MaxInstant - 1, 1, timing.MaxInstant, nil},
		{"overflow keeps input", timing.MaxInstant, 1, timing.MaxInstant, timing.ErrOverflow},
		{"underflow keeps input", math.MinInt64, -1, math.MinInt64, timing.ErrOverflow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.t.Add(tt.d)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Add(%v) err = %v, want %v", tt.d, err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("Add(%v) = %v, want %v", tt.d, got, tt.want)
			}
		})
	}
}

func TestAddSaturating(t *testing.T) {
	if got := timing.MaxInstant.AddSaturating(time.Hour); got != timing.MaxInstant {
		t.Errorf("got %v, want MaxInstant", got)
	}
	if got := timing.Instant(math.MinInt64).AddSaturating(-time.Hour); got != math.MinInt64 {
		t.Errorf("got %v, want MinInt64", got)
	}
	if got := timing.Instant(5).AddSaturating(5); got != 10 {
		t.Errorf("got %v, want 10", got)
	}
}

func TestElapsed(t *testing.T) {
	tests := []struct {
		name       string
		start, end timing.Instant
		want       time.Duration
		wantErr    error
	}{
		{"equal", 7, 7, 0, nil},
		{"forward", 7, 10, 3, nil},
		{"regression", 10, 7, 0, timing.ErrClockRegression},
		{"too large", math.MinInt64, timing.MaxInstant, 0, timing.ErrOverflow},
		{"one ns at a large epoch", timing.MaxInstant - 1, timing.MaxInstant, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := timing.Elapsed(tt.start, tt.end)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNowIsMonotonic(t *testing.T) {
	a := timing.Now()
	b := timing.SystemClock{}.Now()
	if b < a {
		t.Fatalf("clock went backwards: %v then %v", a, b)
	}
}

func TestManualClock(t *testing.T) {
	c := timing.NewManualClock(100)
	if got := c.Advance(50 * time.Nanosecond); got != 150 {
		t.Fatalf("Advance = %v, want 150", got)
	}
	c.Set(20)
	if got := c.Now(); got != 20 {
		t.Fatalf("Now = %v, want 20", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("negative Advance did not panic")
		}
	}()
	c.Advance(-1)
}
