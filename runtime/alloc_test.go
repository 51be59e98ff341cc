//go:build !race

package runtime_test

import (
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// steadyAllocs runs one session on allocation-free fakes and returns the
// heap allocations the module's code made between update from and update
// to, the allocating stacks, and the platform cycles in between. extra,
// when set, runs inside every update of the window, as game code.
func steadyAllocs(t *testing.T, mode runtime.Mode, interpolating bool, from, to int, extra func(n int)) (allocs int64, sites []string, cycles uint64) {
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
	probe := newAllocProbe(t)
	var startCycles uint64
	g.onUpdate = func(n int) {
		switch {
		case n == from:
			probe.mark(0)
			startCycles = rt.Stats().Cycles
		case n == to:
			probe.mark(1)
			cycles = rt.Stats().Cycles - startCycles
		case n > from && n < to && extra != nil:
			extra(n)
		}
	}
	if err := rt.Run(); err != nil {
		t.Fatal(err)
	}
	allocs, sites = probe.window(t)
	return allocs, sites, cycles
}

// TestSteadyStateAllocations counts the allocations of 2000 updates (about
// 10,000 platform cycles) once a session is running: there must be none,
// also when every frame is presented several times at a frame cap above
// the tick rate (the per-present path). The probe counts exactly what the
// module's code allocates, so one session decides.
func TestSteadyStateAllocations(t *testing.T) {
	const from, to = 300, 2300
	for _, mode := range modes {
		for _, interp := range []bool{false, true} {
			name := mode.String()
			if interp {
				name += "/interpolating"
			}
			t.Run(name, func(t *testing.T) {
				steadyAllocs(t, mode, interp, 10, 20, nil) // first use of lazy process-wide state
				allocs, sites, cycles := steadyAllocs(t, mode, interp, from, to, nil)
				if mode == runtime.Sequential && cycles < uint64(to-from) {
					t.Fatalf("window of %d updates spans %d platform cycles, want at least %d", to-from, cycles, to-from)
				}
				t.Logf("updates %d to %d: %d allocations in %d cycles", from, to, allocs, cycles)
				if allocs != 0 {
					t.Errorf("updates %d to %d: %d allocations, want 0:\n%s", from, to, allocs, strings.Join(sites, "\n"))
				}
			})
		}
	}
}

// TestAllocProbeSeesTheLoopsAllocations makes the game allocate at every
// 100th update of the window, on the simulation's goroutine in concurrent
// mode: the probe must count each, and name the allocating function.
func TestAllocProbeSeesTheLoopsAllocations(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			const from, to = 300, 1300
			allocs, sites, _ := steadyAllocs(t, mode, false, from, to, func(n int) {
				if n%100 == 0 {
					allocSink = make([]byte, 64+n%3)
				}
			})
			if allocs != 9 || len(sites) != 1 || !strings.Contains(sites[0], "TestAllocProbeSeesTheLoopsAllocations") {
				t.Errorf("probe counted %d allocations at %q; want 9 at one site in the test", allocs, sites)
			}
		})
	}
}

var allocSink []byte
