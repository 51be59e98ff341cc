package main

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
)

// TestSnapshotTravels plays seeded random input, sends the world's
// snapshot at tick 1,200 (ecs.Snapshot.AppendBinary) to a second game
// that sat idle until then, which decodes and restores it: both have the
// same hash, and keep it through 600 more ticks of the same input.
func TestSnapshotTravels(t *testing.T) {
	const at, more = 1200, 600
	sender, err := frameworktest.New(newGame(), frameworktest.Options{Sets: slices.Clone(small)})
	if err != nil {
		t.Fatal(err)
	}
	defer sender.Close()
	receiver, err := frameworktest.New(newGame(), frameworktest.Options{Sets: slices.Clone(small)})
	if err != nil {
		t.Fatal(err)
	}
	defer receiver.Close()
	keys := []input.Button{input.KeySpace, input.KeyLeft, input.KeyRight, input.KeyA, input.KeyD, input.KeyP}
	tapKeys(sender, 25, 0, at-120, keys)
	for _, sim := range []*frameworktest.Sim{sender, receiver} {
		tapKeys(sim, 26, at, at+more, keys)
	}
	if err := sender.Step(at); err != nil {
		t.Fatal(err)
	}
	if err := receiver.Step(at); err != nil {
		t.Fatal(err)
	}
	// Breakout schedules its serve and its power-ups' end as events with
	// a Run function, which cannot travel: send at the first tick none is
	// pending.
	sent := at
	for ; !sendable(sender.App); sent++ {
		if sent == at+more/2 {
			t.Fatalf("no tick from %d to %d without an event with a Run function pending", at, sent)
		}
		for _, sim := range []*frameworktest.Sim{sender, receiver} {
			if err := sim.Step(1); err != nil {
				t.Fatal(err)
			}
		}
	}
	n := travel(t, sender.App, receiver.App)
	t.Logf("tick %d: %d bytes (%d chunks of 1,000 bytes)", sent, n, (n+999)/1000)
	for k := range at + more - sent {
		for _, sim := range []*frameworktest.Sim{sender, receiver} {
			if err := sim.Step(1); err != nil {
				t.Fatal(err)
			}
		}
		sameHash(t, sender.App, receiver.App, sent+1+k)
	}
}

// tapKeys scripts seeded taps of keys at ticks in [from, to), each
// released before to.
func tapKeys(sim *frameworktest.Sim, seed uint64, from, to int, keys []input.Button) {
	r := rand.New(rand.NewPCG(seed, 3))
	for at := from; ; {
		at += 1 + r.IntN(40)
		hold := 1 + r.IntN(60)
		if at+hold >= to {
			return
		}
		sim.Input.Tap(sim.At(time.Duration(at)*tick), keys[r.IntN(len(keys))], time.Duration(hold)*tick)
	}
}

// sendable reports whether a's state can be encoded now.
func sendable(a *ecs.App) bool {
	var s ecs.Snapshot
	if err := a.Save(&s); err != nil {
		return false
	}
	_, err := s.AppendBinary(nil)
	return err == nil
}

// travel sends a's state to b: saved, encoded, decoded and restored. It
// checks that b's hash differed before and equals a's after, and returns
// the size of the snapshot.
func travel(t *testing.T, a, b *ecs.App) int {
	t.Helper()
	ha, hb := mustHash(t, a), mustHash(t, b)
	if ha.Total == hb.Total {
		t.Fatal("the receiver already has the sender's hash: the test would prove nothing")
	}
	var s, r ecs.Snapshot
	if err := a.Save(&s); err != nil {
		t.Fatal(err)
	}
	data, err := s.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.DecodeSnapshot(&r, data); err != nil {
		t.Fatal(err)
	}
	if err := b.Restore(&r); err != nil {
		t.Fatal(err)
	}
	sameHash(t, a, b, -1)
	return len(data)
}

func sameHash(t *testing.T, a, b *ecs.App, tick int) {
	t.Helper()
	ha, hb := mustHash(t, a), mustHash(t, b)
	if ha.Total != hb.Total {
		t.Fatalf("tick %d: hashes differ in %v", tick, ecs.DiffHashes(ha, hb))
	}
}

func mustHash(t *testing.T, a *ecs.App) ecs.Hash {
	t.Helper()
	h, err := a.Hash()
	if err != nil {
		t.Fatal(err)
	}
	return h
}
