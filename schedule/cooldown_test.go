package schedule_test

import (
	"math"
	"testing"

	"github.com/metronome-go/metronome/schedule"
)

func TestCooldown(t *testing.T) {
	type probe struct {
		now       uint64
		ready     bool
		remaining uint64
		progress  float64
	}
	cases := []struct {
		name    string
		setup   func(c *schedule.Cooldown)
		readyAt uint64
		probes  []probe
	}{
		{
			name:    "zero value is ready",
			setup:   func(*schedule.Cooldown) {},
			readyAt: 0,
			probes:  []probe{{0, true, 0, 1}, {5, true, 0, 1}},
		},
		{
			name:    "started at 10 for 4 ticks",
			setup:   func(c *schedule.Cooldown) { c.Start(10, 4) },
			readyAt: 14,
			probes:  []probe{{9, false, 5, 0}, {10, false, 4, 0}, {11, false, 3, 0.25}, {13, false, 1, 0.75}, {14, true, 0, 1}, {100, true, 0, 1}},
		},
		{
			name:    "zero ticks is ready at once",
			setup:   func(c *schedule.Cooldown) { c.Start(7, 0) },
			readyAt: 7,
			probes:  []probe{{6, false, 1, 1}, {7, true, 0, 1}},
		},
		{
			name:    "saturates at the last tick",
			setup:   func(c *schedule.Cooldown) { c.Start(math.MaxUint64-2, 10) },
			readyAt: math.MaxUint64,
			probes:  []probe{{math.MaxUint64 - 1, false, 1, 0.9}, {math.MaxUint64, true, 0, 1}},
		},
		{
			name:    "reset makes it ready",
			setup:   func(c *schedule.Cooldown) { c.Start(3, 50); c.Reset() },
			readyAt: 0,
			probes:  []probe{{3, true, 0, 1}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var cd schedule.Cooldown
			c.setup(&cd)
			if got := cd.ReadyAt(); got != c.readyAt {
				t.Errorf("ReadyAt = %d, want %d", got, c.readyAt)
			}
			for _, p := range c.probes {
				if got := cd.Ready(p.now); got != p.ready {
					t.Errorf("Ready(%d) = %v, want %v", p.now, got, p.ready)
				}
				if got := cd.Remaining(p.now); got != p.remaining {
					t.Errorf("Remaining(%d) = %d, want %d", p.now, got, p.remaining)
				}
				if got := cd.Progress(p.now); math.Abs(got-p.progress) > 1e-9 {
					t.Errorf("Progress(%d) = %v, want %v", p.now, got, p.progress)
				}
			}
		})
	}
}

func TestCooldownUse(t *testing.T) {
	var cd schedule.Cooldown
	var fired []uint64
	for tick := uint64(0); tick < 12; tick++ {
		if cd.Use(tick, 5) {
			fired = append(fired, tick)
		}
	}
	want := []uint64{0, 5, 10}
	if len(fired) != len(want) {
		t.Fatalf("fired at %v, want %v", fired, want)
	}
	for i := range want {
		if fired[i] != want[i] {
			t.Fatalf("fired at %v, want %v", fired, want)
		}
	}
}

func TestRepeat(t *testing.T) {
	cases := []struct {
		name   string
		r      schedule.Repeat
		polls  []uint64 // ticks at which Fire is called
		fires  []uint64 // what each call returns
		next   uint64
		active bool
	}{
		{"zero value never fires", schedule.Repeat{}, []uint64{0, 1, 100}, []uint64{0, 0, 0}, 0, false},
		{"period 0 never fires", schedule.NewRepeat(5, 0), []uint64{5, 6}, []uint64{0, 0}, 5, false},
		{"polled every tick", schedule.NewRepeat(3, 3), []uint64{1, 2, 3, 4, 5, 6, 7}, []uint64{0, 0, 1, 0, 0, 1, 0}, 9, true},
		{"after a gap it counts the missed ones", schedule.NewRepeat(10, 5), []uint64{9, 26, 29, 30}, []uint64{0, 4, 0, 1}, 35, true},
		{"stops at the end of the tick range", schedule.NewRepeat(math.MaxUint64-5, 4), []uint64{math.MaxUint64 - 5, math.MaxUint64}, []uint64{1, 1}, math.MaxUint64 - 1, false},
		{"a huge gap near the end", schedule.NewRepeat(1, math.MaxUint64/2), []uint64{math.MaxUint64}, []uint64{3}, 1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := c.r
			for i, now := range c.polls {
				if got := r.Fire(now); got != c.fires[i] {
					t.Errorf("Fire(%d) = %d, want %d", now, got, c.fires[i])
				}
			}
			if next, active := r.Next(); next != c.next || active != c.active {
				t.Errorf("Next = %d, %v, want %d, %v", next, active, c.next, c.active)
			}
		})
	}
	r := schedule.NewRepeat(10, 4)
	if got := r.Remaining(7); got != 3 {
		t.Errorf("Remaining(7) = %d, want 3", got)
	}
	if got := r.Remaining(10); got != 0 {
		t.Errorf("Remaining(10) = %d, want 0", got)
	}
	if got := r.Period(); got != 4 {
		t.Errorf("Period = %d, want 4", got)
	}
}
