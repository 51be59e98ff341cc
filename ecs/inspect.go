package ecs

import (
	"slices"
	"strings"

	arche "github.com/mlange-42/arche/ecs"
)

// The read-only view a debugger takes of a world: every entity with its
// components as reflect values, the resources, and the markers systems
// set on a tick. Nothing here runs on a tick's hot path but Sys.Mark,
// which appends to a reused slice.

// Mark is a marker a system set on a tick with [Sys.Mark]: a label the
// inspector's timeline shows, with the system that set it.
type Mark struct {
	System string
	Label  string
}

// Mark labels the current tick ("boss spawned") for the inspector's
// timeline. A replay runs the same systems, so the markers of a recorded
// session come back without being stored in the recording. It allocates
// nothing once the tick's list has grown; labels should be constants.
func (c *Sys) Mark(label string) {
	c.app.marks = append(c.app.marks, Mark{System: c.entry.Name, Label: label})
}

// Marks returns the markers the systems set on the latest tick, until the
// next tick starts. Simulation owner.
func (a *App) Marks() []Mark { return a.marks }

// ComponentValue is one component of an entity as an inspector reads it.
type ComponentValue struct {
	Type ComponentType
	// Value points to a copy of the component (a *T): changing it
	// changes nothing. Slices in it share the world's arrays until the
	// next tick.
	Value any
	// Presentation reports a presentation-only type ([PresentationOnly]),
	// Excluded one left out of the world hash ([ExcludeFromHash]): not
	// game state, which a replay need not reproduce.
	Presentation, Excluded bool
}

// Name returns the type's name as the world hash and snapshots write it.
func (c ComponentType) Name() string { return c.t.String() }

// copyOf returns a copy of e's T, if e has one.
func (s *typedStore[T]) copyOf(e arche.Entity) (any, bool) {
	if !s.ready || !s.m.Has(e) {
		return nil, false
	}
	v := *s.m.Get(e)
	return &v, true
}

// EachEntity calls fn with every live entity in Arche's order, until fn
// returns false. It must not be called while a system runs. Simulation
// owner.
func (w *World) EachEntity(fn func(e Entity) bool) {
	f := arche.All()
	q := w.w.Query(&f)
	defer func() {
		if w.w.IsLocked() {
			q.Close()
		}
	}()
	for q.Next() {
		if !fn(Entity{e: q.Entity()}) {
			q.Close()
			return
		}
	}
}

// EntityOf returns the live entity whose [Entity.ID] and
// [Entity.Generation] are id and gen; ok is false when there is none.
func (w *World) EntityOf(id, gen uint32) (e Entity, ok bool) {
	w.EachEntity(func(x Entity) bool {
		if x.ID() == id && x.Generation() == gen {
			e, ok = x, true
			return false
		}
		return true
	})
	return e, ok
}

// ComponentsOf appends a copy of each component of e to dst, sorted by
// type name, and returns it; dst unchanged when e is not alive.
func (w *World) ComponentsOf(e Entity, dst []ComponentValue) []ComponentValue {
	if !w.Alive(e) {
		return dst
	}
	from := len(dst)
	for _, st := range w.stores {
		v, ok := st.copyOf(e.e)
		if !ok {
			continue
		}
		t := st.typ()
		dst = append(dst, ComponentValue{Type: t, Value: v, Presentation: w.layoutOf(t).presentation, Excluded: w.hashExcluded[t]})
	}
	slices.SortFunc(dst[from:], func(a, b ComponentValue) int { return strings.Compare(a.Type.Name(), b.Type.Name()) })
	return dst
}

// ResourceValue is one world resource as an inspector reads it: a
// pointer to the live value (read it between ticks, do not change it).
type ResourceValue struct {
	Name  string
	Value any
}

// Resources appends every resource of the world to dst, sorted by name,
// and returns it. Simulation owner.
func (w *World) Resources(dst []ResourceValue) []ResourceValue {
	from := len(dst)
	res := w.w.Resources()
	for _, id := range arche.ResourceIDs(&w.w) {
		t, ok := arche.ResourceType(&w.w, id)
		if !ok || !res.Has(id) {
			continue
		}
		dst = append(dst, ResourceValue{Name: t.String(), Value: res.Get(id)})
	}
	slices.SortFunc(dst[from:], func(a, b ResourceValue) int { return strings.Compare(a.Name, b.Name) })
	return dst
}
