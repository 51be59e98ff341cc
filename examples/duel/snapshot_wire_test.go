package main

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/ecs/ecstest"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
)

// TestSnapshotTravels plays seeded random input on both seats, sends the
// world's snapshot at tick 1,200 (ecs.Snapshot.AppendBinary) to a second
// game that sat idle until then, which decodes and restores it: both
// have the same hash, and keep it through 600 more ticks of the same
// input.
func TestSnapshotTravels(t *testing.T) {
	const at, more = 1200, 600
	sender, receiver := newPair(t)
	for seat := range seatKeys {
		randomSeat(sender, seat, at-60, 31)
	}
	if err := sender.Step(at); err != nil {
		t.Fatal(err)
	}
	if err := receiver.Step(at); err != nil {
		t.Fatal(err)
	}
	n := len(ecstest.Travel(t, sender.App, receiver.App))
	t.Logf("%d bytes (%d chunks of 1,000 bytes)", n, (n+999)/1000)
	// The same input from here on, for both.
	for _, sim := range []*frameworktest.Sim{sender, receiver} {
		for seat := range seatKeys {
			randomSeatFrom(sim, seat, at+1, at+more, 47)
		}
	}
	for k := range more {
		stepBoth(t, sender, receiver)
		ecstest.SameHash(t, sender.App, receiver.App, at+1+k)
	}
}

func newPair(t testing.TB) (a, b *frameworktest.Sim) {
	t.Helper()
	var err error
	if a, err = frameworktest.New(newGame(), frameworktest.Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if b, err = frameworktest.New(newGame(), frameworktest.Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return a, b
}

// randomSeatFrom is randomSeat for ticks from..to, each hold ending before to.
func randomSeatFrom(sim *frameworktest.Sim, seat, from, to int, seed uint64) {
	r := rand.New(rand.NewPCG(seed, uint64(seat)+7))
	k := seatKeys[seat]
	keys := []input.Button{k.left, k.right, k.up, k.down, k.fire}
	for at := from; ; {
		at += 1 + r.IntN(12)
		hold := 1 + r.IntN(30)
		if at+hold >= to {
			return
		}
		sim.Input.Tap(sim.At(time.Duration(at)*tick), keys[r.IntN(len(keys))], time.Duration(hold)*tick)
	}
}

// BenchmarkSnapshotWire encodes and decodes the duel's snapshot after
// 1,200 ticks of seeded play.
//
//	go test -run '^$' -bench SnapshotWire ./examples/duel
func BenchmarkSnapshotWire(b *testing.B) {
	a, to := newPair(b)
	for seat := range seatKeys {
		randomSeat(a, seat, 1200, 31)
	}
	if err := a.Step(1200); err != nil {
		b.Fatal(err)
	}
	if err := to.Step(1); err != nil {
		b.Fatal(err)
	}
	ecstest.BenchWire(b, a.App, to.App)
}

// stepBoth steps every sim by one tick.
func stepBoth(t testing.TB, sims ...*frameworktest.Sim) {
	t.Helper()
	for _, sim := range sims {
		if err := sim.Step(1); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzSnapshotDecode decodes random and mutated snapshots of the duel
// into a fresh game, seeded with its snapshot after seeded play.
//
//	go test -run '^$' -fuzz FuzzSnapshotDecode -fuzztime 30s -fuzzminimizetime 1x ./examples/duel
func FuzzSnapshotDecode(f *testing.F) {
	sim, _ := newPair(f)
	for seat := range seatKeys {
		randomSeat(sim, seat, 600, 31)
	}
	if err := sim.Step(600); err != nil {
		f.Fatal(err)
	}
	ecstest.FuzzDecode(f, func(t testing.TB) *ecs.App { a, _ := newPair(t); return a.App }, ecstest.Encode(f, sim.App))
}
