// The four filter and query variants below follow one pattern; keep them in step.

package ecs

import (
	"reflect"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// querier is a filter whose open queries the world can close at a sync point.
type querier interface{ closeOpen() int }

// nodeIndexField locates arche.Query's iteration index, which Arche sets to
// -2 when a query closes (at the end of iteration or on Close). Reading it
// tells a finished query from one a system left open without adding a
// single instruction to Next, which must stay small enough to inline.
var nodeIndexField = func() []int {
	f, ok := reflect.TypeFor[arche.Query]().FieldByName("nodeIndex")
	if !ok || f.Type.Kind() != reflect.Int32 {
		panic("ecs: this version of Arche has no Query.nodeIndex; update closed()")
	}
	return f.Index
}()

// closed reports whether Arche has closed q.
func closed(q *arche.Query) bool {
	return reflect.ValueOf(q).Elem().FieldByIndex(nodeIndexField).Int() == -2
}

// Filter1 selects the entities that have one component (plus the constraints
// added with With and Without) and hands out [Query1] iterators.
//
// Create filters at set-up time. A filter keeps its iterators and reuses
// them, so querying allocates nothing in steady state; nested loops over the
// same filter are fine.
type Filter1[A any] struct {
	w     *World
	f     *generic.Filter1[A]
	slots []*Query1[A]
}

// NewFilter1 returns a filter over entities with one component and registers it with w.
func NewFilter1[A any](w *World) *Filter1[A] {
	f := &Filter1[A]{w: w, f: generic.NewFilter1[A]()}
	w.queriers = append(w.queriers, f)
	return f
}

// With further requires the given component types.
func (f *Filter1[A]) With(types ...ComponentType) *Filter1[A] {
	f.f.With(comps(types)...)
	return f
}

// Without excludes entities that have any of the given component types.
func (f *Filter1[A]) Without(types ...ComponentType) *Filter1[A] {
	f.f.Without(comps(types)...)
	return f
}

// Query returns an iterator positioned before the first entity. Iterate it
// with Next until it returns false, or call Close when leaving early.
func (f *Filter1[A]) Query() *Query1[A] {
	var q *Query1[A]
	for _, s := range f.slots {
		if closed(&s.q.Query) {
			q = s
			break
		}
	}
	if q == nil {
		q = new(Query1[A])
		f.slots = append(f.slots, q)
	}
	q.q = f.f.Query(&f.w.w)
	return q
}

// Count returns the number of entities the filter currently matches.
func (f *Filter1[A]) Count() int {
	q := f.f.Query(&f.w.w)
	c := q.Count()
	q.Close()
	return c
}

func (f *Filter1[A]) closeOpen() int {
	n := 0
	for _, s := range f.slots {
		if !closed(&s.q.Query) {
			s.q.Close()
			n++
		}
	}
	return n
}

// Query1 iterates the entities of a [Filter1]. While it is open the world is
// locked: queue structural changes in [Commands].
type Query1[A any] struct {
	q generic.Query1[A]
}

// Next advances to the next entity and reports whether there is one. When it
// returns false the query is closed.
func (q *Query1[A]) Next() bool { return q.q.Next() }

// Get returns pointers to the current entity's components. They are valid
// until Next is called; do not keep them.
func (q *Query1[A]) Get() *A { return q.q.Get() }

// Entity returns the current entity.
func (q *Query1[A]) Entity() Entity { return Entity{q.q.Entity()} }

// Count returns the number of entities the query visits in total.
func (q *Query1[A]) Count() int { return q.q.Count() }

// Close ends the iteration early and unlocks the world. Closing a finished or
// closed query does nothing.
func (q *Query1[A]) Close() {
	if !closed(&q.q.Query) {
		q.q.Close()
	}
}

// Filter2 selects the entities that have two components (plus the constraints
// added with With and Without) and hands out [Query2] iterators.
//
// Create filters at set-up time. A filter keeps its iterators and reuses
// them, so querying allocates nothing in steady state; nested loops over the
// same filter are fine.
type Filter2[A any, B any] struct {
	w     *World
	f     *generic.Filter2[A, B]
	slots []*Query2[A, B]
}

// NewFilter2 returns a filter over entities with two components and registers it with w.
func NewFilter2[A any, B any](w *World) *Filter2[A, B] {
	f := &Filter2[A, B]{w: w, f: generic.NewFilter2[A, B]()}
	w.queriers = append(w.queriers, f)
	return f
}

// With further requires the given component types.
func (f *Filter2[A, B]) With(types ...ComponentType) *Filter2[A, B] {
	f.f.With(comps(types)...)
	return f
}

// Without excludes entities that have any of the given component types.
func (f *Filter2[A, B]) Without(types ...ComponentType) *Filter2[A, B] {
	f.f.Without(comps(types)...)
	return f
}

// Query returns an iterator positioned before the first entity. Iterate it
// with Next until it returns false, or call Close when leaving early.
func (f *Filter2[A, B]) Query() *Query2[A, B] {
	var q *Query2[A, B]
	for _, s := range f.slots {
		if closed(&s.q.Query) {
			q = s
			break
		}
	}
	if q == nil {
		q = new(Query2[A, B])
		f.slots = append(f.slots, q)
	}
	q.q = f.f.Query(&f.w.w)
	return q
}

// Count returns the number of entities the filter currently matches.
func (f *Filter2[A, B]) Count() int {
	q := f.f.Query(&f.w.w)
	c := q.Count()
	q.Close()
	return c
}

func (f *Filter2[A, B]) closeOpen() int {
	n := 0
	for _, s := range f.slots {
		if !closed(&s.q.Query) {
			s.q.Close()
			n++
		}
	}
	return n
}

// Query2 iterates the entities of a [Filter2]. While it is open the world is
// locked: queue structural changes in [Commands].
type Query2[A any, B any] struct {
	q generic.Query2[A, B]
}

// Next advances to the next entity and reports whether there is one. When it
// returns false the query is closed.
func (q *Query2[A, B]) Next() bool { return q.q.Next() }

// Get returns pointers to the current entity's components. They are valid
// until Next is called; do not keep them.
func (q *Query2[A, B]) Get() (*A, *B) { return q.q.Get() }

// Entity returns the current entity.
func (q *Query2[A, B]) Entity() Entity { return Entity{q.q.Entity()} }

// Count returns the number of entities the query visits in total.
func (q *Query2[A, B]) Count() int { return q.q.Count() }

// Close ends the iteration early and unlocks the world. Closing a finished or
// closed query does nothing.
func (q *Query2[A, B]) Close() {
	if !closed(&q.q.Query) {
		q.q.Close()
	}
}

// Filter3 selects the entities that have three components (plus the constraints
// added with With and Without) and hands out [Query3] iterators.
//
// Create filters at set-up time. A filter keeps its iterators and reuses
// them, so querying allocates nothing in steady state; nested loops over the
// same filter are fine.
type Filter3[A any, B any, C any] struct {
	w     *World
	f     *generic.Filter3[A, B, C]
	slots []*Query3[A, B, C]
}

// NewFilter3 returns a filter over entities with three components and registers it with w.
func NewFilter3[A any, B any, C any](w *World) *Filter3[A, B, C] {
	f := &Filter3[A, B, C]{w: w, f: generic.NewFilter3[A, B, C]()}
	w.queriers = append(w.queriers, f)
	return f
}

// With further requires the given component types.
func (f *Filter3[A, B, C]) With(types ...ComponentType) *Filter3[A, B, C] {
	f.f.With(comps(types)...)
	return f
}

// Without excludes entities that have any of the given component types.
func (f *Filter3[A, B, C]) Without(types ...ComponentType) *Filter3[A, B, C] {
	f.f.Without(comps(types)...)
	return f
}

// Query returns an iterator positioned before the first entity. Iterate it
// with Next until it returns false, or call Close when leaving early.
func (f *Filter3[A, B, C]) Query() *Query3[A, B, C] {
	var q *Query3[A, B, C]
	for _, s := range f.slots {
		if closed(&s.q.Query) {
			q = s
			break
		}
	}
	if q == nil {
		q = new(Query3[A, B, C])
		f.slots = append(f.slots, q)
	}
	q.q = f.f.Query(&f.w.w)
	return q
}

// Count returns the number of entities the filter currently matches.
func (f *Filter3[A, B, C]) Count() int {
	q := f.f.Query(&f.w.w)
	c := q.Count()
	q.Close()
	return c
}

func (f *Filter3[A, B, C]) closeOpen() int {
	n := 0
	for _, s := range f.slots {
		if !closed(&s.q.Query) {
			s.q.Close()
			n++
		}
	}
	return n
}

// Query3 iterates the entities of a [Filter3]. While it is open the world is
// locked: queue structural changes in [Commands].
type Query3[A any, B any, C any] struct {
	q generic.Query3[A, B, C]
}

// Next advances to the next entity and reports whether there is one. When it
// returns false the query is closed.
func (q *Query3[A, B, C]) Next() bool { return q.q.Next() }

// Get returns pointers to the current entity's components. They are valid
// until Next is called; do not keep them.
func (q *Query3[A, B, C]) Get() (*A, *B, *C) { return q.q.Get() }

// Entity returns the current entity.
func (q *Query3[A, B, C]) Entity() Entity { return Entity{q.q.Entity()} }

// Count returns the number of entities the query visits in total.
func (q *Query3[A, B, C]) Count() int { return q.q.Count() }

// Close ends the iteration early and unlocks the world. Closing a finished or
// closed query does nothing.
func (q *Query3[A, B, C]) Close() {
	if !closed(&q.q.Query) {
		q.q.Close()
	}
}

// Filter4 selects the entities that have four components (plus the constraints
// added with With and Without) and hands out [Query4] iterators.
//
// Create filters at set-up time. A filter keeps its iterators and reuses
// them, so querying allocates nothing in steady state; nested loops over the
// same filter are fine.
type Filter4[A any, B any, C any, D any] struct {
	w     *World
	f     *generic.Filter4[A, B, C, D]
	slots []*Query4[A, B, C, D]
}

// NewFilter4 returns a filter over entities with four components and registers it with w.
func NewFilter4[A any, B any, C any, D any](w *World) *Filter4[A, B, C, D] {
	f := &Filter4[A, B, C, D]{w: w, f: generic.NewFilter4[A, B, C, D]()}
	w.queriers = append(w.queriers, f)
	return f
}

// With further requires the given component types.
func (f *Filter4[A, B, C, D]) With(types ...ComponentType) *Filter4[A, B, C, D] {
	f.f.With(comps(types)...)
	return f
}

// Without excludes entities that have any of the given component types.
func (f *Filter4[A, B, C, D]) Without(types ...ComponentType) *Filter4[A, B, C, D] {
	f.f.Without(comps(types)...)
	return f
}

// Query returns an iterator positioned before the first entity. Iterate it
// with Next until it returns false, or call Close when leaving early.
func (f *Filter4[A, B, C, D]) Query() *Query4[A, B, C, D] {
	var q *Query4[A, B, C, D]
	for _, s := range f.slots {
		if closed(&s.q.Query) {
			q = s
			break
		}
	}
	if q == nil {
		q = new(Query4[A, B, C, D])
		f.slots = append(f.slots, q)
	}
	q.q = f.f.Query(&f.w.w)
	return q
}

// Count returns the number of entities the filter currently matches.
func (f *Filter4[A, B, C, D]) Count() int {
	q := f.f.Query(&f.w.w)
	c := q.Count()
	q.Close()
	return c
}

func (f *Filter4[A, B, C, D]) closeOpen() int {
	n := 0
	for _, s := range f.slots {
		if !closed(&s.q.Query) {
			s.q.Close()
			n++
		}
	}
	return n
}

// Query4 iterates the entities of a [Filter4]. While it is open the world is
// locked: queue structural changes in [Commands].
type Query4[A any, B any, C any, D any] struct {
	q generic.Query4[A, B, C, D]
}

// Next advances to the next entity and reports whether there is one. When it
// returns false the query is closed.
func (q *Query4[A, B, C, D]) Next() bool { return q.q.Next() }

// Get returns pointers to the current entity's components. They are valid
// until Next is called; do not keep them.
func (q *Query4[A, B, C, D]) Get() (*A, *B, *C, *D) { return q.q.Get() }

// Entity returns the current entity.
func (q *Query4[A, B, C, D]) Entity() Entity { return Entity{q.q.Entity()} }

// Count returns the number of entities the query visits in total.
func (q *Query4[A, B, C, D]) Count() int { return q.q.Count() }

// Close ends the iteration early and unlocks the world. Closing a finished or
// closed query does nothing.
func (q *Query4[A, B, C, D]) Close() {
	if !closed(&q.q.Query) {
		q.q.Close()
	}
}
