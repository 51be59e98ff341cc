package schedule

import (
	"errors"
	"fmt"
	"math"
)

// Sentinel errors. The errors returned by the queue wrap one of these with
// the values involved; test for them with [errors.Is].
var (
	// ErrFull: the queue already holds as many entries as its capacity.
	ErrFull = errors.New("schedule: queue full")
	// ErrTooEarly: a due tick is not after the queue's current tick.
	ErrTooEarly = errors.New("schedule: due tick not after the current tick")
	// ErrTickRange: a due tick would pass the largest uint64 tick.
	ErrTickRange = errors.New("schedule: tick range exhausted")
	// ErrSequenceRange: the queue has handed out every sequence number.
	ErrSequenceRange = errors.New("schedule: sequence range exhausted")
	// ErrTickBackwards: Advance was given a tick before the current tick.
	ErrTickBackwards = errors.New("schedule: tick went backwards")
	// ErrInvalid: an option or argument is outside its allowed range.
	ErrInvalid = errors.New("schedule: invalid argument")
)

// MaxCapacity is the largest capacity a queue accepts.
const MaxCapacity = 1 << 24

// MaxCatchUp is the largest per-dispatch limit [CatchUp] accepts.
const MaxCatchUp = 1 << 16

// Structure selects how a queue keeps its entries in order. Both structures
// deliver exactly the same sequence; they differ only in cost.
type Structure uint8

const (
	// DefaultStructure is the structure chosen by measurement: [Heap].
	DefaultStructure Structure = iota
	// Heap is an indexed 4-ary min-heap: O(log n) schedule, cancel and
	// delivery. In steady state (one entry scheduled and one delivered per
	// tick) it measured within 10% of Scan up to 32 pending entries and
	// faster from 64 on: 7 times at 1,000, over 100 times at 100,000.
	Heap
	// Scan is a contiguous array scanned once per tick that has anything
	// due: O(1) schedule and cancel, O(n) per such tick. Schedule and
	// cancel measured at about half the cost of Heap's, so it can suit a
	// small queue whose entries are mostly cancelled or moved before they
	// fire.
	Scan
)

func (s Structure) String() string {
	switch s {
	case DefaultStructure:
		return "default"
	case Heap:
		return "heap"
	case Scan:
		return "scan"
	}
	return fmt.Sprintf("Structure(%d)", uint8(s))
}

// Options configures [New]. Capacity is required; the zero value of every
// other field is its default.
type Options struct {
	// Capacity is the most entries the queue holds at once, 1..MaxCapacity.
	// Storage for all of them is allocated by New and never grows.
	Capacity int
	// Start is the queue's current tick when it is created: entries may be
	// scheduled from Start+1 on. Default 0.
	Start uint64
	// Structure picks the ordering structure. Default [Heap].
	Structure Structure
}

// Handle names one scheduled entry. It carries the generation of the slot
// the entry lives in, so a handle whose entry was delivered, cancelled or
// cleared stays stale even when the slot is reused. The zero Handle never
// names an entry; a component can store it to mean "no timer".
type Handle struct {
	slot uint32
	gen  uint32
}

// IsZero reports whether h is the zero Handle.
func (h Handle) IsZero() bool { return h == Handle{} }

// String returns the handle as slot:generation, for logs and test failures.
func (h Handle) String() string { return fmt.Sprintf("%d:%d", h.slot, h.gen) }

// Delivery is one entry handed to the function given to [Queue.Advance].
type Delivery[T any] struct {
	Handle  Handle
	Payload T
	// Due is the tick of the occurrence delivered; at most Tick.
	Due uint64
	// Tick is the tick being dispatched.
	Tick uint64
	// Count is how many occurrences this delivery stands for: more than 1
	// only for a periodic entry under [Coalesce] that missed ticks.
	Count uint64
	// Dropped is how many earlier occurrences of a periodic entry were
	// dropped, not delivered, before this one ([Skip], or the limit of
	// [CatchUp]).
	Dropped uint64
	// Last reports that the handle is no longer pending after this
	// delivery: always for a one-shot entry, and for a periodic entry
	// whose next occurrence would pass the tick range.
	Last bool
}

// Late reports how many ticks after its due tick the delivery came.
func (d Delivery[T]) Late() uint64 { return d.Tick - d.Due }

type entry[T any] struct {
	payload T
	due     uint64
	seq     uint64
	period  uint64 // 0 for a one-shot entry
	late    LatePolicy
	count   uint64 // Coalesce: occurrences folded into the next delivery
	dropped uint64 // Skip, CatchUp: occurrences dropped before the next delivery
	gen     uint32 // 0 once the slot is retired
	live    bool
}

// Queue is a bounded queue of future gameplay events on whole simulation
// ticks. Entries are delivered by [Queue.Advance] in (due tick, sequence)
// order, where the sequence is the order in which they were scheduled.
//
// A Queue belongs to the goroutine that runs the simulation: it is not safe
// for concurrent use. The delivery function given to Advance may call any
// method except Advance and Reset.
type Queue[T any] struct {
	slots       []entry[T]
	free        []int32 // stack of free slots; the next slot used is last
	ord         orders
	structure   Structure
	now         uint64
	seq         uint64
	dispatching bool
	stats       Stats
	// retired counts slots whose generation ran out (2^32 - 1 entries
	// through one slot). They are never reused, so no stale handle can
	// ever match a new entry; the usable capacity shrinks by one each.
	retired int
}

// New returns an empty queue whose current tick is opts.Start. It reports
// every invalid option at once.
func New[T any](opts Options) (*Queue[T], error) {
	var errs []error
	if opts.Capacity < 1 || opts.Capacity > MaxCapacity {
		errs = append(errs, fmt.Errorf("%w: Options.Capacity %d, allowed 1..%d", ErrInvalid, opts.Capacity, MaxCapacity))
	}
	if opts.Structure > Scan {
		errs = append(errs, fmt.Errorf("%w: Options.Structure %d, allowed DefaultStructure, Heap or Scan", ErrInvalid, uint8(opts.Structure)))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	q := &Queue[T]{
		slots:     make([]entry[T], opts.Capacity),
		free:      make([]int32, opts.Capacity),
		structure: opts.Structure,
		now:       opts.Start,
	}
	if q.structure == DefaultStructure {
		q.structure = Heap
	}
	switch q.structure {
	case Heap:
		q.ord.heap = newHeapOrder(opts.Capacity)
	case Scan:
		q.ord.scan = newScanOrder(opts.Capacity)
	}
	for i := range q.slots {
		q.slots[i].gen = 1
		q.free[i] = int32(opts.Capacity - 1 - i)
	}
	return q, nil
}

// Now returns the current tick: the last tick given to Advance (or Reset),
// or Options.Start before that. Every pending entry is due after it.
func (q *Queue[T]) Now() uint64 { return q.now }

// Len returns the number of pending entries.
func (q *Queue[T]) Len() int { return len(q.slots) - len(q.free) - q.retired }

// Cap returns the capacity fixed at construction.
func (q *Queue[T]) Cap() int { return len(q.slots) }

// Structure returns the ordering structure in use.
func (q *Queue[T]) Structure() Structure { return q.structure }

// At schedules payload for delivery at tick due, which must be after Now.
func (q *Queue[T]) At(due uint64, payload T) (Handle, error) {
	return q.add(due, 0, LatePolicy{}, payload, "At")
}

// After schedules payload for delivery delay ticks after Now; delay must be
// at least 1.
func (q *Queue[T]) After(delay uint64, payload T) (Handle, error) {
	if delay == 0 {
		q.stats.Refused++
		return Handle{}, fmt.Errorf("%w: After delay 0, allowed 1..%d", ErrTooEarly, uint64(math.MaxUint64)-q.now)
	}
	if delay > math.MaxUint64-q.now {
		q.stats.Refused++
		return Handle{}, fmt.Errorf("%w: After delay %d from tick %d, allowed 1..%d", ErrTickRange, delay, q.now, uint64(math.MaxUint64)-q.now)
	}
	return q.add(q.now+delay, 0, LatePolicy{}, payload, "After")
}

// Every schedules a periodic entry: first delivered at tick first (after
// Now), then every period ticks. Each next due tick is the previous due
// tick plus period, never the delivery tick plus period, so the phase never
// drifts. late says what a dispatch does about occurrences it finds already
// past. The entry stays pending until cancelled, cleared, or its next due
// tick would pass the tick range.
func (q *Queue[T]) Every(first, period uint64, late LatePolicy, payload T) (Handle, error) {
	var errs []error
	if period == 0 {
		errs = append(errs, fmt.Errorf("%w: Every period 0, allowed 1..%d", ErrInvalid, uint64(math.MaxUint64)))
	}
	if err := late.validate(); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		if err := q.check(first, "Every"); err != nil {
			errs = append(errs, err)
		}
		q.stats.Refused++
		return Handle{}, errors.Join(errs...)
	}
	return q.add(first, period, late, payload, "Every")
}

// check reports every reason a new entry due at due cannot be added.
func (q *Queue[T]) check(due uint64, op string) error {
	var errs []error
	if due <= q.now {
		errs = append(errs, q.tooEarly(op, due))
	}
	if len(q.free) == 0 {
		errs = append(errs, fmt.Errorf("%w: %s with %d of %d entries pending", ErrFull, op, q.Len(), len(q.slots)))
	}
	if q.seq == math.MaxUint64 {
		errs = append(errs, fmt.Errorf("%w: %s after %d entries", ErrSequenceRange, op, q.seq))
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return errors.Join(errs...)
}

func (q *Queue[T]) tooEarly(op string, due uint64) error {
	if q.now == math.MaxUint64 {
		return fmt.Errorf("%w: %s due tick %d, current tick %d is the last", ErrTickRange, op, due, q.now)
	}
	return fmt.Errorf("%w: %s due tick %d, allowed %d..%d", ErrTooEarly, op, due, q.now+1, uint64(math.MaxUint64))
}

func (q *Queue[T]) add(due, period uint64, late LatePolicy, payload T, op string) (Handle, error) {
	if due <= q.now || len(q.free) == 0 || q.seq == math.MaxUint64 {
		q.stats.Refused++
		return Handle{}, q.check(due, op)
	}
	slot := q.free[len(q.free)-1]
	q.free = q.free[:len(q.free)-1]
	e := &q.slots[slot]
	e.payload = payload
	e.due = due
	e.seq = q.seq
	e.period = period
	e.late = late
	e.count, e.dropped = 0, 0
	e.live = true
	q.seq++
	q.ord.add(key{due: due, seq: e.seq, slot: slot})
	q.stats.Scheduled++
	if n := q.Len(); n > q.stats.Peak {
		q.stats.Peak = n
	}
	return Handle{slot: uint32(slot), gen: e.gen}, nil
}

// lookup returns h's entry, or nil when h is stale or zero.
func (q *Queue[T]) lookup(h Handle) *entry[T] {
	if h.gen == 0 || h.slot >= uint32(len(q.slots)) {
		return nil
	}
	e := &q.slots[h.slot]
	if !e.live || e.gen != h.gen {
		return nil
	}
	return e
}

// Pending reports whether h names an entry still waiting for delivery (a
// periodic entry stays pending between its deliveries).
func (q *Queue[T]) Pending(h Handle) bool { return q.lookup(h) != nil }

// Due returns the tick at which h's entry is next due, and false when h is
// stale.
func (q *Queue[T]) Due(h Handle) (uint64, bool) {
	e := q.lookup(h)
	if e == nil {
		return 0, false
	}
	return e.due, true
}

// Remaining returns how many ticks after Now h's entry is next due, and
// false when h is stale.
func (q *Queue[T]) Remaining(h Handle) (uint64, bool) {
	e := q.lookup(h)
	if e == nil {
		return 0, false
	}
	return e.due - q.now, true
}

// Payload returns the payload of h's entry, and false when h is stale.
func (q *Queue[T]) Payload(h Handle) (T, bool) {
	e := q.lookup(h)
	if e == nil {
		var zero T
		return zero, false
	}
	return e.payload, true
}

// Cancel removes h's entry and reports whether there was one. Cancelling a
// stale handle (already delivered, cancelled or cleared) does nothing and
// returns false. An entry cancelled during a dispatch is not delivered, even
// if it was due in that dispatch.
func (q *Queue[T]) Cancel(h Handle) bool {
	e := q.lookup(h)
	if e == nil {
		return false
	}
	q.ord.remove(int32(h.slot))
	q.release(int32(h.slot))
	q.stats.Cancelled++
	return true
}

// Reschedule moves h's entry to tick due (after Now) and reports whether
// there was an entry to move; a stale handle does nothing and returns false
// with a nil error. The handle stays valid. The entry takes a new sequence
// number, as if scheduled now, so it follows entries already due at the same
// tick. A periodic entry continues its period from the new due tick. An
// entry rescheduled during a dispatch is not delivered in that dispatch.
func (q *Queue[T]) Reschedule(h Handle, due uint64) (bool, error) {
	e := q.lookup(h)
	if e == nil {
		return false, nil
	}
	if due <= q.now {
		return false, q.tooEarly("Reschedule", due)
	}
	if q.seq == math.MaxUint64 {
		return false, fmt.Errorf("%w: Reschedule after %d entries", ErrSequenceRange, q.seq)
	}
	e.due = due
	e.seq = q.seq
	e.count, e.dropped = 0, 0
	q.seq++
	q.ord.rekey(key{due: due, seq: e.seq, slot: int32(h.slot)})
	return true, nil
}

// release frees a slot whose key has left the order. The payload is zeroed
// so the queue keeps nothing it points to alive.
func (q *Queue[T]) release(slot int32) {
	e := &q.slots[slot]
	var zero T
	e.payload = zero
	e.live = false
	e.gen++
	if e.gen != 0 {
		q.free = append(q.free, slot)
	} else {
		q.retired++
	}
}

// Clear removes every entry and invalidates every handle, keeping the
// current tick. Cleared entries due in a dispatch under way are not
// delivered.
func (q *Queue[T]) Clear() {
	q.ord.clear()
	q.free = q.free[:0]
	for i := len(q.slots) - 1; i >= 0; i-- {
		e := &q.slots[i]
		if e.live {
			var zero T
			e.payload = zero
			e.live = false
			e.gen++
			if e.gen == 0 {
				q.retired++
			}
		}
		if e.gen != 0 {
			q.free = append(q.free, int32(i))
		}
	}
}

// Reset clears the queue, as for a new world, and sets the current tick. The
// sequence restarts, so a reset queue delivers exactly like a new one; the
// generations do not, so every earlier handle stays stale.
//
// Reset panics when called during a dispatch.
func (q *Queue[T]) Reset(tick uint64) {
	if q.dispatching {
		panic("schedule: Reset called during a dispatch")
	}
	q.Clear()
	q.now = tick
	q.seq = 0
}

// Advance makes tick the current tick and delivers, in (due tick, sequence)
// order, every entry due at or before it. The due set is fixed when Advance
// begins: deliver may cancel, reschedule or schedule entries, but anything it
// schedules is due after tick and waits for a later Advance, and anything it
// cancels or reschedules is skipped. A one-shot entry's handle is stale by
// the time deliver sees it; a periodic entry has already been re-armed for
// its next occurrence, so deliver may cancel or reschedule it.
//
// A periodic entry that finds several of its occurrences due (ticks were
// skipped) follows its [LatePolicy]. Advance with the current tick delivers
// nothing.
//
// Advance returns an error wrapping [ErrTickBackwards] without delivering
// anything when tick is before Now, and one wrapping [ErrTickRange] after
// the dispatch when a periodic entry ended because its next occurrence would
// pass the tick range. It panics when deliver is nil or when called from
// inside deliver: the queue never drains recursively.
func (q *Queue[T]) Advance(tick uint64, deliver func(Delivery[T])) error {
	if q.dispatching {
		panic("schedule: Advance called during a dispatch")
	}
	if deliver == nil {
		panic("schedule: Advance with a nil deliver function")
	}
	if tick < q.now {
		return fmt.Errorf("%w: Advance to tick %d, current tick %d", ErrTickBackwards, tick, q.now)
	}
	q.now = tick
	q.dispatching = true
	q.ord.begin(tick)
	defer q.endDispatch()
	var ended int
	var firstEnded Handle
	for {
		k, ok := q.ord.next()
		if !ok {
			break
		}
		e := &q.slots[k.slot]
		d := Delivery[T]{
			Handle:  Handle{slot: uint32(k.slot), gen: e.gen},
			Payload: e.payload,
			Due:     k.due,
			Tick:    tick,
			Count:   1,
		}
		if e.period == 0 {
			d.Last = true
			q.ord.removeFirst(k.slot)
			q.release(k.slot)
			q.stats.Delivered++
			deliver(d)
			continue
		}
		// On time (the usual case) only one occurrence is due; the
		// division is for late entries.
		if tick-k.due >= e.period {
			if n := (tick-k.due)/e.period + 1; n > e.late.keep() {
				// Several occurrences are due: drop or fold all but the ones
				// the policy keeps, and come back to the first kept one in
				// its place in the order.
				skip := n - e.late.keep()
				if e.late.mode == lateCoalesce {
					e.count = n
					q.stats.Coalesced = addSat(q.stats.Coalesced, skip)
				} else {
					e.dropped = skip
					q.stats.Dropped = addSat(q.stats.Dropped, skip)
				}
				e.due = k.due + skip*e.period
				q.ord.rekeyFirst(key{due: e.due, seq: k.seq, slot: k.slot})
				continue
			}
		}
		if e.count > 0 {
			d.Count = e.count
		}
		d.Dropped = e.dropped
		e.count, e.dropped = 0, 0
		if k.due > math.MaxUint64-e.period {
			d.Last = true
			ended++
			if ended == 1 {
				firstEnded = d.Handle
			}
			q.ord.removeFirst(k.slot)
			q.release(k.slot)
		} else {
			e.due = k.due + e.period
			q.ord.rekeyFirst(key{due: e.due, seq: k.seq, slot: k.slot})
		}
		q.stats.Delivered++
		deliver(d)
	}
	if ended > 0 {
		return fmt.Errorf("%w: %d periodic entries ended at tick %d (first %v), their next occurrence would pass %d",
			ErrTickRange, ended, tick, firstEnded, uint64(math.MaxUint64))
	}
	return nil
}

// Stats counts what the queue has done since it was created. A reset or
// cleared queue keeps counting; totals saturate instead of wrapping.
type Stats struct {
	// Scheduled counts entries accepted by At, After and Every.
	Scheduled uint64
	// Refused counts scheduling calls that returned an error.
	Refused uint64
	// Cancelled counts successful Cancel calls (Clear is not counted).
	Cancelled uint64
	// Delivered counts deliveries, one per call of the deliver function.
	Delivered uint64
	// Dropped counts periodic occurrences dropped by Skip or by the limit
	// of CatchUp.
	Dropped uint64
	// Coalesced counts periodic occurrences folded into another delivery
	// by Coalesce.
	Coalesced uint64
	// Peak is the most entries pending at once.
	Peak int
}

// Stats returns the queue's counters.
func (q *Queue[T]) Stats() Stats { return q.stats }

func addSat(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

func (q *Queue[T]) endDispatch() {
	q.ord.end()
	q.dispatching = false
}
