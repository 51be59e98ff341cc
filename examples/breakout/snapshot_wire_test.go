package main

import (
	"encoding/binary"
	"errors"
	"hash/crc64"
	"math/rand/v2"
	goruntime "runtime"
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

// FuzzSnapshotDecode decodes random and mutated snapshots of Breakout
// into a fresh game, seeded with its snapshot after seeded play.
//
//	go test -run '^$' -fuzz FuzzSnapshotDecode -fuzztime 30s -fuzzminimizetime 1x ./examples/breakout
func FuzzSnapshotDecode(f *testing.F) {
	sim := breakoutSim(f)
	tapKeys(sim, 25, 0, 600, []input.Button{input.KeySpace, input.KeyLeft, input.KeyRight})
	if err := sim.Step(600); err != nil {
		f.Fatal(err)
	}
	for !sendable(sim.App) {
		if err := sim.Step(1); err != nil {
			f.Fatal(err)
		}
	}
	fuzzSnapshotDecode(f, func(t testing.TB) *ecs.App { return breakoutSim(t).App }, snapshotOf(f, sim.App))
}

func breakoutSim(t testing.TB) *frameworktest.Sim {
	t.Helper()
	sim, err := frameworktest.New(newGame(), frameworktest.Options{Sets: slices.Clone(small)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	return sim
}

// fuzzSnapshotDecode fuzzes ecs.App.DecodeSnapshot on receiver, seeded
// with seeds: half the inputs get a correct header (length and
// checksum) so that the body's own checks are reached. A decode must
// fail with an error or give a snapshot that restores and hashes, never
// panic, and allocate no more than a bound of its input's length.
func fuzzSnapshotDecode(f *testing.F, receiver func(testing.TB) *ecs.App, seeds ...[]byte) {
	for _, s := range seeds {
		f.Add(true, s[snapshotHeader:])
		f.Add(false, s)
	}
	recv := receiver(f)
	var snap ecs.Snapshot
	f.Fuzz(func(t *testing.T, fix bool, data []byte) {
		if fix {
			data = withHeader(data)
		}
		var before, after goruntime.MemStats
		goruntime.ReadMemStats(&before)
		err := recv.DecodeSnapshot(&snap, data)
		goruntime.ReadMemStats(&after)
		if got, bound := after.TotalAlloc-before.TotalAlloc, uint64(256*len(data)+1<<20); got > bound {
			t.Errorf("decoding %d bytes allocated %d bytes, over the bound of %d", len(data), got, bound)
		}
		if err != nil {
			if !errors.Is(err, ecs.ErrSnapshot) {
				t.Fatalf("decode failed with %v, not an ecs.ErrSnapshot", err)
			}
			return
		}
		if err := recv.Restore(&snap); err != nil {
			t.Fatalf("restore of a decoded snapshot: %v", err)
		}
		if _, err := recv.Hash(); err != nil {
			t.Fatalf("hash after restoring a decoded snapshot: %v", err)
		}
	})
}

const snapshotHeader = 8 + 4 + 8 + 8

// withHeader puts a snapshot's header with the right length and checksum
// before body.
func withHeader(body []byte) []byte {
	b := append([]byte("MTNMSNAP"), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(b[8:], ecs.SnapshotVersion)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(body)))
	b = binary.LittleEndian.AppendUint64(b, crc64.Checksum(body, crc64.MakeTable(crc64.ECMA)))
	return append(b, body...)
}

// snapshotOf returns the binary form of a's state.
func snapshotOf(t testing.TB, a *ecs.App) []byte {
	t.Helper()
	var s ecs.Snapshot
	if err := a.Save(&s); err != nil {
		t.Fatal(err)
	}
	b, err := s.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
