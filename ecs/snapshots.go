package ecs

import (
	"fmt"
)

// MaxSnapshots is the most snapshots a [Snapshots] ring holds.
const MaxSnapshots = 1 << 12

// Snapshots is a ring of [Snapshot] values of one App, keyed by tick: it
// keeps the last n ticks saved, each slot reused in place, so that once
// every slot has been used and the world's structure is steady, saving
// and restoring allocate nothing.
//
// A tick is the caller's number for a moment between ticks; by convention
// the number of the tick about to run, so Save(t) before tick t runs and
// Restore(t) goes back to just before it. A rollback session numbers its
// own ticks; the ring only asks that they be distinct.
//
// A Snapshots belongs to the simulation goroutine, like its App.
type Snapshots struct {
	app   *App
	slots []Snapshot
	ticks []uint64
	held  []bool
}

// NewSnapshots returns a ring of n snapshots of a, 1 <= n <=
// [MaxSnapshots]. It enables snapshots on a ([App.EnableSnapshots]) and
// fails with its refusals.
func NewSnapshots(a *App, n int) (*Snapshots, error) {
	if n < 1 || n > MaxSnapshots {
		return nil, fmt.Errorf("%w: ring of %d snapshots, allowed 1..%d", ErrSnapshot, n, MaxSnapshots)
	}
	if err := a.EnableSnapshots(); err != nil {
		return nil, err
	}
	return &Snapshots{app: a, slots: make([]Snapshot, n), ticks: make([]uint64, n), held: make([]bool, n)}, nil
}

// Len returns the number of slots.
func (r *Snapshots) Len() int { return len(r.slots) }

func (r *Snapshots) slot(tick uint64) int { return int(tick % uint64(len(r.slots))) }

// Save saves the App's state as that of tick, in the slot of the tick
// n earlier, which it drops. It fails as [App.Save] does, and then holds
// nothing for tick.
func (r *Snapshots) Save(tick uint64) error {
	i := r.slot(tick)
	r.held[i] = false
	if err := r.app.Save(&r.slots[i]); err != nil {
		return err
	}
	r.ticks[i], r.held[i] = tick, true
	return nil
}

// Holds reports whether the ring holds the state of tick.
func (r *Snapshots) Holds(tick uint64) bool {
	i := r.slot(tick)
	return r.held[i] && r.ticks[i] == tick
}

// Get returns the snapshot of tick, or nil when the ring does not hold it.
// It stays valid until the slot is saved again.
func (r *Snapshots) Get(tick uint64) *Snapshot {
	if !r.Holds(tick) {
		return nil
	}
	return &r.slots[r.slot(tick)]
}

// Restore puts the App back in the state saved for tick. The snapshot
// stays in the ring. It fails, changing nothing, when the ring does not
// hold tick (it was never saved, or a later save took its slot), and as
// [App.Restore] does.
func (r *Snapshots) Restore(tick uint64) error {
	if !r.Holds(tick) {
		i := r.slot(tick)
		if r.held[i] {
			return fmt.Errorf("%w: tick %d is not held (its slot holds tick %d; the ring keeps %d ticks)", ErrSnapshot, tick, r.ticks[i], len(r.slots))
		}
		return fmt.Errorf("%w: tick %d is not held (never saved; the ring keeps %d ticks)", ErrSnapshot, tick, len(r.slots))
	}
	return r.app.Restore(&r.slots[r.slot(tick)])
}
