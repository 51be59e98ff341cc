//go:build !race

package schedule_test

import (
	goruntime "runtime"
	"testing"

	"github.com/metronome-go/metronome/schedule"
)

// The per-tick path must not allocate once the queue exists: scheduling,
// cancelling, rescheduling, dispatching (periodic entries of every policy,
// catch-up bursts after skipped ticks, cancellation and scheduling from
// inside a delivery) and clearing.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	type fx struct {
		target *int // a pointer in the payload must not make it escape
		name   string
		amount float64
	}
	forEachStructure(t, func(t *testing.T, s schedule.Structure) {
		q, err := schedule.New[fx](schedule.Options{Capacity: 64, Structure: s})
		if err != nil {
			t.Fatal(err)
		}
		hp := 100
		for i, late := range []schedule.LatePolicy{schedule.Skip(), schedule.Coalesce(), schedule.CatchUp(3)} {
			if _, err := q.Every(uint64(i+1), uint64(i+2), late, fx{target: &hp, name: "regen"}); err != nil {
				t.Fatal(err)
			}
		}
		var cooldown schedule.Cooldown
		repeat := schedule.NewRepeat(1, 4)
		var last schedule.Handle
		delivered := 0
		deliver := func(d schedule.Delivery[fx]) {
			delivered++
			*d.Payload.target += int(d.Count)
			if d.Payload.name == "burn" {
				q.Cancel(last)
				last, _ = q.After(2, fx{target: &hp, name: "after burn"})
			}
		}
		tick := uint64(0)
		step := func() {
			tick++
			if tick%10 == 0 {
				tick += 4 // skipped ticks: late periodic entries
			}
			h, _ := q.After(1+tick%5, fx{target: &hp, name: "burn", amount: 1.5})
			if tick%3 == 0 {
				_, _ = q.Reschedule(h, tick+7)
			}
			if tick%4 == 0 {
				q.Cancel(h)
			}
			_, _ = q.Due(h)
			_, _ = q.Payload(h)
			if err := q.Advance(tick, deliver); err != nil {
				t.Fatal(err)
			}
			cooldown.Use(tick, 3)
			_ = cooldown.Remaining(tick) + repeat.Fire(tick)
			_ = cooldown.Progress(tick)
			if tick%97 == 0 {
				q.Clear()
			}
		}
		for range 200 { // reach the steady state
			step()
		}
		if allocs := testing.AllocsPerRun(2000, step); allocs != 0 {
			t.Errorf("allocations per tick = %v, want 0", allocs)
		}
		if delivered == 0 {
			t.Error("nothing was delivered")
		}
	})
}

// Saving and restoring a queue reuses the snapshot's storage.
func TestSnapshotAllocatesNothing(t *testing.T) {
	forEachStructure(t, func(t *testing.T, s schedule.Structure) {
		q, err := schedule.New[int](schedule.Options{Capacity: 256, Structure: s})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 100 {
			if _, err := q.After(uint64(1+i%7), i); err != nil {
				t.Fatal(err)
			}
		}
		var snap schedule.Snapshot[int]
		q.Save(&snap)
		tick := uint64(0)
		allocs := testing.AllocsPerRun(100, func() {
			q.Save(&snap)
			tick++
			_ = q.Advance(tick, func(schedule.Delivery[int]) {})
			if err := q.Restore(&snap); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Fatalf("save, advance and restore allocate %v times, want 0", allocs)
		}
	})
}

// A snapshot that has held a queue once takes it again without
// allocating, however many more entries the queue holds then: a rollback
// ring's slots save a queue whose length changes from tick to tick.
func TestSaveOfAGrownQueueAllocatesNothing(t *testing.T) {
	forEachStructure(t, func(t *testing.T, s schedule.Structure) {
		q, err := schedule.New[int](schedule.Options{Capacity: 64, Structure: s})
		if err != nil {
			t.Fatal(err)
		}
		var snap schedule.Snapshot[int]
		q.Save(&snap) // the queue empty
		for i := range 60 {
			if _, err := q.At(uint64(100+i), i); err != nil {
				t.Fatal(err)
			}
		}
		// One call, so AllocsPerRun's warm-up run would hide it.
		var before, after goruntime.MemStats
		goruntime.ReadMemStats(&before)
		q.Save(&snap)
		goruntime.ReadMemStats(&after)
		if n := after.Mallocs - before.Mallocs; n != 0 {
			t.Fatalf("Save of the queue grown to 60 entries allocates %d times, want 0", n)
		}
	})
}
