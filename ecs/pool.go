package ecs

import arche "github.com/mlange-42/arche/ecs"

// A snapshot copies the world's entity pool (every entity index with its
// generation, and the free list that says which index the next spawn
// recycles) and a restore across a spawn or despawn puts it back. Arche's
// public API does both with fresh slices: these are that path. Default
// builds use pooldump.go's, which read and write the pool in place;
// builds tagged archesafe use these (pooldump_safe.go), and
// TestLoadPoolMatchesPublic runs both on the same programs.

// dumpPoolPublic copies aw's entity pool into d (Entities, Next,
// Available) through World.DumpEntities, which allocates; d.Alive is left
// empty.
func dumpPoolPublic(aw *arche.World, d *arche.EntityDump) {
	*d = aw.DumpEntities()
	d.Alive = nil
}

// A poolLoader gives aw, which World.Reset has just emptied, the entity
// pool of d (its Entities, Next and Available) and the live entities
// alive, in that order, in the archetype without components.
type poolLoader func(aw *arche.World, d *arche.EntityDump, alive []uint32)

// loadPoolPublic is a poolLoader through World.LoadEntities, which makes
// a new pool, entity index and target set each time.
func loadPoolPublic(aw *arche.World, d *arche.EntityDump, alive []uint32) {
	aw.LoadEntities(&arche.EntityDump{Entities: d.Entities, Alive: alive, Next: d.Next, Available: d.Available})
}
