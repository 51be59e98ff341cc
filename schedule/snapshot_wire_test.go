package schedule_test

import (
	"encoding/binary"
	"errors"
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
