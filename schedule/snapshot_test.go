package schedule_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/metronome-go/metronome/schedule"
)

// drive runs ticks from..to on q with a seeded mix of one-shot and periodic
// scheduling, cancels and reschedules, and returns what was delivered.
func drive(t *testing.T, q *schedule.Queue[int], r *rand.Rand, handles *[]schedule.Handle, from, to uint64) []string {
	t.Helper()
	var out []string
	for tick := from; tick <= to; tick++ {
		err := q.Advance(tick, func(d schedule.Delivery[int]) {
			out = append(out, fmt.Sprintf("%d:%d@%d/%d", d.Tick, d.Payload, d.Due, d.Count))
		})
		if err != nil {
			t.Fatal(err)
		}
		switch r.IntN(5) {
		case 0, 1:
			if h, err := q.After(uint64(1+r.IntN(6)), int(tick)); err == nil {
				*handles = append(*handles, h)
			}
		case 2:
			if h, err := q.Every(tick+1+uint64(r.IntN(3)), uint64(1+r.IntN(4)), schedule.Coalesce(), -int(tick)); err == nil {
				*handles = append(*handles, h)
			}
		case 3:
			if len(*handles) > 0 {
				q.Cancel((*handles)[r.IntN(len(*handles))])
			}
		case 4:
			if len(*handles) > 0 {
				_, _ = q.Reschedule((*handles)[r.IntN(len(*handles))], tick+uint64(1+r.IntN(5)))
			}
		}
	}
	return out
}

// A restored queue delivers from the saved tick on exactly what it
// delivered the first time, and the handles taken before the save name the
// same entries.
func TestSnapshotRestoreReplaysDeliveries(t *testing.T) {
	forEachStructure(t, func(t *testing.T, s schedule.Structure) {
		q, err := schedule.New[int](schedule.Options{Capacity: 32, Structure: s})
		if err != nil {
			t.Fatal(err)
		}
		pcg := rand.NewPCG(1, 2)
		r := rand.New(pcg)
		var handles []schedule.Handle
		drive(t, q, r, &handles, 1, 50)
		var snap schedule.Snapshot[int]
		q.Save(&snap)
		saved := *pcg
		kept := slices.Clone(handles)
		pendingBefore := make([]bool, len(kept))
		for i, h := range kept {
			pendingBefore[i] = q.Pending(h)
		}
		first := drive(t, q, r, &handles, 51, 120)
		statsFirst := q.Stats()

		for round := range 3 {
			if err := q.Restore(&snap); err != nil {
				t.Fatal(err)
			}
			if got, want := q.Now(), uint64(50); got != want {
				t.Fatalf("round %d: Now after restore = %d, want %d", round, got, want)
			}
			for i, h := range kept {
				if got := q.Pending(h); got != pendingBefore[i] {
					t.Fatalf("round %d: handle %v pending = %v after restore, want %v", round, h, got, pendingBefore[i])
				}
			}
			*pcg = saved
			handles = slices.Clone(kept)
			again := drive(t, q, r, &handles, 51, 120)
			if i := firstDiff(again, first); i >= 0 {
				t.Fatalf("round %d: delivery %d after restore differs: got %q, want %q", round, i, at(again, i), at(first, i))
			}
			if got := q.Stats(); got != statsFirst {
				t.Fatalf("round %d: stats %+v, want %+v", round, got, statsFirst)
			}
		}
	})
}

func TestSnapshotRestoreRefusesMismatch(t *testing.T) {
	small, _ := schedule.New[int](schedule.Options{Capacity: 4})
	big, _ := schedule.New[int](schedule.Options{Capacity: 8})
	var snap schedule.Snapshot[int]
	if err := big.Restore(&snap); !errors.Is(err, schedule.ErrInvalid) {
		t.Fatalf("Restore of an empty snapshot: %v, want ErrInvalid", err)
	}
	small.Save(&snap)
	if err := big.Restore(&snap); !errors.Is(err, schedule.ErrInvalid) {
		t.Fatalf("Restore across capacities: %v, want ErrInvalid", err)
	}
}

func firstDiff(a, b []string) int {
	for i := range max(len(a), len(b)) {
		if at(a, i) != at(b, i) {
			return i
		}
	}
	return -1
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(none)"
}
