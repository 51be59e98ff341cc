package ecs_test

import (
	"encoding/binary"
	"errors"
	"hash/crc64"
	goruntime "runtime"
	"testing"

	"github.com/metronome-go/metronome/ecs"
)

// FuzzSnapshotDecode decodes random and mutated snapshots of the churn
// game into a fresh one (seeded with its snapshots at a few ticks).
// Breakout, the duel and the demo have their own FuzzSnapshotDecode,
// seeded with their snapshots. Each run is slow (it measures what the
// decode allocates), so minimizing a new input takes long; for a quick
// look:
//
//	go test -run '^$' -fuzz FuzzSnapshotDecode -fuzztime 30s -fuzzminimizetime 1x ./ecs
func FuzzSnapshotDecode(f *testing.F) {
	a := churnGame(f)
	var seeds [][]byte
	for n := range uint64(120) {
		if n%40 == 0 {
			seeds = append(seeds, snapshotOf(f, a))
		}
		if err := a.Update(tick(n+1, 0)); err != nil {
			f.Fatal(err)
		}
	}
	fuzzSnapshotDecode(f, churnGame, seeds...)
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
