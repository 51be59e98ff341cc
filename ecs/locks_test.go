package ecs_test

import (
	"slices"
	"testing"

	arche "github.com/mlange-42/arche/ecs"

	"github.com/metronome-go/metronome/ecs"
)

// TestArcheCloseOfAReleasedQueryPanics pins the Arche behaviour the World's
// query bookkeeping relies on (see locks.go): closing a query whose lock is
// already released panics, and leaves every other query's lock as it was.
func TestArcheCloseOfAReleasedQueryPanics(t *testing.T) {
	w := arche.NewWorld()
	id := arche.ComponentID[position](&w)
	w.NewEntity(id)
	w.NewEntity(id)
	outer := w.Query(arche.All(id))
	if !outer.Next() {
		t.Fatal("outer query found no entity")
	}
	inner := w.Query(arche.All(id))
	for inner.Next() {
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Close of a finished query: got no panic, want one")
			}
		}()
		inner.Close()
	}()
	if !w.IsLocked() {
		t.Fatal("the outer query lost its lock")
	}
	visits := 1
	for outer.Next() {
		visits++
	}
	if visits != 2 || w.IsLocked() {
		t.Errorf("outer query after the panic: %d visits, locked %v; want 2 and unlocked", visits, w.IsLocked())
	}
}

func TestCloseOfAFinishedQueryDoesNothing(t *testing.T) {
	w := ecs.NewWorld()
	spawnPV(w, 3)
	f := ecs.NewFilter1[position](w)
	g := ecs.NewFilter1[velocity](w)
	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"alone", func(t *testing.T) {
			q := f.Query()
			for q.Next() {
			}
			q.Close()
			q.Close()
		}},
		{"never started", func(t *testing.T) {
			q := f.Query()
			q.Close()
			if w.Locked() {
				t.Error("locked after Close of an unstarted query")
			}
		}},
		{"zero value", func(t *testing.T) {
			var q ecs.Query2[position, velocity]
			q.Close()
		}},
		{"under an open outer query", func(t *testing.T) {
			outer := f.Query()
			visits := 0
			for outer.Next() {
				visits++
				inner := g.Query()
				for inner.Next() {
				}
				inner.Close()
				if !w.Locked() {
					t.Fatal("Close of a finished inner query unlocked the outer one")
				}
			}
			if visits != 3 {
				t.Errorf("outer visits: got %d, want 3", visits)
			}
		}},
		{"finished inner query closed after a later one", func(t *testing.T) {
			outer := f.Query()
			outer.Next()
			a := g.Query()
			for a.Next() {
			}
			b := g.Query()
			for b.Next() {
			}
			a.Close()
			b.Close()
			if !w.Locked() {
				t.Fatal("closing finished inner queries unlocked the outer one")
			}
			outer.Close()
		}},
		{"early exit from an inner query", func(t *testing.T) {
			outer := f.Query()
			visits := 0
			for outer.Next() {
				visits++
				inner := g.Query()
				inner.Next()
				inner.Close()
			}
			if visits != 3 {
				t.Errorf("outer visits: got %d, want 3", visits)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.run(t)
			if w.Locked() {
				t.Error("world locked after every query finished or was closed")
			}
			if got := w.Apply(); got != 0 {
				t.Errorf("leaked queries: got %d, want 0", got)
			}
		})
	}
}

// TestManyInnerQueriesUnderOneOuter makes more inner queries than Arche
// has lock bits while one outer query stays open: finished and closed
// queries must give their locks back.
func TestManyInnerQueriesUnderOneOuter(t *testing.T) {
	w := ecs.NewWorld()
	spawnPV(w, arche.MaskTotalBits+10)
	f := ecs.NewFilter1[position](w)
	g := ecs.NewFilter1[velocity](w)
	outer := f.Query()
	inners := 0
	for outer.Next() {
		inner := g.Query()
		if inners%2 == 0 {
			inner.Next()
			inner.Close()
		} else {
			for inner.Next() {
				break
			}
			inner.Close()
			done := g.Query()
			for done.Next() {
			}
			done.Close()
		}
		inners++
	}
	if got, want := inners, arche.MaskTotalBits+10; got != want {
		t.Errorf("inner queries: got %d, want %d", got, want)
	}
	if got := w.Apply(); got != 0 || w.Locked() {
		t.Errorf("after the loops: %d leaked, locked %v; want 0 and unlocked", got, w.Locked())
	}
}

func TestLeakedQueriesAreCountedOnce(t *testing.T) {
	tests := []struct {
		name string
		open func(f *ecs.Filter1[position]) // leaves queries open
		want int
	}{
		{"none", func(f *ecs.Filter1[position]) {
			q := f.Query()
			for q.Next() {
			}
		}, 0},
		{"after a finished one", func(f *ecs.Filter1[position]) {
			done := f.Query()
			for done.Next() {
			}
			q := f.Query() // takes the finished query's lock
			q.Next()
		}, 1},
		{"nested", func(f *ecs.Filter1[position]) {
			outer := f.Query()
			outer.Next()
			inner := f.Query()
			inner.Next()
		}, 2},
		{"under an outer that finished", func(f *ecs.Filter1[position]) {
			outer := f.Query()
			for outer.Next() {
				inner := f.Query()
				for inner.Next() {
				}
			}
			q := f.Query()
			q.Next()
			closed := f.Query()
			closed.Next()
			closed.Close()
		}, 1},
		{"never started", func(f *ecs.Filter1[position]) { f.Query() }, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := ecs.NewWorld()
			spawnPV(w, 3)
			f := ecs.NewFilter1[position](w)
			tt.open(f)
			if got := w.Apply(); got != tt.want {
				t.Errorf("leaked queries: got %d, want %d", got, tt.want)
			}
			if w.Locked() {
				t.Error("world locked after Apply")
			}
			if got := w.Apply(); got != 0 {
				t.Errorf("second Apply: got %d leaked, want 0", got)
			}
		})
	}
}

// fuzzQuery is the model of one query in FuzzQueryLocks.
type fuzzQuery struct {
	q      ecs.Query1[position]
	state  byte // queryOpen, queryFinished, queryClosed (by Close or Apply)
	visits int
	want   int // entities the query visits in total
}

const (
	queryOpen = iota
	queryFinished
	queryClosed
)

// FuzzQueryLocks plays random programs of queries made, stepped, finished,
// closed and left open, with sync points in between, against a model: the
// world must be locked exactly while a query is open, each query must visit
// every entity it matches, and every sync point must close and count
// exactly the queries left open. The one documented misuse, closing a
// finished query while a query made after it is still open, is not played.
func FuzzQueryLocks(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 2, 1, 3, 0, 5})
	f.Add([]byte{0, 0, 0, 1, 0, 2, 1, 2, 0, 3, 1, 4, 0, 5, 0, 3, 1, 5})
	f.Add([]byte{0, 1, 0, 1, 0, 1, 2, 1, 2, 2, 3, 0, 0, 0, 4, 2, 5, 3, 1})
	f.Fuzz(playQueryLocks)
}

func playQueryLocks(t *testing.T, prog []byte) {
	w := ecs.NewWorld()
	cmd := w.Commands()
	for i := range 5 {
		p := cmd.Spawn()
		ecs.With(p, position{X: float32(i)})
		if i%2 == 0 {
			ecs.With(p, velocity{})
		}
	}
	w.Apply()
	filters := []*ecs.Filter1[position]{
		ecs.NewFilter1[position](w),
		ecs.NewFilter1[position](w).With(ecs.TypeOf[velocity]()),
		ecs.NewFilter1[position](w).Without(ecs.TypeOf[velocity]()),
	}
	var qs []*fuzzQuery
	open := func() int {
		n := 0
		for _, q := range qs {
			if q.state == queryOpen {
				n++
			}
		}
		return n
	}
	pick := func(b byte) *fuzzQuery {
		if len(qs) == 0 {
			return nil
		}
		return qs[int(b)%len(qs)]
	}
	step := func(q *fuzzQuery) {
		if q.q.Next() {
			q.visits++
			return
		}
		q.state = queryFinished
		if q.visits != q.want {
			t.Fatalf("query visited %d entities, want %d", q.visits, q.want)
		}
	}
	for i := 0; i+1 < len(prog); i += 2 {
		op, arg := prog[i]%6, prog[i+1]
		switch op {
		case 0: // make a query
			if open() >= 64 {
				continue
			}
			fl := filters[int(arg)%len(filters)]
			qs = append(qs, &fuzzQuery{q: fl.Query(), want: fl.Count()})
		case 1: // one step
			if q := pick(arg); q != nil && q.state == queryOpen {
				step(q)
			}
		case 2: // run to the end
			if q := pick(arg); q != nil && q.state == queryOpen {
				for q.state == queryOpen {
					step(q)
				}
			}
		case 3: // close
			q := pick(arg)
			if q == nil {
				continue
			}
			if q.state == queryFinished {
				k := slices.Index(qs, q)
				if slices.ContainsFunc(qs[k+1:], func(l *fuzzQuery) bool { return l.state == queryOpen }) {
					continue // the documented misuse
				}
			}
			q.q.Close()
			q.state = queryClosed
		case 4, 5: // sync point
			want := open()
			if got := w.Apply(); got != want {
				t.Fatalf("leaked queries closed: got %d, want %d", got, want)
			}
			for _, q := range qs {
				q.state = queryClosed
			}
			if op == 5 {
				qs = qs[:0]
			}
		}
		if got, want := w.Locked(), open() > 0; got != want {
			t.Fatalf("after op %d: locked %v, want %v", op, got, want)
		}
	}
	if got, want := w.Apply(), open(); got != want {
		t.Fatalf("final sync: got %d leaked, want %d", got, want)
	}
}
