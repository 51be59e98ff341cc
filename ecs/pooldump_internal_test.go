package ecs

import (
	"slices"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
)

// TestDumpPoolMatchesArche checks that the snapshot's copy of the entity
// pool is Arche's own, after spawns and despawns that leave a free list.
func TestDumpPoolMatchesArche(t *testing.T) {
	w := arche.NewWorld()
	var es []arche.Entity
	var d arche.EntityDump
	for round := range 5 {
		for range 7 + round {
			es = append(es, w.NewEntity())
		}
		for i := round % 3; i < len(es); i += 3 {
			w.RemoveEntity(es[i])
		}
		es = slices.DeleteFunc(es, func(e arche.Entity) bool { return !w.Alive(e) })
		want := w.DumpEntities()
		dumpPool(&w, &d)
		if !slices.Equal(d.Entities, want.Entities) || d.Next != want.Next || d.Available != want.Available {
			t.Fatalf("round %d: dumpPool gave entities %v next %d available %d; Arche's dump has %v, %d, %d",
				round, d.Entities, d.Next, d.Available, want.Entities, want.Next, want.Available)
		}
	}
}
