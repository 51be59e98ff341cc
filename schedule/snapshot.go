package schedule

import (
	"fmt"
	"slices"
)

// Snapshot holds a copy of a queue's whole state: every pending entry with
// its due tick, sequence number, period and late-policy bookkeeping, the
// slots' generations (so that handles kept in game state name the same
// entries after a restore), the current tick, the next sequence number and
// the statistics. It is for rollback: [Queue.Save] fills one and
// [Queue.Restore] puts the queue back exactly as it was, so it delivers
// what it would have delivered from that point.
//
// A Snapshot reuses its storage: once it has held a queue of a given
// capacity, saving that queue again allocates nothing. Payloads are copied
// by assignment, so a payload that holds a pointer, slice or closure
// shares what it points to with the queue's copy.
//
// The zero Snapshot is empty and ready to use.
type Snapshot[T any] struct {
	slots     []entry[T]
	free      []int32
	ranks     []rank
	hslots    []int32
	pos       []int32
	keys      []key
	minDue    uint64
	structure Structure
	now       uint64
	seq       uint64
	stats     Stats
	retired   int
	valid     bool
}

// Valid reports whether s holds a saved state.
func (s *Snapshot[T]) Valid() bool { return s.valid }

// Now returns the current tick of the saved queue.
func (s *Snapshot[T]) Now() uint64 { return s.now }

// Save copies q's state into s, reusing s's storage. It panics when called
// during a dispatch, where the queue is between two consistent states.
func (q *Queue[T]) Save(s *Snapshot[T]) {
	if q.dispatching {
		panic("schedule: Save called during a dispatch")
	}
	// Every array holds at most one element per slot: sized to the
	// capacity once, a snapshot takes the queue again without allocating
	// whatever it holds then (a rollback ring's slots see it grow).
	n := len(q.slots)
	s.slots = append(slices.Grow(s.slots[:0], n), q.slots...)
	s.free = append(slices.Grow(s.free[:0], n), q.free...)
	s.structure = q.structure
	switch q.structure {
	case Heap:
		s.ranks = append(slices.Grow(s.ranks[:0], n), q.ord.heap.ranks...)
		s.hslots = append(slices.Grow(s.hslots[:0], n), q.ord.heap.slots...)
		s.pos = append(slices.Grow(s.pos[:0], n), q.ord.heap.pos...)
	case Scan:
		s.keys = append(slices.Grow(s.keys[:0], n), q.ord.scan.keys...)
		s.pos = append(slices.Grow(s.pos[:0], n), q.ord.scan.pos...)
		s.minDue = q.ord.scan.minDue
	}
	s.now, s.seq, s.stats, s.retired = q.now, q.seq, q.stats, q.retired
	s.valid = true
}

// Restore puts q back in the state saved in s: the same pending entries,
// handles, current tick, sequence and statistics. s is left as it is, so
// it can be restored again. Restore fails, changing nothing, when s holds
// nothing or was saved from a queue of another capacity or structure; it
// panics when called during a dispatch.
func (q *Queue[T]) Restore(s *Snapshot[T]) error {
	if q.dispatching {
		panic("schedule: Restore called during a dispatch")
	}
	switch {
	case !s.valid:
		return fmt.Errorf("%w: Restore of an empty snapshot", ErrInvalid)
	case len(s.slots) != len(q.slots) || s.structure != q.structure:
		return fmt.Errorf("%w: Restore of a snapshot of a queue of capacity %d (%v) into one of capacity %d (%v)",
			ErrInvalid, len(s.slots), s.structure, len(q.slots), q.structure)
	}
	copy(q.slots, s.slots)
	q.free = append(q.free[:0], s.free...)
	switch q.structure {
	case Heap:
		h := &q.ord.heap
		h.ranks = append(h.ranks[:0], s.ranks...)
		h.slots = append(h.slots[:0], s.hslots...)
		copy(h.pos, s.pos)
	case Scan:
		sc := q.ord.scan
		sc.keys = append(sc.keys[:0], s.keys...)
		copy(sc.pos, s.pos)
		sc.minDue = s.minDue
		sc.snap, sc.head, sc.active = sc.snap[:0], 0, false
	}
	q.now, q.seq, q.stats, q.retired = s.now, s.seq, s.stats, s.retired
	return nil
}
