package ecstest

import (
	"encoding/binary"
	"errors"
	"hash/crc64"
	goruntime "runtime"
	"testing"

	"github.com/metronome-go/metronome/ecs"
)

// Hash returns a's world hash, failing t if it cannot be taken.
func Hash(t testing.TB, a *ecs.App) ecs.Hash {
	t.Helper()
	h, err := a.Hash()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// SameHash fails t, naming tick and the parts that differ, unless a and b
// have the same world hash.
func SameHash(t testing.TB, a, b *ecs.App, tick int) {
	t.Helper()
	ha, hb := Hash(t, a), Hash(t, b)
	if ha.Total != hb.Total {
		t.Fatalf("tick %d: hashes differ in %v", tick, ecs.DiffHashes(ha, hb))
	}
}

// Encode returns the binary form of a's state: a saved snapshot, encoded.
func Encode(t testing.TB, a *ecs.App) []byte {
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

// Travel sends a's state to b, an App of the same game: saved, encoded,
// decoded into a snapshot of b and restored. It fails t unless b's hash
// differed from a's before (else the transfer would prove nothing) and
// equals it after, and returns the bytes that travelled. Call it between
// ticks, as [ecs.App.Save].
func Travel(t testing.TB, a, b *ecs.App) []byte {
	t.Helper()
	if Hash(t, a).Total == Hash(t, b).Total {
		t.Fatal("the receiver already has the sender's hash: the transfer would prove nothing")
	}
	data := Encode(t, a)
	var r ecs.Snapshot
	if err := b.DecodeSnapshot(&r, data); err != nil {
		t.Fatal(err)
	}
	if err := b.Restore(&r); err != nil {
		t.Fatal(err)
	}
	if ha, hb := Hash(t, a), Hash(t, b); ha.Total != hb.Total {
		t.Fatalf("after the transfer the hashes differ in %v", ecs.DiffHashes(ha, hb))
	}
	return data
}

// FuzzDecode fuzzes [ecs.App.DecodeSnapshot] on one App that receiver
// makes, seeded with seeds (snapshots of the game, from [Encode]). Half
// the inputs get a correct header (length and checksum) put before them,
// so that the body's own checks are reached. A decode must fail with an
// error wrapping [ecs.ErrSnapshot] or give a snapshot that restores and
// hashes, never panic, and allocate at most 256 bytes per input byte plus
// 1 MiB. Each run measures what the decode allocates, so it is slow, and
// minimizing a new input takes long; for a quick look run the target with
// -fuzzminimizetime 1x.
func FuzzDecode(f *testing.F, receiver func(testing.TB) *ecs.App, seeds ...[]byte) {
	for _, s := range seeds {
		f.Add(true, s[header:])
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

// The header of the binary form: magic, version u32, body length u64 and
// the body's CRC-64 (ECMA) u64.
const (
	magic  = "MTNMSNAP"
	header = len(magic) + 4 + 8 + 8
)

var crcTable = crc64.MakeTable(crc64.ECMA)

// withHeader puts a snapshot's header with the right length and checksum
// before body.
func withHeader(body []byte) []byte {
	b := append([]byte(magic), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(b[len(magic):], ecs.SnapshotVersion)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(body)))
	b = binary.LittleEndian.AppendUint64(b, crc64.Checksum(body, crcTable))
	return append(b, body...)
}

// BenchWire measures, as sub-benchmarks, encoding a's snapshot into a
// reused buffer ("encode") and decoding it into a snapshot of to
// ("decode"), an App of the same game, beside the in-memory save into a
// used snapshot ("save") as the baseline; each reports its time per
// entity, and encode and decode the snapshot's size.
func BenchWire(b *testing.B, a, to *ecs.App) {
	var s, r ecs.Snapshot
	if err := a.Save(&s); err != nil {
		b.Fatal(err)
	}
	buf, err := s.AppendBinary(nil)
	if err != nil {
		b.Fatal(err)
	}
	n := float64(s.Entities())
	perEntity := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/entity")
	}
	b.Run("save", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := a.Save(&s); err != nil {
				b.Fatal(err)
			}
		}
		perEntity(b)
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
		perEntity(b)
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := to.DecodeSnapshot(&r, buf); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(buf)), "bytes")
		perEntity(b)
	})
}
