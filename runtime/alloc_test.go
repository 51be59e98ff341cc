//go:build !race

package runtime_test

import (
	"fmt"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// steadyAllocs runs one session on allocation-free fakes and returns the
// heap allocations the whole process made between update from and update
// to, and the platform cycles in between. The reading covers every
// goroutine, so it is an upper bound on what the loop allocates.
func steadyAllocs(t *testing.T, mode runtime.Mode, interpolating bool, from, to int) (allocs, cycles uint64) {
	t.Helper()
	rt, g, _ := leanRuntime(t, mode, to+100, nil)
	if interpolating {
		// Fixed 60 Hz ticks presented at a 144 Hz cap: every frame is drawn
		// again at several presents, each with its own alpha.
		o := rt.TimingOptions()
		o.Mode = timing.FixedMode
		if err := rt.SetTimingOptions(o); err != nil {
			t.Fatal(err)
		}
		if err := rt.SetFrameCap(time.Second / 144); err != nil {
			t.Fatal(err)
		}
	}
	var ms goruntime.MemStats
	var startMallocs, startCycles uint64
	g.onUpdate = func(n int) {
		switch n {
		case from:
			goruntime.ReadMemStats(&ms)
			startMallocs, startCycles = ms.Mallocs, rt.Stats().Cycles
		case to:
			goruntime.ReadMemStats(&ms)
			allocs, cycles = ms.Mallocs-startMallocs, rt.Stats().Cycles-startCycles
		}
	}
	if err := rt.Run(); err != nil {
		t.Fatal(err)
	}
	return allocs, cycles
}

// TestSteadyStateAllocations counts the allocations of 2000 updates (about
// 10,000 platform cycles) once a session is running: there must be none,
// also when every frame is presented several times at a frame cap above
// the tick rate (the per-present path).
//
// The count is process-wide, so a measurement can only be too high, never
// too low: another goroutine of the process (a runtime worker, the testing
// package) may allocate during the window on a loaded machine. The test
// therefore takes the smallest of up to three measurements, which is exact
// for the loop and never fails on such noise, while an allocation in the
// loop shows up in every measurement (at least once per 2000 updates).
func TestSteadyStateAllocations(t *testing.T) {
	const from, to, attempts = 300, 2300, 3
	for _, mode := range modes {
		for _, interp := range []bool{false, true} {
			name := mode.String()
			if interp {
				name += "/interpolating"
			}
			t.Run(name, func(t *testing.T) { steadyCase(t, mode, interp, from, to, attempts) })
		}
	}
}

func steadyCase(t *testing.T, mode runtime.Mode, interp bool, from, to, attempts int) {
	{
		{
			steadyAllocs(t, mode, interp, 10, 20) // first use of lazy process-wide state
			var runs []string
			for range attempts {
				allocs, cycles := steadyAllocs(t, mode, interp, from, to)
				runs = append(runs, fmt.Sprintf("%d allocations in %d cycles", allocs, cycles))
				if mode == runtime.Sequential && cycles < uint64(to-from) {
					t.Fatalf("window of %d updates spans %d platform cycles, want at least %d", to-from, cycles, to-from)
				}
				if allocs == 0 {
					t.Logf("updates %d to %d: %v", from, to, runs)
					return
				}
			}
			t.Errorf("updates %d to %d, %d sessions: %v; want 0 allocations in at least one", from, to, attempts, runs)
		}
	}
}
