package schedule

import (
	"math"
	"math/bits"
	"slices"
)

// key is an entry's position in delivery order: (due, seq) with the slot it
// belongs to. A slot's key changes when it is rescheduled or a periodic entry
// is re-armed, so an old copy of a key never matches the live one.
type key struct {
	due  uint64
	seq  uint64
	slot int32
}

// less compares with at most one branch: it is the borrow out of the
// 128-bit subtraction (a.due, a.seq) - (b.due, b.seq), where comparing due
// and then seq would branch on each.
func (a key) less(b key) bool {
	_, borrow := bits.Sub64(a.seq, b.seq, 0)
	_, borrow = bits.Sub64(a.due, b.due, borrow)
	return borrow != 0
}

func compareKeys(a, b key) int {
	switch {
	case a.less(b):
		return -1
	case b.less(a):
		return 1
	}
	return 0
}

// orders keeps the pending keys of a queue in one of the two structures.
// The queue calls begin, then next until it reports false, then end; between
// two calls to next it either removes or rekeys the slot next returned, so
// next never repeats a key. During a dispatch every add or rekey has a due
// tick after the dispatched tick, except the queue's own re-arming of a
// periodic entry that still owes occurrences up to that tick.
//
// A branch on which pointer is set costs less than an interface call and
// leaves the heap's small methods open to inlining.
type orders struct {
	heap heapOrder
	scan *scanOrder
}

func (o *orders) add(k key) {
	if o.scan != nil {
		o.scan.add(k)
		return
	}
	o.heap.add(k)
}

func (o *orders) remove(slot int32) {
	if o.scan != nil {
		o.scan.remove(slot)
		return
	}
	o.heap.remove(slot)
}

// removeFirst removes the key next just returned.
func (o *orders) removeFirst(slot int32) {
	if o.scan != nil {
		o.scan.remove(slot)
		return
	}
	o.heap.removeRoot()
}

// rekeyFirst moves the key next just returned to a later due tick.
func (o *orders) rekeyFirst(k key) {
	if o.scan != nil {
		o.scan.rekey(k)
		return
	}
	o.heap.rekeyRoot(k)
}

func (o *orders) rekey(k key) {
	if o.scan != nil {
		o.scan.rekey(k)
		return
	}
	o.heap.rekey(k)
}

func (o *orders) begin(limit uint64) {
	if o.scan != nil {
		o.scan.begin(limit)
		return
	}
	o.heap.limit = limit
}

func (o *orders) next() (key, bool) {
	if o.scan != nil {
		return o.scan.next()
	}
	return o.heap.next()
}

func (o *orders) end() {
	if o.scan != nil {
		o.scan.end()
	}
}

func (o *orders) clear() {
	if o.scan != nil {
		o.scan.clear()
		return
	}
	o.heap.clear()
}

// heapOrder is an indexed 4-ary min-heap: O(log n) add, remove and rekey,
// and O(1) to look at the earliest key, so a dispatch costs O(k log n) for k
// deliveries whatever the number n of pending entries.
//
// Four children per node halve the depth of a binary heap: a delivery sifts
// through half as many levels, each reading four neighbouring keys. The keys
// sit inline in the heap array, so a comparison never leaves it; pos is
// written once per key moved.
type heapOrder struct {
	keys  []key
	pos   []int32 // slot -> index in keys, -1 when absent
	limit uint64
}

// arity is the number of children of a heap node: the children of node i
// are arity*i+1 .. arity*i+arity, its parent (i-1)/arity.
const arity = 4

func newHeapOrder(capacity int) heapOrder {
	h := heapOrder{keys: make([]key, 0, capacity), pos: make([]int32, capacity)}
	for i := range h.pos {
		h.pos[i] = -1
	}
	return h
}

func (h *heapOrder) add(k key) {
	i := len(h.keys)
	h.keys = append(h.keys, k)
	h.up(i, k)
}

func (h *heapOrder) remove(slot int32) {
	i := int(h.pos[slot])
	last := len(h.keys) - 1
	h.pos[slot] = -1
	if i != last {
		h.keys[i] = h.keys[last]
		h.pos[h.keys[i].slot] = int32(i)
	}
	h.keys = h.keys[:last]
	if i < last {
		h.fix(i)
	}
}

// removeRoot removes the earliest key. The last key takes its place, and it
// nearly always belongs near the leaves, so rather than sift it down from the
// root, comparing it at every level, the hole left by the root sinks to a
// leaf along the smallest children and the last key rises from there: one
// comparison fewer per level, and a rise of a level or none.
func (h *heapOrder) removeRoot() {
	last := len(h.keys) - 1
	h.pos[h.keys[0].slot] = -1
	k := h.keys[last]
	h.keys = h.keys[:last]
	if last > 0 {
		h.up(h.sinkHole(0), k)
	}
}

// rekeyRoot gives the earliest key a later due tick.
func (h *heapOrder) rekeyRoot(k key) {
	h.keys[0] = k
	h.down(0)
}

func (h *heapOrder) rekey(k key) {
	i := int(h.pos[k.slot])
	h.keys[i] = k
	h.fix(i)
}

func (h *heapOrder) next() (key, bool) {
	if len(h.keys) == 0 || h.keys[0].due > h.limit {
		return key{}, false
	}
	return h.keys[0], true
}

func (h *heapOrder) clear() {
	for _, k := range h.keys {
		h.pos[k.slot] = -1
	}
	h.keys = h.keys[:0]
}

func (h *heapOrder) fix(i int) {
	if !h.down(i) {
		h.up(i, h.keys[i])
	}
}

// up puts k at index i, or above it while it is less than its parent.
func (h *heapOrder) up(i int, k key) {
	keys, pos := h.keys, h.pos
	for i > 0 {
		p := int(uint(i-1) / arity)
		kp := keys[p]
		if !k.less(kp) {
			break
		}
		keys[i] = kp
		pos[kp.slot] = int32(i)
		i = p
	}
	keys[i] = k
	pos[k.slot] = int32(i)
}

// down sifts keys[i] towards the leaves and reports whether it moved.
func (h *heapOrder) down(i0 int) bool {
	keys, pos := h.keys, h.pos
	n := len(keys)
	i := i0
	k := keys[i]
	for {
		c := arity*i + 1
		var m int
		var km key
		if c+arity <= n {
			m, km = smallest(keys, c)
		} else if c < n {
			m = minTail(keys, c)
			km = keys[m]
		} else {
			break
		}
		if !km.less(k) {
			break
		}
		keys[i] = km
		pos[km.slot] = int32(i)
		i = m
	}
	keys[i] = k
	pos[k.slot] = int32(i)
	return i > i0
}

// sinkHole moves the hole at index i down to a leaf, filling it at each
// level with the smallest child, and returns the leaf's index. The key that
// was at i must already be saved or dropped.
func (h *heapOrder) sinkHole(i int) int {
	keys, pos := h.keys, h.pos
	n := len(keys)
	for {
		c := arity*i + 1
		var m int
		var km key
		if c+arity <= n {
			m, km = smallest(keys, c)
		} else if c < n {
			m = minTail(keys, c)
			km = keys[m]
		} else {
			return i
		}
		keys[i] = km
		pos[km.slot] = int32(i)
		i = m
	}
}

// smallest returns the index and value of the smallest of the four keys
// from c. Which one it is is a coin toss for the branch predictor, so it is
// chosen with conditional moves, and from the values already loaded rather
// than read again: the next level's loads wait only on this arithmetic.
// Every node but one has four children or none, so this is the only path
// that matters.
func smallest(keys []key, c int) (int, key) {
	q := (*[arity]key)(keys[c : c+arity])
	a, ka := pick(0, q[0], 1, q[1])
	b, kb := pick(2, q[2], 3, q[3])
	a, ka = pick(a, ka, b, kb)
	return c + a, ka
}

// pick returns (j, y) when y is less than x, else (i, x). The comparison is
// the borrow out of a 128-bit subtraction, and the compiler turns the
// assignment into conditional moves, not a branch.
func pick(i int, x key, j int, y key) (int, key) {
	_, borrow := bits.Sub64(y.seq, x.seq, 0)
	_, borrow = bits.Sub64(y.due, x.due, borrow)
	if borrow != 0 {
		i, x = j, y
	}
	return i, x
}

// minTail returns the index of the smallest of the one to three keys from c
// to the end of keys: the children of the last inner node.
func minTail(keys []key, c int) int {
	m := c
	for j := c + 1; j < len(keys); j++ {
		if keys[j].less(keys[m]) {
			m = j
		}
	}
	return m
}

// scanOrder is a contiguous array scanned once per dispatch: O(1) add and
// remove, and a dispatch that finds anything due costs O(n + k log k). A
// lower bound on the earliest due tick lets a dispatch with nothing due return
// at once. The due set found by the scan is sorted into snap and validated
// key by key as it is delivered.
type scanOrder struct {
	keys   []key
	pos    []int32 // slot -> index in keys, -1 when absent
	minDue uint64  // no key is due before this tick
	snap   []key
	head   int
	limit  uint64
	active bool
}

func newScanOrder(capacity int) *scanOrder {
	s := &scanOrder{
		keys:   make([]key, 0, capacity),
		pos:    make([]int32, capacity),
		snap:   make([]key, 0, capacity),
		minDue: math.MaxUint64,
	}
	for i := range s.pos {
		s.pos[i] = -1
	}
	return s
}

func (s *scanOrder) add(k key) {
	s.pos[k.slot] = int32(len(s.keys))
	s.keys = append(s.keys, k)
	s.noteDue(k)
}

func (s *scanOrder) remove(slot int32) {
	i := s.pos[slot]
	last := int32(len(s.keys) - 1)
	if i != last {
		s.keys[i] = s.keys[last]
		s.pos[s.keys[i].slot] = i
	}
	s.keys = s.keys[:last]
	s.pos[slot] = -1
}

func (s *scanOrder) rekey(k key) {
	s.keys[s.pos[k.slot]] = k
	s.noteDue(k)
}

func (s *scanOrder) noteDue(k key) {
	if k.due < s.minDue {
		s.minDue = k.due
	}
	if s.active && k.due <= s.limit {
		s.insertSnap(k)
	}
}

// insertSnap puts a re-armed key into the undelivered part of the snapshot.
// Each such key replaces one already consumed, so compacting the consumed
// prefix always makes room without growing the buffer.
func (s *scanOrder) insertSnap(k key) {
	if len(s.snap) == cap(s.snap) {
		n := copy(s.snap, s.snap[s.head:])
		s.snap = s.snap[:n]
		s.head = 0
	}
	i, _ := slices.BinarySearchFunc(s.snap[s.head:], k, compareKeys)
	s.snap = slices.Insert(s.snap, s.head+i, k)
}

func (s *scanOrder) begin(limit uint64) {
	s.active = true
	s.limit = limit
	s.snap = s.snap[:0]
	s.head = 0
	if limit < s.minDue {
		return
	}
	rest := uint64(math.MaxUint64)
	for _, k := range s.keys {
		if k.due <= limit {
			s.snap = append(s.snap, k)
		} else if k.due < rest {
			rest = k.due
		}
	}
	// Keys in the snapshot leave it removed, or rekeyed through noteDue, so
	// the bound only has to cover the keys not yet due.
	s.minDue = rest
	if len(s.snap) > 1 {
		slices.SortFunc(s.snap, compareKeys)
	}
}

func (s *scanOrder) next() (key, bool) {
	for s.head < len(s.snap) {
		k := s.snap[s.head]
		s.head++
		if i := s.pos[k.slot]; i >= 0 && s.keys[i] == k {
			return k, true
		}
	}
	return key{}, false
}

func (s *scanOrder) end() {
	// A dispatch cut short (a panicking delivery) leaves keys in the
	// snapshot that the bound does not cover.
	for _, k := range s.snap[s.head:] {
		if k.due < s.minDue {
			s.minDue = k.due
		}
	}
	s.snap = s.snap[:0]
	s.head = 0
	s.active = false
}

func (s *scanOrder) clear() {
	for _, k := range s.keys {
		s.pos[k.slot] = -1
	}
	s.keys = s.keys[:0]
	s.snap = s.snap[:0]
	s.head = 0
	s.minDue = math.MaxUint64
}
