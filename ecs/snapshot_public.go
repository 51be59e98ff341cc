//go:build !metronome_unsafe

package ecs

import arche "github.com/mlange-42/arche/ecs"

// run records every Transform of w as its previous value: one query step
// and one component lookup per entity, through Arche's ID-based query API
// (which returns an unsafe.Pointer to the component, as Arche documents; a
// tenth faster here than its generic Query1, which reloads the component ID
// for every entity).
func (s *snapshotter) run(w *arche.World) {
	id := s.id
	q := w.Query(&s.filter)
	for q.Next() {
		(*Transform)(q.Get(id)).snapshot()
	}
}

// snapshot records the current value as the previous one and marks it
// present. Once a Transform has been through a tick the mark is already
// set, and testing it is cheaper than storing it again.
func (t *Transform) snapshot() {
	t.prev = pose{t.Position, t.Rotation, t.Scale}
	if !t.hasPrev {
		t.hasPrev = true
	}
}
