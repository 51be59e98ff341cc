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
// and every hash must match the first run's: the menus (focus, widgets,
// a jump being rebound), the player, the coins taken, the sparkles (a
// simulated emitter) and the progress. The dust is cosmetic and takes no
// part. The play starts on the title menu.
func TestSyncTest(t *testing.T) {
	const depth = 2
	sim, err := frameworktest.New(newGame(), frameworktest.Options{Sets: append(slices.Clone(small), "game.title=true"), SyncTest: depth})
	if err != nil {
		t.Fatal(err)
	}
	sim.Fakes.Renderer.Discard = true
	n := *syncTicks
	randomInput(sim, n, 46)
	var seen [Cleared + 1]int // ticks in each screen
	for range n {
		if err := sim.Step(1); err != nil {
			t.Fatal(err)
		}
		seen[screen(sim)]++
	}
	defer sim.Close()
	st, ok := sim.SyncTestStats()
	if !ok {
		t.Fatal("no sync-test ran")
	}
	p := progress(sim)
	t.Logf("sync-test depth %d: %d ticks, %d run again, %d hashes compared, no mismatch; %d coins, %d falls; ticks by screen (title, options, playing, cleared) %v",
		depth, st.Ticks, st.Resimulated, st.Checked, p.Coins, p.Falls, seen)
	if st.Ticks != uint64(n) || st.Checked != uint64(n-depth+1)*depth {
		t.Errorf("sync-test counters %+v, want %d ticks each checked %d times", st, n, depth)
	}
	if p.Coins == 0 && p.Falls == 0 {
		t.Error("the random play neither took a coin nor fell: it tests too little")
	}
	if seen[Playing] == 0 || seen[Title] == 0 {
		t.Errorf("ticks by screen %v: want the title and play", seen)
	}
}

// randomInput scripts n ticks of seeded random play: Enter on the title's
// Play, then mostly running right, with jumps of random length, turns,
// the stick now and then, and rarely Escape to the title and the keys
// that move through the menus.
func randomInput(sim *frameworktest.Sim, n int, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 1))
	keys := []input.Button{input.KeyD, input.KeyD, input.KeyD, input.KeyD, input.KeyD, input.KeyD, input.KeySpace, input.KeySpace,
		input.KeySpace, input.KeyA, input.KeyUp, input.KeyDown, input.KeyEnter, input.KeyEscape}
	sim.Input.Gamepad(sim.At(0), true)
	sim.Input.Tap(sim.At(3*tick), input.KeyEnter, 2*tick)
	for at := 10; at < n; {
		at += 1 + r.IntN(20)
		if r.IntN(10) == 0 {
			sim.Input.Axis(sim.At(time.Duration(at)*tick), input.GamepadLeftX, r.Float32()*2-1)
			continue
		}
		k := keys[r.IntN(len(keys))]
		if k == input.KeyEscape && r.IntN(4) != 0 {
			k = input.KeyD // Escape leaves play: rarely
		}
		sim.Input.Tap(sim.At(time.Duration(at)*tick), k, time.Duration(1+r.IntN(40))*tick)
	}
}
