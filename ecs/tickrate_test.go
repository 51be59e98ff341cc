package ecs_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/timing"
)

func fixed(r timing.Rate, step time.Duration) timing.Options {
	o := timing.DefaultOptions()
	o.Mode, o.Rate, o.FixedStep = timing.FixedMode, r, step
	return o
}

func TestTickRateTicks(t *testing.T) {
	hz60 := fixed(timing.Hz(60), 0)
	ntsc := fixed(timing.Rate{Num: 30000, Den: 1001}, 0)
	step20 := fixed(timing.Rate{}, 20*time.Millisecond)
	tests := []struct {
		name string
		o    timing.Options
		d    time.Duration
		want int
	}{
		{"60 Hz, a second", hz60, time.Second, 60},
		{"60 Hz, a minute", hz60, time.Minute, 3600},
		{"60 Hz, 350ms", hz60, 350 * time.Millisecond, 21},
		{"60 Hz, 10ms rounds up to 1", hz60, 10 * time.Millisecond, 1},
		{"60 Hz, 8ms rounds down to 0", hz60, 8 * time.Millisecond, 0},
		{"60 Hz, half a tick rounds up", hz60, 25 * time.Millisecond, 2}, // 1.5 ticks
		{"60 Hz, nothing", hz60, 0, 0},
		{"60 Hz, negative", hz60, -time.Second, 0},
		{"60 Hz, the longest duration", hz60, math.MaxInt64, 553402322211},
		{"30000/1001 Hz, a second", ntsc, time.Second, 30},
		{"30000/1001 Hz, 1001 seconds", ntsc, 1001 * time.Second, 30000},
		{"20ms step, a second", step20, time.Second, 50},
		{"20ms step, 30ms", step20, 30 * time.Millisecond, 2},
		{"1 GHz, the longest duration", fixed(timing.Hz(1e9), 0), math.MaxInt64, math.MaxInt64},
	}
	for _, tt := range tests {
		r, err := ecs.TickRateOf(tt.o)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := r.Ticks(tt.d); got != tt.want {
			t.Errorf("%s: Ticks(%v) = %d, want %d", tt.name, tt.d, got, tt.want)
		}
	}
	if got := (ecs.TickRate{}).Ticks(time.Second); got != 0 {
		t.Errorf("the zero TickRate counts %d ticks in a second, want 0", got)
	}
}

func TestTickRatePerTickAndStep(t *testing.T) {
	r, err := ecs.TickRateOf(fixed(timing.Hz(60), 0))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.PerTick(260), float32(260.0/60); got != want {
		t.Errorf("PerTick(260) at 60 Hz = %v, want %v", got, want)
	}
	if got := r.Step(); got != 16666667*time.Nanosecond {
		t.Errorf("Step at 60 Hz = %v, want 16.666667ms", got)
	}
	r, _ = ecs.TickRateOf(fixed(timing.Rate{}, 20*time.Millisecond))
	if got := r.PerTick(100); got != 2 {
		t.Errorf("PerTick(100) at 20ms = %v, want 2", got)
	}
	var zero ecs.TickRate
	if zero.PerTick(100) != 0 || zero.Step() != 0 {
		t.Error("the zero TickRate has a length")
	}
}

func TestTickRateRefuses(t *testing.T) {
	tests := []struct {
		name string
		o    timing.Options
		want string
	}{
		{"variable mode", timing.DefaultOptions(), `timing.mode = "fixed"`},
		{"no step", fixed(timing.Rate{}, 0), "timing step 0s: want 1ns to 1h"},
		{"a step over an hour", fixed(timing.Rate{}, 2*time.Hour), "want 1ns to 1h"},
		{"a zero denominator", fixed(timing.Rate{Num: 60}, 0), "timing rate 60/0"},
		{"a huge numerator", fixed(timing.Rate{Num: 2e9, Den: 1}, 0), "1 to 1000000000"},
	}
	for _, tt := range tests {
		_, err := ecs.TickRateOf(tt.o)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error saying %q", tt.name, err, tt.want)
		}
	}
}

// A game's settings in time units become what its systems count, once,
// at set-up: whole ticks and per-tick distances.
func ExampleTickRate() {
	o := timing.DefaultOptions()
	o.Mode, o.Rate = timing.FixedMode, timing.Hz(60) // [timing] mode = "fixed", rate = 60
	rate, err := ecs.TickRateOf(o)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rate.Ticks(350*time.Millisecond), rate.Ticks(time.Minute), rate.PerTick(260))
	// Output: 21 3600 4.3333335
}
