package main

import (
	"encoding/binary"
	"errors"
	"hash/crc64"
	"math/rand/v2"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/frameworktest"
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
	sent := at
	for ; !sendable(sender.App); sent++ {
		if sent == at+more/2 {
			t.Fatalf("no tick from %d to %d without an event with a Run function pending", at, sent)
		}
		stepBoth(t, sender, receiver)
	}
	n := travel(t, sender.App, receiver.App)
	t.Logf("tick %d: %d bytes (%d chunks of 1,000 bytes)", sent, n, (n+999)/1000)
	// The same input from here on, for both.
	for _, sim := range []*frameworktest.Sim{sender, receiver} {
		for seat := range seatKeys {
			randomSeatFrom(sim, seat, sent+1, sent+more, 47)
		}
	}
	for k := range more {
		stepBoth(t, sender, receiver)
		sameHash(t, sender.App, receiver.App, sent+1+k)
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
	r := newRand(seed, seat)
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

func newRand(seed uint64, seat int) *rand.Rand { return rand.New(rand.NewPCG(seed, uint64(seat)+7)) }

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
	benchSnapshot(b, a.App, to.App)
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
func travel(t testing.TB, a, b *ecs.App) int {
	t.Helper()
	if mustHash(t, a).Total == mustHash(t, b).Total {
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

func sameHash(t testing.TB, a, b *ecs.App, tick int) {
	t.Helper()
	ha, hb := mustHash(t, a), mustHash(t, b)
	if ha.Total != hb.Total {
		t.Fatalf("tick %d: hashes differ in %v", tick, ecs.DiffHashes(ha, hb))
	}
}

func mustHash(t testing.TB, a *ecs.App) ecs.Hash {
	t.Helper()
	h, err := a.Hash()
	if err != nil {
		t.Fatal(err)
	}
	return h
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

// benchSnapshot measures encoding a's snapshot into a reused buffer and
// decoding it into a snapshot of b, per snapshot and per entity, beside
// the in-memory save (App.Save into a used snapshot) as the baseline.
func benchSnapshot(b *testing.B, a, to *ecs.App) {
	var s, r ecs.Snapshot
	if err := a.Save(&s); err != nil {
		b.Fatal(err)
	}
	buf, err := s.AppendBinary(nil)
	if err != nil {
		b.Fatal(err)
	}
	n := float64(s.Entities())
	b.Run("save", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := a.Save(&s); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/entity")
	})
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if buf, err = s.AppendBinary(buf[:0]); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(buf)), "bytes")
		b.ReportMetric(n, "entities")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/entity")
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := to.DecodeSnapshot(&r, buf); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(buf)), "bytes")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/entity")
	})
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
	fuzzSnapshotDecode(f, func(t testing.TB) *ecs.App { a, _ := newPair(t); return a.App }, snapshotOf(f, sim.App))
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
