package runtime_test

import (
	"sync/atomic"
	"testing"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// countingClock is a manual clock that counts clock readings and waits.
type countingClock struct {
	*timing.ManualClock
	reads, waits atomic.Int64
}

func (c *countingClock) Now() timing.Instant {
	c.reads.Add(1)
	return c.ManualClock.Now()
}

func (c *countingClock) NewWaiter() timing.Waiter {
	return &countingWaiter{Waiter: c.ManualClock.NewWaiter(), c: c}
}

type countingWaiter struct {
	timing.Waiter
	c *countingClock
}

func (w *countingWaiter) WaitUntil(t timing.Instant) error {
	w.c.waits.Add(1)
	return w.Waiter.WaitUntil(t)
}

// TestCycleWork pins down the loop's own work per platform cycle in
// sequential mode, where a virtual clock makes every count exact: how many
// clock readings and waits a cycle and an update cost. The time these take
// is measured by BenchmarkSequentialCycle; this test cannot fail on a slow
// machine, but it fails when a change adds readings or waits to the cycle.
// Allocations are covered by TestSteadyStateAllocations.
func TestCycleWork(t *testing.T) {
	const updates = 2000
	clock := &countingClock{ManualClock: timing.NewManualClock(0)}
	rt, _, rend := leanRuntime(t, runtime.Sequential, updates, clock)
	if err := rt.Run(); err != nil {
		t.Fatal(err)
	}
	st := rt.Stats()
	reads, waits := clock.reads.Load(), clock.waits.Load()
	t.Logf("%d cycles, %d updates, %d frames: %d clock readings, %d waits", st.Cycles, st.Updates, rend.Renderer.Rendered(), reads, waits)
	// Budgets: a cycle without an update reads the clock at its start,
	// for the update decision, for the present and for the wait; a cycle
	// with an update adds readings for the batch, the update's services and
	// input, and the frame's telemetry. At 60 Hz with the default 4 ms poll
	// spacing and 10 ms maintenance, an update comes every five or six
	// cycles.
	const (
		readsPerIdleCycle   = 4
		readsPerUpdateCycle = 8
		cyclesPerUpdate     = 6
	)
	cycles, n := int64(st.Cycles), int64(st.Updates)
	tests := []struct {
		name     string
		got, max int64
	}{
		{"clock readings", reads, readsPerIdleCycle*(cycles-n) + readsPerUpdateCycle*n},
		{"waits (one per cycle at most)", waits, cycles},
		{"platform cycles", cycles, cyclesPerUpdate * n},
	}
	for _, tc := range tests {
		if tc.got > tc.max {
			t.Errorf("%s: got %d in %d cycles with %d updates, want at most %d", tc.name, tc.got, cycles, n, tc.max)
		}
	}
	if n != updates || int64(rend.Renderer.Rendered()) != updates {
		t.Errorf("got %d updates and %d frames rendered, want %d of each", n, rend.Renderer.Rendered(), updates)
	}
}
