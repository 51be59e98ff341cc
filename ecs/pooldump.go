//go:build !archesafe

package ecs

import arche "github.com/mlange-42/arche/ecs"

// Arche's World.DumpEntities allocates on every call (a copy of the pool
// and a list of the live entities, which a snapshot does not need), so a
// rollback whose window spawns or despawns allocated on each save. This
// fast path copies Arche's entity pool into the snapshot's own buffer by
// reading World.entityPool (layout.go's archePool), whose layout is
// checked against Arche's types once; if it does not match (a new
// Arche), the public path is used. Build with -tags archesafe to use only the public API;
// TestDumpPoolMatchesArche checks that both give the same pool.

// dumpPool copies aw's entity pool into d (Entities, Next, Available),
// reusing d.Entities' array; d.Alive is left empty.
func dumpPool(aw *arche.World, d *arche.EntityDump) {
	if !archePool.ok {
		*d = aw.DumpEntities()
		d.Alive = nil
		return
	}
	ents, next, avail := archePool.read(aw)
	d.Entities = append(d.Entities[:0], ents...)
	d.Alive = d.Alive[:0]
	d.Next, d.Available = next, avail
}
