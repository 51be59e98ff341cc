//go:build !archesafe

package ecs

import (
	"errors"

	arche "github.com/mlange-42/arche/ecs"
)

// Arche's public API copies the entity pool out (World.DumpEntities) and
// back in (World.LoadEntities) only through fresh slices (pool.go), so a
// rollback whose window spawns or despawns allocated on every save and
// restore. This fast path reads and writes the pool in Arche's own
// storage instead, through World.entityPool (layout.go's archePool), whose
// layout is checked against Arche's types once; if it does not match (a
// new Arche), the public path is used. Everything but the pool's contents
// still goes through Arche's methods, so Arche keeps its own entity index
// and archetypes. Build with -tags archesafe to use only the public API;
// TestDumpPoolMatchesArche and TestLoadPoolMatchesPublic check that both
// paths give the same world.

// dumpPool copies aw's entity pool into d (Entities, Next, Available),
// reusing d.Entities' array; d.Alive is left empty.
func dumpPool(aw *arche.World, d *arche.EntityDump) {
	if !archePool.ok {
		dumpPoolPublic(aw, d)
		return
	}
	p := archePool.at(aw)
	d.Entities = append(d.Entities[:0], *p.entities...)
	d.Alive = d.Alive[:0]
	d.Next, d.Available = *p.next, *p.available
}

// loadPool is the poolLoader of default builds: loadPoolPublic in the
// storage aw already has, which, once it has grown to the largest pool
// restored, takes no allocation.
//
// Arche's entity index grows only when a spawn takes a new index, so
// NewEntity first spawns indexes 1 to n-1 and RemoveEntity frees them
// again, last first (each is then the last of its archetype, and moving
// none). Then each live entity in turn is the free list's only entry,
// with its saved generation, and NewEntity recycles it: Arche places it
// at the end of the archetype without components and records where. Last,
// the saved pool is copied over Arche's.
func loadPool(aw *arche.World, d *arche.EntityDump, alive []uint32) {
	if !archePool.ok {
		loadPoolPublic(aw, d, alive)
		return
	}
	n := len(d.Entities)
	for range n - 1 {
		aw.NewEntity()
	}
	p := archePool.at(aw)
	ents := *p.entities
	for id := n - 1; id > 0; id-- {
		aw.RemoveEntity(ents[id])
	}
	for _, id := range alive {
		ents[id] = d.Entities[id]
		*p.next, *p.available = id, 1
		aw.NewEntity()
	}
	copy(ents, d.Entities)
	*p.next, *p.available = d.Next, d.Available
}

var errEntityLayout = errors.New("this version of Arche's Entity is not {id, gen uint32}, which decoding writes in place; build with -tags archesafe to make entities through Arche's JSON form")

// makeEntity makes the Arche entity of index id and generation gen by
// writing its two fields, as Arche's Entity.UnmarshalJSON does: its JSON
// form is Arche's only public way to make one from its parts, and calling
// it linked encoding/json into every program that decodes a snapshot
// (TestDecodeLinksNoJSON). scratch is for the archesafe build's JSON.
func makeEntity(_ *[]byte, id, gen uint32) (arche.Entity, error) {
	if !archeEntity {
		return arche.Entity{}, errEntityLayout
	}
	return entityOf(id, gen), nil
}
