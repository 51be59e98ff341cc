// The four filter and query variants below follow one pattern; keep them in step.

package ecs

import (
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// register makes sure the world knows component type T. Arche registers a
// type on first use and refuses to while a query is open, so filters do it
// when they are made, at set-up time.
func register[T any](w *World) {
	if !w.w.IsLocked() {
		arche.ComponentID[T](&w.w)
	}
	know[T](w)
}

// know records that w has met component type T in a filter or map, so
// that a snapshot decoded into w (snapshot_wire.go) can hold values of T
// before any command of w has used it.
func know[T any](w *World) {
	t := TypeOf[T]()
	if _, ok := w.registry[t]; ok {
		return
	}
	if w.known == nil {
		w.known = map[string]func(*World){}
	}
	if _, ok := w.known[t.String()]; !ok {
		w.known[t.String()] = makeStore[T]
	}
}

func makeStore[T any](w *World) { storeOf[T](w) }

// Filter1 selects the entities that have one component (plus the constraints
// added with With and Without) and hands out [Query1] iterators.
// Create filters at set-up time, before systems run.
type Filter1[A any] struct {
	w *World
	f *generic.Filter1[A]
}

// NewFilter1 returns a filter over the entities of w with one component.
func NewFilter1[A any](w *World) *Filter1[A] {
	register[A](w)
	return &Filter1[A]{w: w, f: generic.NewFilter1[A]()}
}

// With further requires the given component types.
func (f *Filter1[A]) With(types ...ComponentType) *Filter1[A] {
	f.f.With(f.w.comps(types)...)
	return f
}

// Without excludes entities that have any of the given component types.
func (f *Filter1[A]) Without(types ...ComponentType) *Filter1[A] {
	f.f.Without(f.w.comps(types)...)
	return f
}

// Query returns an iterator positioned before the first entity. Keep it in
// a local variable and iterate it with Next until it returns false, or call
// Close when leaving early. Nested loops over one filter are fine.
func (f *Filter1[A]) Query() Query1[A] {
	locked := f.w.w.IsLocked()
	q := Query1[A]{q: f.f.Query(&f.w.w), w: f.w}
	q.ticket = f.w.issue(&q.q.Query, locked)
	return q
}

// Count returns the number of entities the filter currently matches.
func (f *Filter1[A]) Count() int {
	q := f.f.Query(&f.w.w)
	c := q.Count()
	q.Close()
	return c
}

// Query1 iterates the entities of a [Filter1]. While it is open the world is
// locked: queue structural changes in [Commands]. A query that a system
// leaves open is closed at the next sync point.
type Query1[A any] struct {
	q      generic.Query1[A]
	w      *World
	ticket uint64 // see World.issue
}

// Next advances to the next entity and reports whether there is one. When it
// returns false the query is closed.
func (q *Query1[A]) Next() bool { return q.q.Next() }

// Get returns pointers to the current entity's components. They are valid
// until Next is called; do not keep them.
func (q *Query1[A]) Get() *A { return q.q.Get() }

// Entity returns the current entity.
func (q *Query1[A]) Entity() Entity { return Entity{e: q.q.Entity()} }

// Count returns the number of entities the query visits in total.
func (q *Query1[A]) Count() int { return q.q.Count() }

// Close ends the iteration early and unlocks the world. Closing a finished or
// closed query does nothing, with one exception: do not close a finished
// query while a query made after it is still running. Arche hands a
// finished query's lock to the next query made, and Close cannot tell the
// two apart (see locks.go).
func (q *Query1[A]) Close() { q.w.close(&q.q.Query, q.ticket) }

// Filter2 selects the entities that have two components (plus the constraints
// added with With and Without) and hands out [Query2] iterators.
// Create filters at set-up time, before systems run.
type Filter2[A any, B any] struct {
	w *World
	f *generic.Filter2[A, B]
}

// NewFilter2 returns a filter over the entities of w with two components.
func NewFilter2[A any, B any](w *World) *Filter2[A, B] {
	register[A](w)
	register[B](w)
	return &Filter2[A, B]{w: w, f: generic.NewFilter2[A, B]()}
}

// With further requires the given component types.
func (f *Filter2[A, B]) With(types ...ComponentType) *Filter2[A, B] {
	f.f.With(f.w.comps(types)...)
	return f
}

// Without excludes entities that have any of the given component types.
func (f *Filter2[A, B]) Without(types ...ComponentType) *Filter2[A, B] {
	f.f.Without(f.w.comps(types)...)
	return f
}

// Query returns an iterator positioned before the first entity. Keep it in
// a local variable and iterate it with Next until it returns false, or call
// Close when leaving early. Nested loops over one filter are fine.
func (f *Filter2[A, B]) Query() Query2[A, B] {
	locked := f.w.w.IsLocked()
	q := Query2[A, B]{q: f.f.Query(&f.w.w), w: f.w}
	q.ticket = f.w.issue(&q.q.Query, locked)
	return q
}

// Count returns the number of entities the filter currently matches.
func (f *Filter2[A, B]) Count() int {
	q := f.f.Query(&f.w.w)
	c := q.Count()
	q.Close()
	return c
}

// Query2 iterates the entities of a [Filter2]. While it is open the world is
// locked: queue structural changes in [Commands]. A query that a system
// leaves open is closed at the next sync point.
type Query2[A any, B any] struct {
	q      generic.Query2[A, B]
	w      *World
	ticket uint64 // see World.issue
}

// Next advances to the next entity and reports whether there is one. When it
// returns false the query is closed.
func (q *Query2[A, B]) Next() bool { return q.q.Next() }

// Get returns pointers to the current entity's components. They are valid
// until Next is called; do not keep them.
func (q *Query2[A, B]) Get() (*A, *B) { return q.q.Get() }

// Entity returns the current entity.
func (q *Query2[A, B]) Entity() Entity { return Entity{e: q.q.Entity()} }

// Count returns the number of entities the query visits in total.
func (q *Query2[A, B]) Count() int { return q.q.Count() }

// Close ends the iteration early and unlocks the world. Closing a finished or
// closed query does nothing, with one exception: do not close a finished
// query while a query made after it is still running. Arche hands a
// finished query's lock to the next query made, and Close cannot tell the
// two apart (see locks.go).
func (q *Query2[A, B]) Close() { q.w.close(&q.q.Query, q.ticket) }

// Filter3 selects the entities that have three components (plus the constraints
// added with With and Without) and hands out [Query3] iterators.
// Create filters at set-up time, before systems run.
type Filter3[A any, B any, C any] struct {
	w *World
	f *generic.Filter3[A, B, C]
}

// NewFilter3 returns a filter over the entities of w with three components.
func NewFilter3[A any, B any, C any](w *World) *Filter3[A, B, C] {
	register[A](w)
	register[B](w)
	register[C](w)
	return &Filter3[A, B, C]{w: w, f: generic.NewFilter3[A, B, C]()}
}

// With further requires the given component types.
func (f *Filter3[A, B, C]) With(types ...ComponentType) *Filter3[A, B, C] {
	f.f.With(f.w.comps(types)...)
	return f
}

// Without excludes entities that have any of the given component types.
func (f *Filter3[A, B, C]) Without(types ...ComponentType) *Filter3[A, B, C] {
	f.f.Without(f.w.comps(types)...)
	return f
}

// Query returns an iterator positioned before the first entity. Keep it in
// a local variable and iterate it with Next until it returns false, or call
// Close when leaving early. Nested loops over one filter are fine.
func (f *Filter3[A, B, C]) Query() Query3[A, B, C] {
	locked := f.w.w.IsLocked()
	q := Query3[A, B, C]{q: f.f.Query(&f.w.w), w: f.w}
	q.ticket = f.w.issue(&q.q.Query, locked)
	return q
}

// Count returns the number of entities the filter currently matches.
func (f *Filter3[A, B, C]) Count() int {
	q := f.f.Query(&f.w.w)
	c := q.Count()
	q.Close()
	return c
}

// Query3 iterates the entities of a [Filter3]. While it is open the world is
// locked: queue structural changes in [Commands]. A query that a system
// leaves open is closed at the next sync point.
type Query3[A any, B any, C any] struct {
	q      generic.Query3[A, B, C]
	w      *World
	ticket uint64 // see World.issue
}

// Next advances to the next entity and reports whether there is one. When it
// returns false the query is closed.
func (q *Query3[A, B, C]) Next() bool { return q.q.Next() }

// Get returns pointers to the current entity's components. They are valid
// until Next is called; do not keep them.
func (q *Query3[A, B, C]) Get() (*A, *B, *C) { return q.q.Get() }

// Entity returns the current entity.
func (q *Query3[A, B, C]) Entity() Entity { return Entity{e: q.q.Entity()} }

// Count returns the number of entities the query visits in total.
func (q *Query3[A, B, C]) Count() int { return q.q.Count() }

// Close ends the iteration early and unlocks the world. Closing a finished or
// closed query does nothing, with one exception: do not close a finished
// query while a query made after it is still running. Arche hands a
// finished query's lock to the next query made, and Close cannot tell the
// two apart (see locks.go).
func (q *Query3[A, B, C]) Close() { q.w.close(&q.q.Query, q.ticket) }

// Filter4 selects the entities that have four components (plus the constraints
// added with With and Without) and hands out [Query4] iterators.
// Create filters at set-up time, before systems run.
type Filter4[A any, B any, C any, D any] struct {
	w *World
	f *generic.Filter4[A, B, C, D]
}

// NewFilter4 returns a filter over the entities of w with four components.
func NewFilter4[A any, B any, C any, D any](w *World) *Filter4[A, B, C, D] {
	register[A](w)
	register[B](w)
	register[C](w)
	register[D](w)
	return &Filter4[A, B, C, D]{w: w, f: generic.NewFilter4[A, B, C, D]()}
}

// With further requires the given component types.
func (f *Filter4[A, B, C, D]) With(types ...ComponentType) *Filter4[A, B, C, D] {
	f.f.With(f.w.comps(types)...)
	return f
}

// Without excludes entities that have any of the given component types.
func (f *Filter4[A, B, C, D]) Without(types ...ComponentType) *Filter4[A, B, C, D] {
	f.f.Without(f.w.comps(types)...)
	return f
}

// Query returns an iterator positioned before the first entity. Keep it in
// a local variable and iterate it with Next until it returns false, or call
// Close when leaving early. Nested loops over one filter are fine.
func (f *Filter4[A, B, C, D]) Query() Query4[A, B, C, D] {
	locked := f.w.w.IsLocked()
	q := Query4[A, B, C, D]{q: f.f.Query(&f.w.w), w: f.w}
	q.ticket = f.w.issue(&q.q.Query, locked)
	return q
}

// Count returns the number of entities the filter currently matches.
func (f *Filter4[A, B, C, D]) Count() int {
	q := f.f.Query(&f.w.w)
	c := q.Count()
	q.Close()
	return c
}

// Query4 iterates the entities of a [Filter4]. While it is open the world is
// locked: queue structural changes in [Commands]. A query that a system
// leaves open is closed at the next sync point.
type Query4[A any, B any, C any, D any] struct {
	q      generic.Query4[A, B, C, D]
	w      *World
	ticket uint64 // see World.issue
}

// Next advances to the next entity and reports whether there is one. When it
// returns false the query is closed.
func (q *Query4[A, B, C, D]) Next() bool { return q.q.Next() }

// Get returns pointers to the current entity's components. They are valid
// until Next is called; do not keep them.
func (q *Query4[A, B, C, D]) Get() (*A, *B, *C, *D) { return q.q.Get() }

// Entity returns the current entity.
func (q *Query4[A, B, C, D]) Entity() Entity { return Entity{e: q.q.Entity()} }

// Count returns the number of entities the query visits in total.
func (q *Query4[A, B, C, D]) Count() int { return q.q.Count() }

// Close ends the iteration early and unlocks the world. Closing a finished or
// closed query does nothing, with one exception: do not close a finished
// query while a query made after it is still running. Arche hands a
// finished query's lock to the next query made, and Close cannot tell the
// two apart (see locks.go).
func (q *Query4[A, B, C, D]) Close() { q.w.close(&q.q.Query, q.ticket) }
