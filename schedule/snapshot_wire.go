package schedule

import (
	"fmt"
	"math"
	"slices"

	"github.com/metronome-go/metronome/internal/binio"
)

// The binary form of a Snapshot, for sending a queue's state to another
// process (package ecs puts it in its snapshots' encoding). Every number
// is little-endian and fixed-width, so the bytes are the same on every
// machine:
//
//	capacity u32, structure u8, now u64, seq u64, retired u32,
//	stats: Scheduled, Refused, Cancelled, Delivered, Dropped, Coalesced,
//	       Peak, each u64,
//	free: count u32, then each slot index u32 (the stack, bottom first),
//	then the slots in order, in groups: 0 u8, a count n u32 and a
//	generation u32 for n slots in a row with nothing pending that share
//	that generation (a queue that never filled is mostly one such
//	group); or 1 u8, the generation u32, due u64, seq u64, period u64,
//	late mode u8, late limit u64, count u64, dropped u64 and the payload
//	as the caller's put writes it, for one slot with an entry pending.
//
// The ordering structure's arrays are not sent: a decoded snapshot has
// them rebuilt from the live entries, sorted by (due, sequence), which is
// a valid heap and a valid scan order, and delivers in the same order,
// since that order is fixed by the keys alone.

// AppendBinary appends the binary form of s to b, each live entry's
// payload written by put, and returns the extended slice; put's error is
// returned as it is. It fails for an empty snapshot.
func (s *Snapshot[T]) AppendBinary(b []byte, put func(b []byte, p *T) ([]byte, error)) ([]byte, error) {
	if !s.valid {
		return b, fmt.Errorf("%w: AppendBinary of an empty snapshot", ErrInvalid)
	}
	b = binio.AppendU32(b, uint32(len(s.slots)))
	b = append(b, byte(s.structure))
	b = binio.AppendU64(b, s.now)
	b = binio.AppendU64(b, s.seq)
	b = binio.AppendU32(b, uint32(s.retired))
	st := &s.stats
	for _, v := range [...]uint64{st.Scheduled, st.Refused, st.Cancelled, st.Delivered, st.Dropped, st.Coalesced, uint64(st.Peak)} {
		b = binio.AppendU64(b, v)
	}
	b = binio.AppendU32(b, uint32(len(s.free)))
	for _, f := range s.free {
		b = binio.AppendU32(b, uint32(f))
	}
	for i := 0; i < len(s.slots); {
		e := &s.slots[i]
		if !e.live {
			n := 1
			for i+n < len(s.slots) && !s.slots[i+n].live && s.slots[i+n].gen == e.gen {
				n++
			}
			b = append(b, 0)
			b = binio.AppendU32(b, uint32(n))
			b = binio.AppendU32(b, e.gen)
			i += n
			continue
		}
		i++
		b = append(b, 1)
		b = binio.AppendU32(b, e.gen)
		b = binio.AppendU64(b, e.due)
		b = binio.AppendU64(b, e.seq)
		b = binio.AppendU64(b, e.period)
		b = append(b, byte(e.late.mode))
		b = binio.AppendU64(b, uint64(e.late.limit))
		b = binio.AppendU64(b, e.count)
		b = binio.AppendU64(b, e.dropped)
		var err error
		if b, err = put(b, &e.payload); err != nil {
			return b, err
		}
	}
	return b, nil
}

// DecodeBinary sets s to the snapshot in the binary form at the start of
// b, of a queue of the given capacity (that of the queue it is for,
// which [Queue.Restore] requires), each live entry's payload read by get
// (which returns what follows the payload), and returns the rest of b.
// It checks that the form is whole and consistent (every slot either
// pending, free or retired, the free stack without repeats, every pending
// entry due after the current tick with its own sequence number below the
// next one), so that [Queue.Restore] of the result cannot break the
// queue; a failure wraps [ErrInvalid] (get's error is returned as it is)
// and leaves s empty. Apart from the payloads, it allocates no more than
// the queue it is for holds already.
func (s *Snapshot[T]) DecodeBinary(b []byte, capacity int, get func(b []byte, p *T) ([]byte, error)) ([]byte, error) {
	s.valid = false
	d := binio.NewBareReader(b, ErrInvalid)
	n := d.U32()
	structure := Structure(d.Byte())
	now, seq, retired := d.U64(), d.U64(), d.U32()
	var st Stats
	for _, p := range [...]*uint64{&st.Scheduled, &st.Refused, &st.Cancelled, &st.Delivered, &st.Dropped, &st.Coalesced} {
		*p = d.U64()
	}
	peak := d.U64()
	nfree := d.U32()
	switch {
	case d.Err() != nil:
		return b, cutShort(&d, "header")
	case int64(n) != int64(capacity):
		return b, fmt.Errorf("%w: snapshot of a queue of capacity %d, for one of capacity %d", ErrInvalid, n, capacity)
	case structure != Heap && structure != Scan:
		return b, fmt.Errorf("%w: snapshot of structure %d, allowed Heap or Scan", ErrInvalid, structure)
	case nfree > n || uint64(retired) > uint64(n)-uint64(nfree):
		return b, fmt.Errorf("%w: snapshot with %d free and %d retired slots of %d", ErrInvalid, nfree, retired, n)
	case peak > uint64(n):
		return b, fmt.Errorf("%w: snapshot with a peak of %d entries in %d slots", ErrInvalid, peak, n)
	}
	st.Peak = int(peak)
	s.slots = slices.Grow(s.slots[:0], int(n))[:n]
	clear(s.slots)
	s.free = s.free[:0]
	inFree := s.pos[:0] // scratch: 1 for a free slot
	inFree = slices.Grow(inFree, int(n))[:n]
	clear(inFree)
	for range nfree {
		f := d.U32()
		if d.Err() != nil {
			return b, cutShort(&d, "free slots")
		}
		if f >= n || inFree[f] != 0 {
			return b, fmt.Errorf("%w: snapshot's free stack holds slot %d twice or out of 0..%d", ErrInvalid, f, n-1)
		}
		inFree[f] = 1
		s.free = append(s.free, int32(f))
	}
	s.keys = s.keys[:0]
	var unused uint32
	for i := 0; i < len(s.slots); {
		group := d.Byte()
		switch {
		case d.Err() != nil:
			return b, cutShort(&d, fmt.Sprintf("slot %d", i))
		case group > 1:
			return b, fmt.Errorf("%w: snapshot's slot %d starts a group of kind %d, allowed 0 or 1", ErrInvalid, i, group)
		case group == 0:
			cnt, gen := d.U32(), d.U32()
			if d.Err() != nil {
				return b, cutShort(&d, fmt.Sprintf("slot %d", i))
			}
			if cnt < 1 || uint64(i)+uint64(cnt) > uint64(n) {
				return b, fmt.Errorf("%w: snapshot's slot %d starts a group of %d slots, allowed 1..%d", ErrInvalid, i, cnt, int(n)-i)
			}
			for k := i; k < i+int(cnt); k++ {
				s.slots[k].gen = gen
				switch {
				case inFree[k] != 0 && gen == 0:
					return b, fmt.Errorf("%w: snapshot's slot %d is free and retired", ErrInvalid, k)
				case inFree[k] == 0 && gen != 0:
					return b, fmt.Errorf("%w: snapshot's slot %d is neither pending, free nor retired", ErrInvalid, k)
				case inFree[k] == 0:
					unused++
				}
			}
			i += int(cnt)
			continue
		}
		e := &s.slots[i]
		e.gen = d.U32()
		if inFree[i] != 0 || e.gen == 0 {
			return b, fmt.Errorf("%w: snapshot's slot %d is pending and free or retired", ErrInvalid, i)
		}
		e.live = true
		e.due, e.seq, e.period = d.U64(), d.U64(), d.U64()
		mode, limit := lateMode(d.Byte()), d.U64()
		e.count, e.dropped = d.U64(), d.U64()
		switch {
		case d.Err() != nil:
			return b, cutShort(&d, fmt.Sprintf("slot %d", i))
		case mode > lateCatchUp || limit > math.MaxInt32:
			return b, fmt.Errorf("%w: snapshot's slot %d has late policy %d (limit %d), allowed Skip, Coalesce or CatchUp up to %d", ErrInvalid, i, mode, limit, math.MaxInt32)
		case e.due <= now || e.seq >= seq:
			return b, fmt.Errorf("%w: snapshot's slot %d is due at %d with sequence %d; allowed: due after tick %d, sequence below %d", ErrInvalid, i, e.due, e.seq, now, seq)
		}
		e.late = LatePolicy{mode: mode, limit: int(limit)}
		rest, err := get(d.Rest(), &e.payload)
		if err != nil {
			return b, err
		}
		d.Continue(rest)
		s.keys = append(s.keys, key{due: e.due, seq: e.seq, slot: int32(i)})
		i++
	}
	if unused != retired {
		return b, fmt.Errorf("%w: snapshot counts %d retired slots and has %d", ErrInvalid, retired, unused)
	}
	slices.SortFunc(s.keys, compareKeys)
	for i := 1; i < len(s.keys); i++ {
		if s.keys[i].seq == s.keys[i-1].seq {
			return b, fmt.Errorf("%w: snapshot has two entries of sequence %d", ErrInvalid, s.keys[i].seq)
		}
	}
	s.pos = inFree
	for i := range s.pos {
		s.pos[i] = -1
	}
	for i, k := range s.keys {
		s.pos[k.slot] = int32(i)
	}
	s.structure, s.now, s.seq, s.stats, s.retired = structure, now, seq, st, int(retired)
	s.ranks, s.hslots, s.minDue = s.ranks[:0], s.hslots[:0], math.MaxUint64
	switch structure {
	case Heap:
		for _, k := range s.keys {
			s.ranks = append(s.ranks, rank{due: k.due, seq: k.seq})
			s.hslots = append(s.hslots, k.slot)
		}
		s.keys = s.keys[:0]
	case Scan:
		if len(s.keys) > 0 {
			s.minDue = s.keys[0].due
		}
	}
	s.valid = true
	return d.Rest(), nil
}

// cutShort is d's failure, said as where in the snapshot it ran out.
func cutShort(d *binio.Reader, where string) error {
	return fmt.Errorf("%w: snapshot cut short in its %s (%w)", ErrInvalid, where, d.Err())
}
