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

func (a key) less(b key) bool {
	return a.due < b.due || a.due == b.due && a.seq < b.seq
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
// Four children per node halve the depth of a binary heap. The heap array
// holds only the 16-byte ranks that comparisons read, so the four children
// of a node fill one 64-byte cache line (see rankPad): a level of a large
// heap costs one cache miss. The slot of each rank sits at the same index of
// a parallel array, read only when a rank moves.
type heapOrder struct {
	ranks []rank
	slots []int32 // slots[i] is the slot whose key is ranks[i]
	pos   []int32 // slot -> index in ranks, -1 when absent
	limit uint64
	// touched keeps the loads of touchGrandchildren from being optimised
	// away; its value means nothing.
	touched uint64
}

// rank is the part of a key that orders it.
type rank struct {
	due uint64
	seq uint64
}

// less compares with one branch: on the borrow out of the 128-bit
// subtraction a - b, where comparing due and then seq would branch on each.
func (a rank) less(b rank) bool {
	_, borrow := bits.Sub64(a.seq, b.seq, 0)
	_, borrow = bits.Sub64(a.due, b.due, borrow)
	return borrow != 0
}

// arity is the number of children of a heap node: the children of node i
// are arity*i+1 .. arity*i+arity, its parent (i-1)/arity.
const arity = 4

// rankPad shifts the ranks three places into their allocation, so that the
// children of node i, at allocation index 4i+4 to 4i+7, start on a 64-byte
// boundary whenever the allocation does (every allocation of 32 KiB or
// more, which is where cache misses matter).
const rankPad = 3

func newHeapOrder(capacity int) heapOrder {
	h := heapOrder{
		ranks: make([]rank, rankPad, rankPad+capacity)[rankPad:],
		slots: make([]int32, 0, capacity),
		pos:   make([]int32, capacity),
	}
	for i := range h.pos {
		h.pos[i] = -1
	}
	return h
}

func (h *heapOrder) add(k key) {
	i := len(h.ranks)
	h.ranks = append(h.ranks, rank{})
	h.slots = append(h.slots, 0)
	h.up(i, rank{due: k.due, seq: k.seq}, k.slot)
}

func (h *heapOrder) remove(slot int32) {
	i := int(h.pos[slot])
	last := len(h.ranks) - 1
	h.pos[slot] = -1
	r, s := h.ranks[last], h.slots[last]
	h.ranks = h.ranks[:last]
	h.slots = h.slots[:last]
	if i < last {
		h.ranks[i], h.slots[i] = r, s
		h.pos[s] = int32(i)
		h.fix(i)
	}
}

// removeRoot removes the earliest key. The last key takes its place, and it
// nearly always belongs near the leaves, so rather than sift it down from the
// root, comparing it at every level, the hole left by the root sinks to a
// leaf along the smallest children and the last key rises from there: one
// comparison fewer per level, and a rise of a level or none.
func (h *heapOrder) removeRoot() {
	last := len(h.ranks) - 1
	h.pos[h.slots[0]] = -1
	r, s := h.ranks[last], h.slots[last]
	h.ranks = h.ranks[:last]
	h.slots = h.slots[:last]
	if last > 0 {
		h.up(h.sinkHole(0), r, s)
	}
}

// rekeyRoot gives the earliest key a later due tick.
func (h *heapOrder) rekeyRoot(k key) {
	h.ranks[0] = rank{due: k.due, seq: k.seq}
	h.down(0)
}

func (h *heapOrder) rekey(k key) {
	i := int(h.pos[k.slot])
	h.ranks[i] = rank{due: k.due, seq: k.seq}
	h.fix(i)
}

func (h *heapOrder) next() (key, bool) {
	if len(h.ranks) == 0 || h.ranks[0].due > h.limit {
		return key{}, false
	}
	return key{due: h.ranks[0].due, seq: h.ranks[0].seq, slot: h.slots[0]}, true
}

func (h *heapOrder) clear() {
	for _, s := range h.slots {
		h.pos[s] = -1
	}
	h.ranks = h.ranks[:0]
	h.slots = h.slots[:0]
}

func (h *heapOrder) fix(i int) {
	if !h.down(i) {
		h.up(i, h.ranks[i], h.slots[i])
	}
}

// up puts rank r of slot s at index i, or above it while r is less than its
// parent's.
func (h *heapOrder) up(i int, r rank, s int32) {
	ranks, slots, pos := h.ranks, h.slots, h.pos
	for i > 0 {
		p := int(uint(i-1) / arity)
		if !r.less(ranks[p]) {
			break
		}
		ranks[i] = ranks[p]
		sp := slots[p]
		slots[i] = sp
		pos[sp] = int32(i)
		i = p
	}
	ranks[i] = r
	slots[i] = s
	pos[s] = int32(i)
}

// down sifts the rank at index i towards the leaves and reports whether it
// moved.
func (h *heapOrder) down(i0 int) bool {
	ranks, slots, pos := h.ranks, h.slots, h.pos
	n := len(ranks)
	i := i0
	r, s := ranks[i], slots[i]
	var t uint64
	for {
		c := arity*i + 1
		var m int
		var rm rank
		if c+arity <= n {
			if n > prefetchFrom {
				t ^= touchGrandchildren(ranks, c)
			}
			m, rm = smallest(ranks, c)
		} else if c < n {
			m = minTail(ranks, c)
			rm = ranks[m]
		} else {
			break
		}
		if !rm.less(r) {
			break
		}
		ranks[i] = rm
		sm := slots[m]
		slots[i] = sm
		pos[sm] = int32(i)
		i = m
	}
	ranks[i] = r
	slots[i] = s
	pos[s] = int32(i)
	h.touched = t
	return i > i0
}

// sinkHole moves the hole at index i down to a leaf, filling it at each
// level with the smallest child, and returns the leaf's index. The rank that
// was at i must already be saved or dropped.
func (h *heapOrder) sinkHole(i int) int {
	ranks, slots, pos := h.ranks, h.slots, h.pos
	n := len(ranks)
	var t uint64
	for {
		c := arity*i + 1
		var m int
		var rm rank
		if c+arity <= n {
			if n > prefetchFrom {
				t ^= touchGrandchildren(ranks, c)
			}
			m, rm = smallest(ranks, c)
		} else if c < n {
			m = minTail(ranks, c)
			rm = ranks[m]
		} else {
			h.touched = t
			return i
		}
		ranks[i] = rm
		sm := slots[m]
		slots[i] = sm
		pos[sm] = int32(i)
		i = m
	}
}

// prefetchFrom is the heap size above which down and sinkHole read the next level
// ahead (touchGrandchildren): 8,192 ranks are 128 KiB, past the L1 and L2
// caches of small cores.
const prefetchFrom = 1 << 13

// touchGrandchildren reads one word of each of the four cache lines that
// hold the children of the four nodes from c, and returns them combined.
// The loads do not wait for the choice among the nodes from c, so whichever
// is chosen, its children are in cache or on their way when the next level
// needs them: the levels' cache misses overlap instead of following each
// other.
func touchGrandchildren(ranks []rank, c int) uint64 {
	g, last := arity*c+1, len(ranks)-1
	return ranks[min(g, last)].due ^ ranks[min(g+arity, last)].due ^
		ranks[min(g+2*arity, last)].due ^ ranks[min(g+3*arity, last)].due
}

// smallest returns the index and value of the smallest of the four ranks
// from c. Which one it is is a coin toss for the branch predictor, so it is
// chosen with conditional moves, and from the values already loaded rather
// than read again. Every node but one has four children or none, so this is
// the path that matters.
func smallest(ranks []rank, c int) (int, rank) {
	q := (*[arity]rank)(ranks[c : c+arity])
	a, ra := pick(0, q[0], 1, q[1])
	b, rb := pick(2, q[2], 3, q[3])
	a, ra = pick(a, ra, b, rb)
	return c + a, ra
}

// pick returns (j, y) when y is less than x, else (i, x). The comparison is
// the borrow out of a 128-bit subtraction, and the compiler turns the
// assignment into conditional moves, not a branch.
func pick(i int, x rank, j int, y rank) (int, rank) {
	_, borrow := bits.Sub64(y.seq, x.seq, 0)
	_, borrow = bits.Sub64(y.due, x.due, borrow)
	if borrow != 0 {
		i, x = j, y
	}
	return i, x
}

// minTail returns the index of the smallest of the one to three ranks from
// c to the end: the children of the last inner node.
func minTail(ranks []rank, c int) int {
	m := c
	for j := c + 1; j < len(ranks); j++ {
		if ranks[j].less(ranks[m]) {
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
