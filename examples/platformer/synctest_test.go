package main

import (
	"flag"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
)

var syncTicks = flag.Int("synctest-ticks", 3000, "ticks of seeded random input TestSyncTest plays")

// TestSyncTest plays seeded random input under sync-test (--synctest 2):
// after every tick the session goes back two ticks and runs them again,
// and every hash must match the first run's: the player, the coins taken,
// the sparkles (a simulated emitter) and the progress. The dust is
// cosmetic and takes no part.
func TestSyncTest(t *testing.T) {
	const depth = 2
	sim, err := frameworktest.New(newGame(), frameworktest.Options{Sets: slices.Clone(small), SyncTest: depth})
	if err != nil {
		t.Fatal(err)
	}
	sim.Fakes.Renderer.Discard = true
	n := *syncTicks
	randomInput(sim, n, 46)
	if err := sim.RunTicks(n); err != nil {
		t.Fatal(err)
	}
	st, ok := sim.SyncTestStats()
	if !ok {
		t.Fatal("no sync-test ran")
	}
	p := progress(sim)
	t.Logf("sync-test depth %d: %d ticks, %d run again, %d hashes compared, no mismatch; %d coins, %d falls",
		depth, st.Ticks, st.Resimulated, st.Checked, p.Coins, p.Falls)
	if st.Ticks != uint64(n) || st.Checked != uint64(n-depth+1)*depth {
		t.Errorf("sync-test counters %+v, want %d ticks each checked %d times", st, n, depth)
	}
	if p.Coins == 0 {
		t.Error("the random play took no coin: the sync-test saw no sparkle")
	}
}

// randomInput scripts n ticks of seeded random play: mostly running
// right, with jumps of random length, turns and the stick now and then.
func randomInput(sim *frameworktest.Sim, n int, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 1))
	keys := []input.Button{input.KeyD, input.KeyD, input.KeyD, input.KeySpace, input.KeySpace, input.KeyA, input.KeyUp}
	sim.Input.Gamepad(sim.At(0), true)
	for at := 0; at < n; {
		at += 1 + r.IntN(20)
		if r.IntN(10) == 0 {
			sim.Input.Axis(sim.At(time.Duration(at)*tick), input.GamepadLeftX, r.Float32()*2-1)
			continue
		}
		sim.Input.Tap(sim.At(time.Duration(at)*tick), keys[r.IntN(len(keys))], time.Duration(1+r.IntN(40))*tick)
	}
}
