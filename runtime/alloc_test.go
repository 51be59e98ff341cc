//go:build !race

package runtime_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/metronome-go/metronome/timing"

	"github.com/metronome-go/metronome/runtime"
)

// TestSteadyStateAllocations runs sessions of two lengths on
// allocation-free fakes: the longer one must allocate exactly as much as the
// shorter (2000 more updates and about 10,000 more cycles), so the loop
// allocates nothing per cycle once running.
func TestSteadyStateAllocations(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			session := func(updates int) float64 {
				return testing.AllocsPerRun(1, func() {
					rt, _, _ := leanRuntime(t, mode, updates, nil)
					if err := rt.Run(); err != nil {
						t.Fatal(err)
					}
				})
			}
			session(50) // first-use allocations in the process (lazy globals)
			short, long := session(200), session(2200)
			t.Logf("allocations per session: %v for 200 updates, %v for 2200", short, long)
			if long > short {
				t.Errorf("allocations: %v for 200 updates, %v for 2200: want no allocation per cycle", short, long)
			}
		})
	}
}

// TestCycleOverhead asserts that the loop's own cost per cycle, with
// adapters that do nothing, stays under 2 µs. It takes the fastest of five
// runs so that other work on a shared machine cannot fail it.
func TestCycleOverhead(t *testing.T) {
	if testing.Short() {
		t.Skip("measures real time")
	}
	best := math.Inf(1)
	var runs []string
	for range 5 {
		rt, _, _ := leanRuntime(t, runtime.Sequential, 2000, nil)
		start := timing.Now()
		if err := rt.Run(); err != nil {
			t.Fatal(err)
		}
		ns := float64(timing.Now()-start) / float64(rt.Stats().Cycles)
		runs = append(runs, fmt.Sprintf("%.0f", ns))
		best = min(best, ns)
	}
	t.Logf("ns per cycle, five runs: %v", runs)
	if best >= 2000 {
		t.Errorf("loop overhead: best of five runs %.0f ns per cycle, want under 2000", best)
	}
}
