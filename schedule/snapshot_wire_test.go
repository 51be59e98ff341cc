package schedule_test

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/metronome-go/metronome/schedule"
)

func putInt(b []byte, p *int) ([]byte, error) {
	return binary.LittleEndian.AppendUint64(b, uint64(*p)), nil
}

func getInt(b []byte, p *int) ([]byte, error) {
	if len(b) < 8 {
		return b, errors.New("payload cut short")
	}
	*p = int(binary.LittleEndian.Uint64(b))
	return b[8:], nil
}

// A snapshot's binary form, decoded and restored into another queue of
// the same capacity, delivers what the first queue delivers, with the
// same statistics and handles.
func TestSnapshotBinaryRoundTrip(t *testing.T) {
	forEachStructure(t, func(t *testing.T, s schedule.Structure) {
		q, err := schedule.New[int](schedule.Options{Capacity: 32, Structure: s})
		if err != nil {
			t.Fatal(err)
		}
		pcg := rand.NewPCG(1, 2)
		r := rand.New(pcg)
		var handles []schedule.Handle
		drive(t, q, r, &handles, 1, 50)
		var snap, back schedule.Snapshot[int]
		q.Save(&snap)
		b, err := snap.AppendBinary(nil, putInt)
		if err != nil {
			t.Fatal(err)
		}
		rest, err := back.DecodeBinary(append(b, 7), 32, getInt)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rest, []byte{7}) {
			t.Fatalf("rest after decoding %v, want the byte that followed", rest)
		}
		other, err := schedule.New[int](schedule.Options{Capacity: 32, Structure: s})
		if err != nil {
			t.Fatal(err)
		}
		if err := other.Restore(&back); err != nil {
			t.Fatal(err)
		}
		saved, kept := *pcg, slices.Clone(handles)
		first := drive(t, q, r, &handles, 51, 120)
		*pcg, handles = saved, kept
		again := drive(t, other, r, &handles, 51, 120)
		if i := firstDiff(again, first); i >= 0 {
			t.Fatalf("delivery %d of the decoded queue differs: got %q, want %q", i, at(again, i), at(first, i))
		}
		if q.Stats() != other.Stats() {
			t.Fatalf("stats %+v, want %+v", other.Stats(), q.Stats())
		}
		// Cut short anywhere (in the queue's part, ErrInvalid; in a
		// payload, getInt's error), or for another capacity: an error.
		for n := range len(b) {
			if _, err := back.DecodeBinary(b[:n], 32, getInt); err == nil {
				t.Fatalf("decoding the first %d of %d bytes succeeded", n, len(b))
			}
		}
		if _, err := back.DecodeBinary(b, 16, getInt); !errors.Is(err, schedule.ErrInvalid) {
			t.Fatalf("decoding for a queue of capacity 16: %v, want ErrInvalid", err)
		}
	})
}

// FuzzSnapshotDecodeBinary decodes random and mutated binary snapshots,
// seeded with those of driven queues of both structures, for a queue of
// capacity 32. A decode must fail with an error or give a snapshot whose
// form encodes and decodes again to the same bytes, and that a queue of
// its structure restores and then runs (scheduling, cancelling and
// delivering for 100 ticks) without a panic, an error other than a
// periodic entry leaving the tick range, or a delivery that Stats does
// not count.
//
//	go test -run '^$' -fuzz FuzzSnapshotDecodeBinary -fuzztime 30s ./schedule
func FuzzSnapshotDecodeBinary(f *testing.F) {
	const capacity = 32
	for _, s := range structures {
		q, err := schedule.New[int](schedule.Options{Capacity: capacity, Structure: s})
		if err != nil {
			f.Fatal(err)
		}
		var handles []schedule.Handle
		for tick := uint64(1); tick <= 60; tick++ {
			if err := q.Advance(tick, func(schedule.Delivery[int]) {}); err != nil {
				f.Fatal(err)
			}
			switch tick % 4 {
			case 0:
				h, _ := q.After(1+tick%7, int(tick))
				handles = append(handles, h)
			case 1:
				h, _ := q.Every(tick+2, 1+tick%3, schedule.Coalesce(), -int(tick))
				handles = append(handles, h)
			case 2:
				q.Cancel(handles[len(handles)/2])
			}
			if tick%20 == 0 {
				var snap schedule.Snapshot[int]
				q.Save(&snap)
				b, err := snap.AppendBinary(nil, putInt)
				if err != nil {
					f.Fatal(err)
				}
				f.Add(b)
			}
		}
	}
	var snap, again schedule.Snapshot[int]
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := snap.DecodeBinary(data, capacity, getInt); err != nil {
			return
		}
		b, err := snap.AppendBinary(nil, putInt)
		if err != nil {
			t.Fatalf("encoding a decoded snapshot: %v", err)
		}
		if _, err := again.DecodeBinary(b, capacity, getInt); err != nil {
			t.Fatalf("decoding a decoded snapshot's form: %v", err)
		}
		if b2, err := again.AppendBinary(nil, putInt); err != nil || !slices.Equal(b2, b) {
			t.Fatalf("a decoded snapshot's form decodes and encodes to other bytes (%v)", err)
		}
		for _, s := range structures {
			q, err := schedule.New[int](schedule.Options{Capacity: capacity, Structure: s})
			if err != nil {
				t.Fatal(err)
			}
			if err := q.Restore(&snap); err != nil {
				continue // of the other structure
			}
			if q.Now() > math.MaxUint64-200 {
				return
			}
			var handles []schedule.Handle
			for k := range uint64(100) {
				tick := q.Now() + 1
				before := q.Stats().Delivered
				n := 0
				err := q.Advance(tick, func(schedule.Delivery[int]) { n++ })
				if err != nil && !errors.Is(err, schedule.ErrTickRange) {
					t.Fatalf("tick %d after the restore: %v", tick, err)
				}
				if got := q.Stats().Delivered - before; got != uint64(n) {
					t.Fatalf("tick %d after the restore: %d deliveries, Stats counts %d", tick, n, got)
				}
				if h, err := q.After(1+k%5, int(k)); err == nil {
					handles = append(handles, h)
				}
				if k%3 == 0 && len(handles) > 0 {
					q.Cancel(handles[0])
					handles = handles[1:]
				}
			}
			if q.Len() > q.Cap() {
				t.Fatalf("%d entries pending in a queue of %d slots", q.Len(), q.Cap())
			}
		}
	})
}
