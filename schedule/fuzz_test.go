package schedule_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/metronome-go/metronome/schedule"
)

// The reference model: pending entries in a slice sorted by (due, seq), and a
// dispatch that writes out its whole plan of deliveries before delivering
// any, straight from the rules in the package documentation.

type modelEntry struct {
	h       schedule.Handle
	payload int
	due     uint64
	seq     uint64
	period  uint64
	mode    int // 0 skip, 1 coalesce, 2 catch up
	limit   int
	version int
}

type planned struct {
	e       *modelEntry
	version int
	d       schedule.Delivery[int]
}

type model struct {
	capacity int
	now, seq uint64
	entries  []*modelEntry
	// The Stats the queue must report, but for Dropped and Coalesced.
	stats schedule.Stats
}

func (m *model) find(h schedule.Handle) (int, *modelEntry) {
	for i, e := range m.entries {
		if e.h == h {
			return i, e
		}
	}
	return -1, nil
}

func (m *model) insert(e *modelEntry) {
	i, _ := slices.BinarySearchFunc(m.entries, e, func(a, b *modelEntry) int {
		if a.due != b.due {
			return cmpU(a.due, b.due)
		}
		return cmpU(a.seq, b.seq)
	})
	m.entries = slices.Insert(m.entries, i, e)
}

func (m *model) remove(e *modelEntry) {
	i, _ := m.find(e.h)
	m.entries = slices.Delete(m.entries, i, i+1)
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// addErrs lists the sentinels adding an entry due at due must report.
func (m *model) addErrs(due uint64) []error {
	var errs []error
	if due <= m.now {
		if m.now == math.MaxUint64 {
			errs = append(errs, schedule.ErrTickRange)
		} else {
			errs = append(errs, schedule.ErrTooEarly)
		}
	}
	if len(m.entries) == m.capacity {
		errs = append(errs, schedule.ErrFull)
	}
	return errs
}

func (m *model) add(h schedule.Handle, payload int, due, period uint64, mode, limit int) {
	m.insert(&modelEntry{h: h, payload: payload, due: due, seq: m.seq, period: period, mode: mode, limit: limit})
	m.seq++
	m.stats.Scheduled++
	m.stats.Peak = max(m.stats.Peak, len(m.entries))
}

// plan lists every delivery a dispatch at tick owes, in delivery order.
func (m *model) plan(tick uint64) []planned {
	var p []planned
	for _, e := range m.entries {
		if e.due > tick {
			break
		}
		if e.period == 0 {
			p = append(p, planned{e, e.version, schedule.Delivery[int]{Handle: e.h, Payload: e.payload, Due: e.due, Tick: tick, Count: 1}})
			continue
		}
		n := (tick-e.due)/e.period + 1
		keep := uint64(1)
		if e.mode == 2 {
			keep = min(n, uint64(e.limit))
		}
		for i := n - keep; i < n; i++ {
			d := schedule.Delivery[int]{Handle: e.h, Payload: e.payload, Due: e.due + i*e.period, Tick: tick, Count: 1}
			if i == n-keep {
				if e.mode == 1 {
					d.Count = n
				} else {
					d.Dropped = n - keep
				}
			}
			p = append(p, planned{e, e.version, d})
		}
	}
	slices.SortStableFunc(p, func(a, b planned) int {
		if a.d.Due != b.d.Due {
			return cmpU(a.d.Due, b.d.Due)
		}
		return cmpU(a.e.seq, b.e.seq)
	})
	return p
}

// take returns the next planned delivery still owed and applies it to the
// model: an entry cancelled, rescheduled or cleared since the plan was made
// owes nothing more.
func (m *model) take(p *[]planned, ended *bool) (schedule.Delivery[int], bool) {
	for len(*p) > 0 {
		next := (*p)[0]
		*p = (*p)[1:]
		if _, e := m.find(next.e.h); e != next.e || e.version != next.version {
			continue
		}
		d := next.d
		e := next.e
		m.stats.Delivered++
		m.remove(e)
		if e.period == 0 {
			d.Last = true
		} else if d.Due > math.MaxUint64-e.period {
			d.Last = true
			*ended = true
		} else {
			e.due = d.Due + e.period
			m.insert(e)
		}
		return d, true
	}
	return schedule.Delivery[int]{}, false
}

// fuzzRun drives a queue and the model with the same operations and fails on
// the first difference.
type fuzzRun struct {
	t       *testing.T
	q       *schedule.Queue[int]
	m       *model
	data    []byte
	handles []schedule.Handle
	payload int
	plan    []planned
	ended   bool
}

func (r *fuzzRun) byte() (byte, bool) {
	if len(r.data) == 0 {
		return 0, false
	}
	b := r.data[0]
	r.data = r.data[1:]
	return b, true
}

func (r *fuzzRun) handle(b byte) schedule.Handle {
	if len(r.handles) == 0 {
		return schedule.Handle{}
	}
	return r.handles[int(b)%len(r.handles)]
}

func (r *fuzzRun) checkErr(op string, err error, want []error) {
	r.t.Helper()
	if (err == nil) != (len(want) == 0) {
		r.t.Fatalf("%s: err = %v, want %v", op, err, want)
	}
	for _, s := range []error{schedule.ErrTooEarly, schedule.ErrFull, schedule.ErrTickRange, schedule.ErrInvalid, schedule.ErrSequenceRange} {
		if errors.Is(err, s) != slices.Contains(want, s) {
			r.t.Fatalf("%s: err = %v, want %v", op, err, want)
		}
	}
}

func (r *fuzzRun) added(op string, h schedule.Handle, err error, want []error, due, period uint64, mode, limit int) {
	r.t.Helper()
	r.checkErr(op, err, want)
	if err == nil {
		r.m.add(h, r.payload, due, period, mode, limit)
		r.handles = append(r.handles, h)
	} else {
		r.m.stats.Refused++
	}
	r.payload++
}

// step performs one operation; inside a dispatch it never advances, resets
// or panics.
func (r *fuzzRun) step(inDispatch bool) bool {
	op, ok := r.byte()
	if !ok {
		return false
	}
	arg, _ := r.byte()
	q, m := r.q, r.m
	switch op % 8 {
	case 0:
		due := m.now + uint64(arg%10) - 1 // may be too early
		if m.now == 0 && arg%10 == 0 {
			due = 0
		}
		h, err := q.At(due, r.payload)
		r.added(fmt.Sprintf("At(%d)", due), h, err, m.addErrs(due), due, 0, 0, 0)
	case 1:
		delay := uint64(arg % 6)
		if arg >= 250 {
			delay = math.MaxUint64 - uint64(arg-250)
		}
		h, err := q.After(delay, r.payload)
		var want []error
		switch {
		case delay == 0:
			want = []error{schedule.ErrTooEarly}
		case delay > math.MaxUint64-m.now:
			want = []error{schedule.ErrTickRange}
		default:
			want = m.addErrs(m.now + delay)
		}
		r.added(fmt.Sprintf("After(%d)", delay), h, err, want, m.now+delay, 0, 0, 0)
	case 2:
		extra, _ := r.byte()
		first := m.now + uint64(arg%7)
		period := uint64(arg/7%6) + 1
		if arg == 255 {
			period = 0
		}
		mode, limit := int(extra%3), int(extra/3%5)
		late := []schedule.LatePolicy{schedule.Skip(), schedule.Coalesce(), schedule.CatchUp(limit)}[mode]
		want := m.addErrs(first)
		if period == 0 || mode == 2 && limit == 0 {
			want = append(want, schedule.ErrInvalid)
		}
		h, err := q.Every(first, period, late, r.payload)
		r.added(fmt.Sprintf("Every(%d, %d, %v)", first, period, late), h, err, want, first, period, mode, limit)
	case 3:
		h := r.handle(arg)
		_, e := m.find(h)
		if got := q.Cancel(h); got != (e != nil) {
			r.t.Fatalf("Cancel(%v) = %v, want %v", h, got, e != nil)
		}
		if e != nil {
			m.remove(e)
			m.stats.Cancelled++
		}
	case 4:
		h := r.handle(arg)
		due := m.now + uint64(arg%5)
		_, e := m.find(h)
		got, err := q.Reschedule(h, due)
		var want []error
		if e != nil && due <= m.now {
			want = m.addErrs(due)[:1]
		}
		r.checkErr(fmt.Sprintf("Reschedule(%v, %d)", h, due), err, want)
		if got != (e != nil && len(want) == 0) {
			r.t.Fatalf("Reschedule(%v, %d) = %v, model has entry %v", h, due, got, e != nil)
		}
		if got {
			m.remove(e)
			e.due, e.seq = due, m.seq
			e.version++
			m.seq++
			m.insert(e)
		}
	case 5:
		if inDispatch {
			return true
		}
		tick := m.now + uint64(arg%9)
		if arg%9 == 8 {
			tick = m.now + 20 + uint64(arg)
		}
		if tick < m.now {
			tick = math.MaxUint64
		}
		r.advance(tick)
	case 6:
		if arg%4 != 0 {
			return true
		}
		q.Clear()
		m.entries = m.entries[:0]
	case 7:
		if inDispatch || arg%4 != 0 {
			return true
		}
		tick := uint64(arg)
		q.Reset(tick)
		m.entries = m.entries[:0]
		m.now, m.seq = tick, 0
	}
	if !inDispatch {
		r.compareState()
	}
	return true
}

func (r *fuzzRun) advance(tick uint64) {
	r.t.Helper()
	r.plan = r.m.plan(tick)
	r.m.now = tick
	r.ended = false
	err := r.q.Advance(tick, func(got schedule.Delivery[int]) {
		want, ok := r.m.take(&r.plan, &r.ended)
		if !ok || got != want {
			r.t.Fatalf("Advance(%d) delivered %+v, model wants %+v (owed: %v)", tick, got, want, ok)
		}
		r.step(true)
	})
	if want, ok := r.m.take(&r.plan, &r.ended); ok {
		r.t.Fatalf("Advance(%d) ended, model still owes %+v", tick, want)
	}
	if (err != nil) != r.ended || err != nil && !errors.Is(err, schedule.ErrTickRange) {
		r.t.Fatalf("Advance(%d): err = %v, want an ErrTickRange error: %v", tick, err, r.ended)
	}
}

func (r *fuzzRun) compareState() {
	r.t.Helper()
	got := r.q.Stats()
	got.Dropped, got.Coalesced = 0, 0
	if got != r.m.stats {
		r.t.Fatalf("Stats = %+v, model %+v", got, r.m.stats)
	}
	if r.q.Len() != len(r.m.entries) || r.q.Now() != r.m.now {
		r.t.Fatalf("Len, Now = %d, %d, model %d, %d", r.q.Len(), r.q.Now(), len(r.m.entries), r.m.now)
	}
	for _, h := range r.handles[max(0, len(r.handles)-16):] {
		_, e := r.m.find(h)
		due, ok := r.q.Due(h)
		if ok != (e != nil) || ok && due != e.due {
			r.t.Fatalf("Due(%v) = %d, %v, model %+v", h, due, ok, e)
		}
	}
}

func FuzzQueueAgainstModel(f *testing.F) {
	f.Add([]byte{0, 3, 0, 3, 0, 1, 5, 4})
	f.Add([]byte{2, 9, 5, 2, 30, 2, 5, 8, 3, 0, 5, 3})
	f.Add([]byte{1, 1, 1, 2, 2, 20, 8, 5, 100, 0, 4, 5, 6, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{7, 0, 2, 1, 11, 0, 5, 3, 4, 5, 200, 2, 3, 1, 4, 0, 2, 5, 3, 6, 0, 7, 8})
	f.Add([]byte{255, 2, 1, 14, 2, 2, 14, 1, 2, 14, 2, 0, 5, 17, 3, 1, 4, 2, 5, 40, 6, 0})
	f.Add([]byte{0, 5, 1, 250, 1, 252, 2, 255, 0, 5, 200, 6, 0, 7, 0, 0, 2})
	f.Fuzz(checkAgainstModel)
}

// checkAgainstModel decodes data into operations: the first byte picks the
// capacity, the second the starting tick (0 or 40 ticks from the end of the
// range), the rest are operations with their arguments.
func checkAgainstModel(t *testing.T, data []byte) {
	if len(data) < 2 {
		return
	}
	{
		capacity := int(data[0]%6) + 1
		start := uint64(0)
		if data[1]%4 == 3 {
			start = math.MaxUint64 - 40
		}
		for _, s := range structures {
			q, err := schedule.New[int](schedule.Options{Capacity: capacity, Start: start, Structure: s})
			if err != nil {
				t.Fatal(err)
			}
			r := &fuzzRun{t: t, q: q, m: &model{capacity: capacity, now: start}, data: data[2:]}
			for n := 0; n < 500 && r.step(false); n++ {
			}
		}
	}
}
