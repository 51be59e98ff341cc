//go:build archesafe

package ecs

import arche "github.com/mlange-42/arche/ecs"

// dumpPool copies aw's entity pool into d through Arche's public API,
// which allocates: the path of builds tagged archesafe (see pooldump.go).
func dumpPool(aw *arche.World, d *arche.EntityDump) {
	*d = aw.DumpEntities()
	d.Alive = nil
}
