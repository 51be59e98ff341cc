package schedule

import (
	"fmt"
	"testing"
	"time"
)

// binaryHeap is the indexed binary heap the queue used before the 4-ary
// heapOrder, kept here as the baseline BenchmarkHeapVersusBinary measures
// against: keys inline, a branch-free child choice up to 8,192 entries, a
// branchy one above.
type binaryHeap struct {
	keys []key
	pos  []int32
}

// binaryBranchFreeLimit is the binary heap's own limit, measured for it.
const binaryBranchFreeLimit = 1 << 13

func newBinaryHeap(capacity int) *binaryHeap {
	h := &binaryHeap{keys: make([]key, 0, capacity), pos: make([]int32, capacity)}
	for i := range h.pos {
		h.pos[i] = -1
	}
	return h
}

func (h *binaryHeap) add(k key) {
	i := len(h.keys)
	h.keys = append(h.keys, k)
	h.up(i)
}

func (h *binaryHeap) removeRoot() {
	last := len(h.keys) - 1
	h.pos[h.keys[0].slot] = -1
	if last > 0 {
		h.keys[0] = h.keys[last]
		h.keys = h.keys[:last]
		h.down(0)
		return
	}
	h.keys = h.keys[:0]
}

func (h *binaryHeap) up(i int) {
	keys := h.keys
	k := keys[i]
	for i > 0 {
		p := (i - 1) / 2
		if !lessBranchy(k, keys[p]) {
			break
		}
		keys[i] = keys[p]
		h.pos[keys[i].slot] = int32(i)
		i = p
	}
	keys[i] = k
	h.pos[k.slot] = int32(i)
}

func (h *binaryHeap) down(i int) {
	keys, pos := h.keys, h.pos
	n := len(keys)
	k := keys[i]
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n {
			if n <= binaryBranchFreeLimit {
				c += lessBits(keys[r], keys[c])
			} else if lessBranchy(keys[r], keys[c]) {
				c = r
			}
		}
		kc := keys[c]
		if !lessBranchy(kc, k) {
			break
		}
		keys[i] = kc
		pos[kc.slot] = int32(i)
		i = c
	}
	keys[i] = k
	pos[k.slot] = int32(i)
}

// lessBranchy is the comparison the binary heap used.
func lessBranchy(a, b key) bool {
	return a.due < b.due || a.due == b.due && a.seq < b.seq
}

func lessBits(a, b key) int {
	return b2i(a.due < b.due) | b2i(a.due == b.due)&b2i(a.seq < b.seq)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// heapRun is the queue's steady state without the queue: each tick adds
// one key due 1..2n-1 ticks ahead and removes every key due by then. The two
// heaps have their own step functions so that neither pays for an indirect
// call.
type heapRun struct {
	free      []int32
	tick, seq uint64
	rng       uint64
	n         uint64
	sum       uint64 // of the removed keys, in order, to compare runs
}

func newHeapRun(n int) *heapRun {
	r := &heapRun{rng: 88172645463325252, n: uint64(n)}
	for s := range 2 * n {
		r.free = append(r.free, int32(s))
	}
	return r
}

// newKey advances the tick and returns the key it schedules.
func (r *heapRun) newKey() key {
	r.tick++
	r.rng ^= r.rng << 13
	r.rng ^= r.rng >> 7
	r.rng ^= r.rng << 17
	slot := r.free[len(r.free)-1]
	r.free = r.free[:len(r.free)-1]
	r.seq++
	return key{due: r.tick + 1 + r.rng%(2*r.n-1), seq: r.seq, slot: slot}
}

func (r *heapRun) removed(k key) {
	r.sum = r.sum*31 + k.due ^ k.seq<<20 ^ uint64(k.slot)
	r.free = append(r.free, k.slot)
}

func (r *heapRun) step4(h *heapOrder) {
	h.add(r.newKey())
	h.limit = r.tick
	for {
		k, ok := h.next()
		if !ok {
			return
		}
		h.removeRoot()
		r.removed(k)
	}
}

func (r *heapRun) step2(h *binaryHeap) {
	h.add(r.newKey())
	for len(h.keys) > 0 && h.keys[0].due <= r.tick {
		k := h.keys[0]
		h.removeRoot()
		r.removed(k)
	}
}

// BenchmarkHeapVersusBinary runs the 4-ary heap and the binary baseline
// through the same steady state in alternating chunks of ticks, so both see
// the same machine load, and reports each one's fastest chunk per tick and
// their ratio (4-ary/binary). It fails if the two remove different keys.
func BenchmarkHeapVersusBinary(b *testing.B) {
	for _, n := range []int{16, 1_000, 100_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			h4, r4 := newHeapOrder(2*n), newHeapRun(n)
			h2, r2 := newBinaryHeap(2*n), newHeapRun(n)
			for range 4 * n { // reach the steady state: about n keys pending
				r4.step4(&h4)
				r2.step2(h2)
			}
			const chunk = 256
			best4, best2 := time.Duration(1<<62), time.Duration(1<<62)
			for i := 0; b.Loop(); i++ {
				if i%chunk != 0 {
					continue
				}
				start := time.Now()
				for range chunk {
					r4.step4(&h4)
				}
				mid := time.Now()
				for range chunk {
					r2.step2(h2)
				}
				best4 = min(best4, mid.Sub(start))
				best2 = min(best2, time.Since(mid))
			}
			if r4.sum != r2.sum || r4.tick != r2.tick {
				b.Fatalf("4-ary heap removed %x by tick %d, binary heap %x by tick %d", r4.sum, r4.tick, r2.sum, r2.tick)
			}
			b.ReportMetric(float64(best4)/chunk, "4ary-ns/tick")
			b.ReportMetric(float64(best2)/chunk, "binary-ns/tick")
			b.ReportMetric(float64(best4)/float64(best2), "4ary/binary")
		})
	}
}
