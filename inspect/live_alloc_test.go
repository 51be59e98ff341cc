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
	live.Watch(sim.Runtime.Stats) // the presents' samples, at each chunk
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
	// The count is the whole process's, and the recording's writer
	// goroutine hands a chunk over every half second of game time (30
	// ticks here): when it has not yet given the last one back, a chunk
	// is made, which a Step of 30 ticks catches now and then (one run in
	// 20). A tick that allocates adds 300 to a Step of 300 ticks; the
	// chunks add at most 10.
	one := testing.AllocsPerRun(10, step(1))
	many := testing.AllocsPerRun(10, step(300))
	t.Logf("allocations: %v for a Step of 1 tick, %v for a Step of 300", one, many)
	if perTick := (many - one) / 299; perTick >= 0.1 {
		t.Errorf("a Step of 300 ticks allocates %v times, a Step of 1 tick %v (%.2f a tick): ticks allocate with --inspect attached", many, one, perTick)
	}
	if live.Recorded() == 0 {
		t.Error("nothing was recorded into the Live")
	}
}
