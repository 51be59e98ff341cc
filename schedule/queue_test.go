package schedule_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/schedule"
)

var structures = []schedule.Structure{schedule.Heap, schedule.Scan}

func newQueue(t testing.TB, s schedule.Structure, capacity int, start uint64) *schedule.Queue[string] {
	t.Helper()
	q, err := schedule.New[string](schedule.Options{Capacity: capacity, Start: start, Structure: s})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return q
}

// log collects deliveries as "tick:payload@due" with "xN" for a count and
// "-N" for dropped occurrences.
type log struct{ got []string }

func (l *log) add(d schedule.Delivery[string]) {
	s := fmt.Sprintf("%d:%s@%d", d.Tick, d.Payload, d.Due)
	if d.Count != 1 {
		s += fmt.Sprintf("x%d", d.Count)
	}
	if d.Dropped != 0 {
		s += fmt.Sprintf("-%d", d.Dropped)
	}
	l.got = append(l.got, s)
}

// hnd returns a function that fails the test on a scheduling error.
func hnd(t testing.TB) func(schedule.Handle, error) schedule.Handle {
	return func(h schedule.Handle, err error) schedule.Handle {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
}

func ok(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// advance runs Advance for every tick from Now+1 to last.
func advance(t testing.TB, q *schedule.Queue[string], last uint64, deliver func(schedule.Delivery[string])) {
	t.Helper()
	for tick := q.Now() + 1; tick <= last; tick++ {
		if err := q.Advance(tick, deliver); err != nil {
			t.Fatalf("Advance(%d): %v", tick, err)
		}
	}
}

func forEachStructure(t *testing.T, f func(t *testing.T, s schedule.Structure)) {
	for _, s := range structures {
		t.Run(s.String(), func(t *testing.T) { f(t, s) })
	}
}

func TestDeliveryOrder(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, q *schedule.Queue[string], l *log)
		want []string
	}{
		{
			name: "equal due ticks fire in scheduling order",
			run: func(t *testing.T, q *schedule.Queue[string], l *log) {
				for _, s := range []struct {
					due uint64
					p   string
				}{{5, "a"}, {3, "b"}, {5, "c"}, {3, "d"}, {4, "e"}, {5, "f"}} {
					hnd(t)(q.At(s.due, s.p))
				}
				ok(t, q.Advance(10, l.add))
			},
			want: []string{"10:b@3", "10:d@3", "10:e@4", "10:a@5", "10:c@5", "10:f@5"},
		},
		{
			name: "one tick at a time",
			run: func(t *testing.T, q *schedule.Queue[string], l *log) {
				hnd(t)(q.At(3, "a"))
				hnd(t)(q.After(1, "b"))
				hnd(t)(q.After(3, "c"))
				advance(t, q, 4, l.add)
			},
			want: []string{"1:b@1", "3:a@3", "3:c@3"},
		},
		{
			name: "cancel during dispatch skips an entry of the due set",
			run: func(t *testing.T, q *schedule.Queue[string], l *log) {
				hnd(t)(q.At(2, "a"))
				hnd(t)(q.At(2, "b"))
				c := hnd(t)(q.At(2, "c"))
				ok(t, q.Advance(2, func(d schedule.Delivery[string]) {
					l.add(d)
					if d.Payload == "a" && !q.Cancel(c) {
						t.Error("Cancel(c) during dispatch = false, want true")
					}
					if q.Cancel(d.Handle) {
						t.Error("Cancel of the one-shot entry being delivered = true, want false")
					}
				}))
			},
			want: []string{"2:a@2", "2:b@2"},
		},
		{
			name: "reschedule during dispatch moves an entry out of the due set",
			run: func(t *testing.T, q *schedule.Queue[string], l *log) {
				hnd(t)(q.At(2, "a"))
				b := hnd(t)(q.At(2, "b"))
				hnd(t)(q.At(2, "c"))
				deliver := func(d schedule.Delivery[string]) {
					l.add(d)
					if d.Payload == "a" {
						if ok, err := q.Reschedule(b, 3); !ok || err != nil {
							t.Errorf("Reschedule(b, 3) = %v, %v, want true, nil", ok, err)
						}
					}
				}
				advance(t, q, 3, deliver)
			},
			want: []string{"2:a@2", "2:c@2", "3:b@3"},
		},
		{
			name: "scheduling during dispatch lands one tick later at the earliest",
			run: func(t *testing.T, q *schedule.Queue[string], l *log) {
				hnd(t)(q.At(1, "a"))
				var deliver func(d schedule.Delivery[string])
				deliver = func(d schedule.Delivery[string]) {
					l.add(d)
					if d.Payload == "a" {
						if _, err := q.At(d.Tick, "same tick"); !errors.Is(err, schedule.ErrTooEarly) {
							t.Errorf("At(current tick) during dispatch: err = %v, want ErrTooEarly", err)
						}
						if _, err := q.After(0, "zero delay"); !errors.Is(err, schedule.ErrTooEarly) {
							t.Errorf("After(0) during dispatch: err = %v, want ErrTooEarly", err)
						}
						hnd(t)(q.After(1, "b"))
						hnd(t)(q.At(d.Tick+1, "c"))
					}
					if d.Payload == "b" {
						hnd(t)(q.After(2, "d"))
					}
				}
				advance(t, q, 4, deliver)
			},
			want: []string{"1:a@1", "2:b@2", "2:c@2", "4:d@4"},
		},
		{
			name: "a late one-shot entry keeps its place by due tick",
			run: func(t *testing.T, q *schedule.Queue[string], l *log) {
				hnd(t)(q.At(7, "late 7"))
				hnd(t)(q.At(3, "late 3"))
				hnd(t)(q.At(11, "future"))
				ok(t, q.Advance(9, l.add))
				ok(t, q.Advance(9, l.add))
				ok(t, q.Advance(12, l.add))
			},
			want: []string{"9:late 3@3", "9:late 7@7", "12:future@11"},
		},
		{
			name: "clear during dispatch delivers nothing more",
			run: func(t *testing.T, q *schedule.Queue[string], l *log) {
				hnd(t)(q.At(1, "a"))
				hnd(t)(q.At(1, "b"))
				hnd(t)(q.At(2, "c"))
				ok(t, q.Advance(5, func(d schedule.Delivery[string]) {
					l.add(d)
					q.Clear()
					hnd(t)(q.After(1, "after clear"))
				}))
				ok(t, q.Advance(6, l.add))
			},
			want: []string{"5:a@1", "6:after clear@6"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forEachStructure(t, func(t *testing.T, s schedule.Structure) {
				q := newQueue(t, s, 8, 0)
				var l log
				c.run(t, q, &l)
				if !slices.Equal(l.got, c.want) {
					t.Errorf("deliveries:\n got %q\nwant %q", l.got, c.want)
				}
			})
		})
	}
}

func TestLatePolicies(t *testing.T) {
	cases := []struct {
		name     string
		late     schedule.LatePolicy
		want     []string
		wantNext uint64
	}{
		// A periodic entry due at 10, 20, 30, 40 is dispatched at 45 with a
		// one-shot entry due at 25 between its occurrences, then on time at 50.
		{"skip", schedule.Skip(), []string{"45:once@25", "45:every@40-3", "50:every@50"}, 60},
		{"zero value is skip", schedule.LatePolicy{}, []string{"45:once@25", "45:every@40-3", "50:every@50"}, 60},
		{"coalesce", schedule.Coalesce(), []string{"45:once@25", "45:every@40x4", "50:every@50"}, 60},
		{"catch up 1", schedule.CatchUp(1), []string{"45:once@25", "45:every@40-3", "50:every@50"}, 60},
		{"catch up 2", schedule.CatchUp(2), []string{"45:once@25", "45:every@30-2", "45:every@40", "50:every@50"}, 60},
		{"catch up 3", schedule.CatchUp(3), []string{"45:every@20-1", "45:once@25", "45:every@30", "45:every@40", "50:every@50"}, 60},
		{"catch up 4", schedule.CatchUp(4), []string{"45:every@10", "45:every@20", "45:once@25", "45:every@30", "45:every@40", "50:every@50"}, 60},
		{"catch up 100", schedule.CatchUp(100), []string{"45:every@10", "45:every@20", "45:once@25", "45:every@30", "45:every@40", "50:every@50"}, 60},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forEachStructure(t, func(t *testing.T, s schedule.Structure) {
				q := newQueue(t, s, 4, 0)
				h := hnd(t)(q.Every(10, 10, c.late, "every"))
				hnd(t)(q.At(25, "once"))
				var l log
				ok(t, q.Advance(45, l.add))
				if due, ok := q.Due(h); due != 50 || !ok {
					t.Errorf("after Advance(45): Due = %d, %v, want 50, true", due, ok)
				}
				ok(t, q.Advance(50, l.add))
				if !slices.Equal(l.got, c.want) {
					t.Errorf("deliveries:\n got %q\nwant %q", l.got, c.want)
				}
				if due, _ := q.Due(h); due != c.wantNext {
					t.Errorf("next due = %d, want %d", due, c.wantNext)
				}
			})
		})
	}
}

func TestPeriodicDuringDispatch(t *testing.T) {
	cases := []struct {
		name string
		// act runs inside the delivery of occurrence number i (from 0).
		act  func(q *schedule.Queue[string], d schedule.Delivery[string], i int)
		want []string
	}{
		{
			name: "cancel from its own delivery stops the catch-up",
			act: func(q *schedule.Queue[string], d schedule.Delivery[string], i int) {
				if i == 1 && !q.Cancel(d.Handle) {
					panic("Cancel(periodic handle) = false")
				}
			},
			want: []string{"10:p@4", "10:p@6"},
		},
		{
			name: "reschedule from its own delivery moves the phase",
			act: func(q *schedule.Queue[string], d schedule.Delivery[string], i int) {
				if i == 0 {
					if ok, err := q.Reschedule(d.Handle, 13); !ok || err != nil {
						panic(fmt.Sprint("Reschedule: ", ok, err))
					}
				}
			},
			want: []string{"10:p@4", "13:p@13", "15:p@15"},
		},
		{
			name: "nothing done keeps the phase",
			act:  func(*schedule.Queue[string], schedule.Delivery[string], int) {},
			want: []string{"10:p@4", "10:p@6", "10:p@8", "10:p@10", "12:p@12", "14:p@14"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forEachStructure(t, func(t *testing.T, s schedule.Structure) {
				q := newQueue(t, s, 2, 0)
				hnd(t)(q.Every(4, 2, schedule.CatchUp(10), "p"))
				var l log
				i := 0
				deliver := func(d schedule.Delivery[string]) {
					l.add(d)
					c.act(q, d, i)
					i++
				}
				ok(t, q.Advance(10, deliver))
				advance(t, q, 15, deliver)
				if !slices.Equal(l.got, c.want) {
					t.Errorf("deliveries:\n got %q\nwant %q", l.got, c.want)
				}
			})
		})
	}
}

func TestPeriodicMillionTicksNoDrift(t *testing.T) {
	const ticks = 1_000_000
	cases := []struct {
		name   string
		first  uint64
		period uint64
		// step is how many ticks each Advance moves: 1, or irregular jumps.
		step func(i uint64) uint64
		late schedule.LatePolicy
	}{
		{"every tick, period 1", 1, 1, func(uint64) uint64 { return 1 }, schedule.Skip()},
		{"every tick, period 7", 5, 7, func(uint64) uint64 { return 1 }, schedule.Skip()},
		{"jumps of 1 to 13, period 3, catch up", 2, 3, func(i uint64) uint64 { return 1 + i*7919%13 }, schedule.CatchUp(8)},
		{"jumps of 1 to 13, period 60, coalesce", 60, 60, func(i uint64) uint64 { return 1 + i*7919%13 }, schedule.Coalesce()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forEachStructure(t, func(t *testing.T, s schedule.Structure) {
				q := newQueue(t, s, 1, 0)
				hnd(t)(q.Every(c.first, c.period, c.late, ""))
				var occurrences, bad uint64
				var lastDue uint64
				deliver := func(d schedule.Delivery[string]) {
					if (d.Due-c.first)%c.period != 0 || d.Due > d.Tick || d.Due <= lastDue && occurrences > 0 {
						bad++
					}
					lastDue = d.Due
					occurrences += d.Count + d.Dropped
				}
				for i, tick := uint64(0), uint64(0); tick < ticks; i++ {
					tick = min(tick+c.step(i), ticks)
					if err := q.Advance(tick, deliver); err != nil {
						t.Fatal(err)
					}
				}
				want := (ticks-c.first)/c.period + 1
				if occurrences != want || bad != 0 {
					t.Errorf("occurrences = %d (%d off phase), want %d, 0", occurrences, bad, want)
				}
				wantLast := c.first + (want-1)*c.period
				if lastDue != wantLast {
					t.Errorf("last due = %d, want %d", lastDue, wantLast)
				}
			})
		})
	}
}

func TestHandles(t *testing.T) {
	forEachStructure(t, func(t *testing.T, s schedule.Structure) {
		q := newQueue(t, s, 1, 0)
		var none func(schedule.Delivery[string]) = func(schedule.Delivery[string]) {}

		a := hnd(t)(q.At(1, "a"))
		if a.IsZero() || !q.Pending(a) {
			t.Fatalf("new handle %v: IsZero %v, Pending %v, want false, true", a, a.IsZero(), q.Pending(a))
		}
		if got, ok := q.Payload(a); got != "a" || !ok {
			t.Errorf("Payload(a) = %q, %v, want a, true", got, ok)
		}
		if got, ok := q.Remaining(a); got != 1 || !ok {
			t.Errorf("Remaining(a) = %d, %v, want 1, true", got, ok)
		}
		ok(t, q.Advance(1, none))
		// Slot reuse: b takes a's slot with the next generation.
		b := hnd(t)(q.At(3, "b"))
		if a == b {
			t.Fatalf("handle after reuse %v equals the delivered one", b)
		}
		for _, h := range []schedule.Handle{a, {}} {
			if q.Pending(h) {
				t.Errorf("Pending(%v) = true, want false", h)
			}
			if q.Cancel(h) {
				t.Errorf("Cancel(%v) = true, want false", h)
			}
			if ok, err := q.Reschedule(h, 2); ok || err != nil {
				t.Errorf("Reschedule(%v) = %v, %v, want false, nil", h, ok, err)
			}
			if _, ok := q.Due(h); ok {
				t.Errorf("Due(%v) ok = true, want false", h)
			}
			if _, ok := q.Payload(h); ok {
				t.Errorf("Payload(%v) ok = true, want false", h)
			}
			if _, ok := q.Remaining(h); ok {
				t.Errorf("Remaining(%v) ok = true, want false", h)
			}
		}
		if due, ok := q.Due(b); due != 3 || !ok {
			t.Errorf("Due(b) after stale calls = %d, %v, want 3, true", due, ok)
		}
		if !q.Cancel(b) || q.Cancel(b) {
			t.Error("Cancel(b) twice: want true then false")
		}
		c := hnd(t)(q.At(3, "c"))
		q.Clear()
		if q.Pending(c) || q.Len() != 0 {
			t.Errorf("after Clear: Pending(c) = %v, Len = %d, want false, 0", q.Pending(c), q.Len())
		}
		d := hnd(t)(q.At(2, "d"))
		q.Reset(0)
		if q.Pending(d) || q.Now() != 0 {
			t.Errorf("after Reset(0): Pending(d) = %v, Now = %d, want false, 0", q.Pending(d), q.Now())
		}
		for i, h := range []schedule.Handle{a, b, c, d} {
			for _, other := range []schedule.Handle{a, b, c, d}[i+1:] {
				if h == other {
					t.Errorf("handles %v and %v are equal", h, other)
				}
			}
		}
	})
}

func TestGenerationExhaustionRetiresSlot(t *testing.T) {
	forEachStructure(t, func(t *testing.T, s schedule.Structure) {
		q := newQueue(t, s, 2, 0)
		schedule.SetFreeGeneration(q, math.MaxUint32)
		old := hnd(t)(q.At(1, "last generation"))
		q.Cancel(old)
		if got := q.Cap() - q.Len(); got != 2 {
			t.Fatalf("free before: %d", got)
		}
		// The retired slot is never reused: one entry fits, not two.
		h := hnd(t)(q.At(1, "x"))
		if h == old || q.Pending(old) {
			t.Errorf("new handle %v vs retired %v: pending old %v", h, old, q.Pending(old))
		}
		if _, err := q.At(1, "y"); !errors.Is(err, schedule.ErrFull) {
			t.Errorf("second At with a retired slot: err = %v, want ErrFull", err)
		}
		if q.Len() != 1 {
			t.Errorf("Len = %d, want 1", q.Len())
		}
		q.Clear()
		hnd(t)(q.At(1, "after clear"))
		if _, err := q.At(1, "y"); !errors.Is(err, schedule.ErrFull) {
			t.Errorf("after Clear, the retired slot must stay retired: err = %v", err)
		}
	})
}

func TestErrors(t *testing.T) {
	forEachStructure(t, func(t *testing.T, s schedule.Structure) {
		q := newQueue(t, s, 2, 10)
		none := func(schedule.Delivery[string]) {}
		check := func(what string, err error, want ...error) {
			t.Helper()
			for _, w := range want {
				if !errors.Is(err, w) {
					t.Errorf("%s: err = %v, want %v", what, err, w)
				}
			}
			if len(want) == 0 && err != nil {
				t.Errorf("%s: err = %v, want nil", what, err)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "schedule: ") {
				t.Errorf("%s: message %q lacks the package prefix", what, err)
			}
		}
		_, err := q.At(10, "now")
		check("At(Now)", err, schedule.ErrTooEarly)
		_, err = q.At(3, "past")
		check("At(past)", err, schedule.ErrTooEarly)
		_, err = q.After(math.MaxUint64-9, "beyond the range")
		check("After past the tick range", err, schedule.ErrTickRange)
		_, err = q.After(math.MaxUint64-10, "last tick")
		check("After to the last tick", err)
		_, err = q.Every(20, 0, schedule.CatchUp(0), "bad")
		check("Every(period 0, CatchUp(0))", err, schedule.ErrInvalid)
		if err != nil && (!strings.Contains(err.Error(), "period 0") || !strings.Contains(err.Error(), "CatchUp limit 0")) {
			t.Errorf("Every errors must name both problems: %v", err)
		}
		_, err = q.Every(20, 1, schedule.CatchUp(schedule.MaxCatchUp+1), "bad")
		check("Every(CatchUp too large)", err, schedule.ErrInvalid)
		_, err = q.At(11, "fits")
		check("At(11)", err)
		_, err = q.At(12, "overflow")
		check("At on a full queue", err, schedule.ErrFull)
		_, err = q.At(5, "overflow and early")
		check("At on a full queue in the past", err, schedule.ErrFull, schedule.ErrTooEarly)
		_, err = q.Every(5, 0, schedule.Skip(), "everything wrong")
		check("Every with everything wrong", err, schedule.ErrFull, schedule.ErrTooEarly, schedule.ErrInvalid)
		check("Advance(11)", q.Advance(11, none))
		check("Advance(5)", q.Advance(5, none), schedule.ErrTickBackwards)
		if q.Now() != 11 {
			t.Errorf("Now after a refused Advance = %d, want 11", q.Now())
		}
		q.Reset(math.MaxUint64)
		_, err = q.After(1, "no tick left")
		check("After at the last tick", err, schedule.ErrTickRange)
		_, err = q.At(math.MaxUint64, "no tick left")
		check("At at the last tick", err, schedule.ErrTickRange)
	})
}

func TestPeriodicEndOfTickRange(t *testing.T) {
	forEachStructure(t, func(t *testing.T, s schedule.Structure) {
		q := newQueue(t, s, 1, math.MaxUint64-10)
		h := hnd(t)(q.Every(math.MaxUint64-5, 4, schedule.Skip(), "p"))
		var l log
		var lasts []bool
		deliver := func(d schedule.Delivery[string]) { l.add(d); lasts = append(lasts, d.Last) }
		if err := q.Advance(math.MaxUint64-5, deliver); err != nil {
			t.Fatal(err)
		}
		err := q.Advance(math.MaxUint64-1, deliver)
		if !errors.Is(err, schedule.ErrTickRange) {
			t.Errorf("Advance to the periodic entry's last occurrence: err = %v, want ErrTickRange", err)
		}
		want := []string{"18446744073709551610:p@18446744073709551610", "18446744073709551614:p@18446744073709551614"}
		if !slices.Equal(l.got, want) || !slices.Equal(lasts, []bool{false, true}) {
			t.Errorf("deliveries %q last %v, want %q [false true]", l.got, lasts, want)
		}
		if q.Pending(h) || q.Len() != 0 {
			t.Errorf("ended entry: Pending %v, Len %d", q.Pending(h), q.Len())
		}
	})
}

func TestSequenceExhaustion(t *testing.T) {
	forEachStructure(t, func(t *testing.T, s schedule.Structure) {
		q := newQueue(t, s, 4, 0)
		schedule.SetSequence(q, math.MaxUint64-2)
		a := hnd(t)(q.At(5, "a"))
		hnd(t)(q.At(5, "b"))
		if _, err := q.At(5, "c"); !errors.Is(err, schedule.ErrSequenceRange) {
			t.Errorf("At after the last sequence: err = %v, want ErrSequenceRange", err)
		}
		if ok, err := q.Reschedule(a, 6); ok || !errors.Is(err, schedule.ErrSequenceRange) {
			t.Errorf("Reschedule after the last sequence = %v, %v, want false, ErrSequenceRange", ok, err)
		}
		var l log
		ok(t, q.Advance(6, l.add))
		if want := []string{"6:a@5", "6:b@5"}; !slices.Equal(l.got, want) {
			t.Errorf("deliveries %q, want %q", l.got, want)
		}
		q.Reset(0)
		if _, err := q.At(1, "after reset"); err != nil {
			t.Errorf("At after Reset: %v", err)
		}
	})
}

func TestNewValidation(t *testing.T) {
	cases := []struct {
		name  string
		opts  schedule.Options
		parts []string
	}{
		{"zero capacity", schedule.Options{}, []string{"Options.Capacity 0, allowed 1..16777216"}},
		{"too large", schedule.Options{Capacity: schedule.MaxCapacity + 1}, []string{"Options.Capacity 16777217"}},
		{"everything", schedule.Options{Capacity: -1, Structure: 9}, []string{"Options.Capacity -1", "Options.Structure 9"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := schedule.New[int](c.opts)
			if q != nil || !errors.Is(err, schedule.ErrInvalid) {
				t.Fatalf("New = %v, %v, want nil, ErrInvalid", q, err)
			}
			for _, p := range c.parts {
				if !strings.Contains(err.Error(), p) {
					t.Errorf("error %q does not mention %q", err, p)
				}
			}
		})
	}
	for _, c := range []struct {
		capacity int
		want     schedule.Structure
	}{{1, schedule.Heap}, {1024, schedule.Heap}} {
		q, err := schedule.New[int](schedule.Options{Capacity: c.capacity})
		if err != nil {
			t.Fatal(err)
		}
		if q.Structure() != c.want || q.Cap() != c.capacity || q.Len() != 0 || q.Now() != 0 {
			t.Errorf("New(Capacity %d): Structure %v, Cap %d, Len %d, Now %d, want %v, %d, 0, 0",
				c.capacity, q.Structure(), q.Cap(), q.Len(), q.Now(), c.want, c.capacity)
		}
	}
}

func TestAdvancePanics(t *testing.T) {
	cases := []struct {
		name string
		run  func(q *schedule.Queue[string])
		want string
	}{
		{"nil deliver", func(q *schedule.Queue[string]) { _ = q.Advance(1, nil) }, "schedule: Advance with a nil deliver function"},
		{"recursive Advance", func(q *schedule.Queue[string]) {
			_, _ = q.At(1, "a")
			_ = q.Advance(1, func(schedule.Delivery[string]) { _ = q.Advance(2, func(schedule.Delivery[string]) {}) })
		}, "schedule: Advance called during a dispatch"},
		{"Reset during dispatch", func(q *schedule.Queue[string]) {
			_, _ = q.At(1, "a")
			_ = q.Advance(1, func(schedule.Delivery[string]) { q.Reset(0) })
		}, "schedule: Reset called during a dispatch"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forEachStructure(t, func(t *testing.T, s schedule.Structure) {
				q := newQueue(t, s, 2, 0)
				func() {
					defer func() {
						if got := fmt.Sprint(recover()); got != c.want {
							t.Errorf("panic = %q, want %q", got, c.want)
						}
					}()
					c.run(q)
				}()
				// The queue is usable after a panic in a delivery.
				hnd(t)(q.After(1, "b"))
				var l log
				ok(t, q.Advance(q.Now()+1, l.add))
				if len(l.got) != 1 || !strings.HasSuffix(l.got[0], ":b@"+fmt.Sprint(q.Now())) {
					t.Errorf("after the panic: deliveries %q", l.got)
				}
			})
		})
	}
}

func TestPanickingDeliveryKeepsTheRest(t *testing.T) {
	forEachStructure(t, func(t *testing.T, s schedule.Structure) {
		q := newQueue(t, s, 4, 0)
		for _, p := range []string{"a", "boom", "c"} {
			hnd(t)(q.At(2, p))
		}
		hnd(t)(q.At(5, "d"))
		func() {
			defer func() { _ = recover() }()
			_ = q.Advance(2, func(d schedule.Delivery[string]) {
				if d.Payload == "boom" {
					panic("boom")
				}
			})
		}()
		var l log
		ok(t, q.Advance(6, l.add))
		if want := []string{"6:c@2", "6:d@5"}; !slices.Equal(l.got, want) {
			t.Errorf("deliveries after a panicking one %q, want %q", l.got, want)
		}
	})
}

func TestOverflow(t *testing.T) {
	cases := []struct {
		name string
		add  func(q *schedule.Queue[string]) (schedule.Handle, error)
	}{
		{"At", func(q *schedule.Queue[string]) (schedule.Handle, error) { return q.At(q.Now()+2, "x") }},
		{"After", func(q *schedule.Queue[string]) (schedule.Handle, error) { return q.After(3, "x") }},
		{"Every", func(q *schedule.Queue[string]) (schedule.Handle, error) {
			return q.Every(q.Now()+1, 5, schedule.Coalesce(), "x")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forEachStructure(t, func(t *testing.T, s schedule.Structure) {
				q := newQueue(t, s, 3, 0)
				var hs []schedule.Handle
				for range 3 {
					hs = append(hs, hnd(t)(c.add(q)))
				}
				for range 2 {
					h, err := c.add(q)
					if !errors.Is(err, schedule.ErrFull) || !h.IsZero() {
						t.Fatalf("add to a full queue = %v, %v, want the zero handle and ErrFull", h, err)
					}
					if err != nil && !strings.Contains(err.Error(), "3 of 3") {
						t.Errorf("error %q does not give the capacity", err)
					}
				}
				if q.Len() != 3 {
					t.Errorf("Len after refused adds = %d, want 3", q.Len())
				}
				for _, h := range hs {
					if !q.Pending(h) {
						t.Errorf("entry %v lost by an overflow", h)
					}
				}
				q.Cancel(hs[1])
				hnd(t)(c.add(q))
				if _, err := c.add(q); !errors.Is(err, schedule.ErrFull) {
					t.Errorf("add after refilling the freed slot: err = %v, want ErrFull", err)
				}
			})
		})
	}
}

func TestStats(t *testing.T) {
	forEachStructure(t, func(t *testing.T, s schedule.Structure) {
		q := newQueue(t, s, 4, 0)
		none := func(schedule.Delivery[string]) {}
		hnd(t)(q.Every(10, 10, schedule.Skip(), "skip"))
		hnd(t)(q.Every(10, 10, schedule.Coalesce(), "coalesce"))
		hnd(t)(q.Every(10, 10, schedule.CatchUp(2), "catch up"))
		a := hnd(t)(q.At(5, "a"))
		_, _ = q.At(6, "full")
		_, _ = q.After(0, "too early")
		_, _ = q.Every(20, 0, schedule.Skip(), "bad period")
		q.Cancel(a)
		q.Cancel(a)
		// At 45 ticks 10, 20, 30 and 40 are due: skip drops 3, coalesce
		// folds 3, catch up drops 2 and delivers 2.
		ok(t, q.Advance(45, none))
		want := schedule.Stats{Scheduled: 4, Refused: 3, Cancelled: 1, Delivered: 4, Dropped: 5, Coalesced: 3, Peak: 4}
		if got := q.Stats(); got != want {
			t.Errorf("Stats = %+v, want %+v", got, want)
		}
		q.Reset(0)
		if got := q.Stats(); got != want {
			t.Errorf("Stats after Reset = %+v, want %+v (kept)", got, want)
		}
	})
}

// A queue large enough for the heap's path for big heaps delivers the same
// sequence as the scan, in (due, scheduling order).
func TestLargeQueueOrder(t *testing.T) {
	const n = 20_000
	run := func(s schedule.Structure) []int {
		q, err := schedule.New[int](schedule.Options{Capacity: n, Structure: s})
		if err != nil {
			t.Fatal(err)
		}
		r := rng(88172645463325252)
		handles := make([]schedule.Handle, n)
		for i := range handles {
			handles[i], err = q.At(1+r.next(3000), i)
			if err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < n; i += 7 {
			q.Cancel(handles[i])
		}
		for i := 3; i < n; i += 11 {
			_, _ = q.Reschedule(handles[i], 1+r.next(3000))
		}
		var got []int
		lastDue := uint64(0)
		for tick := uint64(0); tick < 3100; tick += 1 + r.next(40) {
			err := q.Advance(tick, func(d schedule.Delivery[int]) {
				if d.Due < lastDue {
					t.Fatalf("%v: due %d delivered after due %d", s, d.Due, lastDue)
				}
				lastDue = d.Due
				got = append(got, d.Payload)
				if d.Payload%5 == 0 {
					_, _ = q.After(1+r.next(100), -d.Payload)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		return got
	}
	heap, scan := run(schedule.Heap), run(schedule.Scan)
	if len(heap) < n/2 || !slices.Equal(heap, scan) {
		t.Errorf("heap delivered %d entries, scan %d; equal sequences: %v", len(heap), len(scan), slices.Equal(heap, scan))
	}
}
