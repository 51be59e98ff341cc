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

var syncTicks = flag.Int("synctest-ticks", 3000, "ticks of seeded random input TestSyncTest plays (the issue's figure is 100000)")

// TestSyncTest plays seeded random input under sync-test (--synctest 2):
// after every tick the session goes back two ticks and runs them again,
// and every hash must match the first run's. The default length keeps
// make test quick; go test -run TestSyncTest -synctest-ticks=100000 -v
// plays the 100,000.
func TestSyncTest(t *testing.T) {
	const depth = 2
	sim, err := frameworktest.New(newGame(), frameworktest.Options{Sets: slices.Clone(small), SyncTest: depth})
	if err != nil {
		t.Fatal(err)
	}
	// The recording renderer would keep a copy of every frame: over
	// 100,000 ticks, gigabytes, which is what made the long run slow.
	sim.Fakes.Renderer.Discard = true
	n := *syncTicks
	randomInput(sim, n, 25)
	if err := sim.RunTicks(n); err != nil {
		t.Fatal(err)
	}
	st, ok := sim.SyncTestStats()
	if !ok {
		t.Fatal("no sync-test ran")
	}
	t.Logf("sync-test depth %d: %d ticks, %d run again, %d hashes compared, no mismatch; score %d, lives %d",
		depth, st.Ticks, st.Resimulated, st.Checked, progress(sim).Score, progress(sim).Lives)
	if st.Ticks != uint64(n) || st.Checked != uint64(n-depth+1)*depth {
		t.Errorf("sync-test counters %+v, want %d ticks each checked %d times", st, n, depth)
	}
}

// randomInput scripts n ticks of seeded random play: taps and holds of
// the game's keys, the stick now and then, and a rare pause.
func randomInput(sim *frameworktest.Sim, n int, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 1))
	keys := []input.Button{input.KeySpace, input.KeyLeft, input.KeyRight, input.KeyA, input.KeyD, input.KeySpace, input.KeyLeft, input.KeyRight, input.KeyP}
	sim.Input.Gamepad(sim.At(0), true)
	for at := 0; at < n; {
		at += 1 + r.IntN(40)
		if r.IntN(10) == 0 {
			sim.Input.Axis(sim.At(time.Duration(at)*tick), input.GamepadLeftX, r.Float32()*2-1)
			continue
		}
		sim.Input.Tap(sim.At(time.Duration(at)*tick), keys[r.IntN(len(keys))], time.Duration(1+r.IntN(60))*tick)
	}
}
