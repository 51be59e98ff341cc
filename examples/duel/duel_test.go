package main

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback/netsim"
)

const tick = time.Second / 60

// randomSeat scripts n ticks of seeded random play on one seat's keys:
// holds of the direction keys and taps of fire.
func randomSeat(sim *frameworktest.Sim, seat int, n int, seed uint64) {
	r := rand.New(rand.NewPCG(seed, uint64(seat)))
	k := seatKeys[seat]
	keys := []input.Button{k.left, k.right, k.up, k.down, k.fire}
	for at := 0; at < n; {
		at += 1 + r.IntN(12)
		k := keys[r.IntN(len(keys))]
		hold := time.Duration(1+r.IntN(30)) * tick
		if k == keys[4] {
			hold = 2 * tick
		}
		sim.Input.Tap(sim.At(time.Duration(at)*tick), k, hold)
	}
}

func roundOf(sim *frameworktest.Sim) Round { return *ecs.GetResource[Round](sim.App.World()) }

// Two players at one keyboard: each seat's keys move its own ship, and
// shots score.
func TestLocalTwoPlayers(t *testing.T) {
	sim, err := frameworktest.New(newGame(), frameworktest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Player 1 holds D (right) for half a second, player 2 nothing.
	sim.Input.Tap(sim.At(0), input.KeyD, 500*time.Millisecond)
	if err := sim.Step(60); err != nil {
		t.Fatal(err)
	}
	var at [2]float32
	q := ecs.NewFilter2[ecs.Transform, Ship](sim.App.World()).Query()
	for q.Next() {
		tr, s := q.Get()
		at[s.Player] = tr.Position.X
	}
	if at[0] <= spawnAt[0].X+100 {
		t.Errorf("player 1's ship at x %v after holding right, want past %v", at[0], spawnAt[0].X+100)
	}
	if at[1] != spawnAt[1].X {
		t.Errorf("player 2's ship moved to x %v without input, want %v", at[1], spawnAt[1].X)
	}
	// Player 1 faces player 2 across the arena and fires.
	for i := range 6 {
		sim.Input.Tap(sim.At(time.Second+time.Duration(i)*400*time.Millisecond), input.KeySpace, 2*tick)
	}
	if err := sim.Step(240); err != nil {
		t.Fatal(err)
	}
	if r := roundOf(sim); r.Score[0] == 0 {
		t.Errorf("player 1 fired along the arena at player 2 and scored nothing: %+v", r)
	}
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
}

// The duel is deterministic under --synctest 2: every tick is run again
// from a snapshot two ticks back, with the same hash.
func TestSyncTest(t *testing.T) {
	sim, err := frameworktest.New(newGame(), frameworktest.Options{SyncTest: 2, Sets: []string{"game.round=10s"}})
	if err != nil {
		t.Fatal(err)
	}
	const n = 1500
	randomSeat(sim, 0, n, 1)
	randomSeat(sim, 1, n, 2)
	if err := sim.RunTicks(n); err != nil {
		t.Fatal(err)
	}
	st, _ := sim.SyncTestStats()
	if st.Checked == 0 {
		t.Fatal("no hash checked")
	}
	t.Logf("%+v; round %+v", st, roundOf(sim))
}

// issueNet is issue 25's network: 150 ms round trip, ±20 ms jitter, 5% loss.
var issueNet = netsim.Options{Latency: 75 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05, Seed: 26}

// Two peers over the simulated network, each through the real runtime
// loop: no desync, and the same world at the same confirmed tick.
func TestNetworkedMatch(t *testing.T) {
	const d = 20 * time.Second
	peers, err := frameworktest.Match(newGame, frameworktest.MatchOptions{
		Options: frameworktest.Options{Sets: []string{"runtime.frame_cap=60", "window.vsync=false"}},
		Net:     issueNet, For: d, Delay: 2,
		Script: func(peer int, sim *frameworktest.Sim) { randomSeat(sim, 0, int(d/tick), uint64(10+peer)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	a, b := peers[0], peers[1]
	for i, p := range peers {
		st := p.Stats
		t.Logf("peer %d: tick %d confirmed %d, %d rollbacks (%.1f/s), mean depth %.2f, max %d, advantage %.1f, %d B/s sent; hashes %d",
			i, st.Tick, st.Confirmed, st.Rollbacks, float64(st.Rollbacks)/st.Seconds, float64(st.Resimulated)/max(1, float64(st.Rollbacks)),
			st.MaxDepth, st.Advantage, int(float64(st.BytesSent)/st.Seconds), st.Hashes)
		if st.Desyncs != 0 || st.Hashes == 0 {
			t.Errorf("peer %d: %d desyncs in %d hashes compared", i, st.Desyncs, st.Hashes)
		}
		if st.MaxDepth > 8 {
			t.Errorf("peer %d: rollback %d ticks deep, past the window", i, st.MaxDepth)
		}
	}
	if !a.HasHash || !b.HasHash {
		t.Fatal("a peer confirmed no hashed tick")
	}
	if a.Tick == b.Tick && a.Hash != b.Hash {
		t.Errorf("confirmed tick %d: hashes %016x and %016x differ", a.Tick, a.Hash, b.Hash)
	}
	t.Logf("peer 0 confirmed tick %d hash %016x; peer 1 tick %d hash %016x", a.Tick, a.Hash, b.Tick, b.Hash)
}
