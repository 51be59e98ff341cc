package timing_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/timing"
)

// ticker returns a clock that advances by step every every readings.
func ticker(step time.Duration, every int) func() timing.Instant {
	var n int
	var t timing.Instant
	return func() timing.Instant {
		n++
		if n%every == 0 {
			t += timing.Instant(step)
		}
		return t
	}
}

func TestResolution(t *testing.T) {
	for _, c := range []struct {
		name         string
		now          func() timing.Instant
		steps, reads int
		want         time.Duration
	}{
		{"coarse", ticker(100*time.Microsecond, 50), 5, 1000, 100 * time.Microsecond},
		{"fine", ticker(5*time.Microsecond, 3), 5, 1000, 5 * time.Microsecond},
		{"every read", ticker(40*time.Nanosecond, 1), 5, 1000, 40 * time.Nanosecond},
		{"stopped", func() timing.Instant { return 7 }, 5, 1000, 0},
		{"too few reads", ticker(time.Millisecond, 100), 5, 50, 0},
		{"no steps", ticker(time.Millisecond, 1), 0, 10, 0},
		{"no reads", ticker(time.Millisecond, 1), 3, 0, 0},
	} {
		if got := timing.Resolution(c.now, c.steps, c.reads); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
	// The smallest step, not the first: a clock whose steps vary.
	steps := []timing.Instant{0, 0, 300, 300, 400, 900}
	i := 0
	now := func() timing.Instant { v := steps[min(i, len(steps)-1)]; i++; return v }
	if got := timing.Resolution(now, 3, len(steps)); got != 100 {
		t.Errorf("varying steps: got %v, want 100ns", got)
	}
}

func TestResolutionBoundedReads(t *testing.T) {
	reads := 0
	timing.Resolution(func() timing.Instant { reads++; return 0 }, 5, 200)
	if reads != 200 {
		t.Errorf("a stopped clock was read %d times, want the bound 200", reads)
	}
}
