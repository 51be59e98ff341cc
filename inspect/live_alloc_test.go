//go:build !race

package inspect_test

import (
	"testing"

	"github.com/metronome-go/metronome/inspect"
)

// With --inspect attached, the game's tick allocates nothing: its part
// is the recording into memory, whose chunks the recording's own
// goroutine hands over. (The follower that replays them for the page
// runs beside the game and is not running here, so that what is counted
// is the game's side alone.)
func TestLiveTickAllocatesNothing(t *testing.T) {
	live := inspect.NewLive()
	sim := liveGame(t, live)
	t.Cleanup(func() { _ = sim.Close() })
	sim.Fakes.Renderer.Discard = true
	if err := sim.Step(120); err != nil { // warm up: chunks have circulated
		t.Fatal(err)
	}
	step := func(n int) func() {
		return func() {
			if err := sim.Step(n); err != nil {
				t.Fatal(err)
			}
		}
	}
	one := testing.AllocsPerRun(10, step(1))
	many := testing.AllocsPerRun(10, step(30))
	t.Logf("allocations: %v for a Step of 1 tick, %v for a Step of 30", one, many)
	if many != one {
		t.Errorf("a Step of 30 ticks allocates %v times, a Step of 1 tick %v: ticks allocate with --inspect attached", many, one)
	}
	if live.Recorded() == 0 {
		t.Error("nothing was recorded into the Live")
	}
}
