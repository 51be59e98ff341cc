//go:build archesafe

package ecs

import arche "github.com/mlange-42/arche/ecs"

// Builds tagged archesafe use only Arche's public API for the entity
// pool (pool.go), which allocates; see pooldump.go for the default.

func dumpPool(aw *arche.World, d *arche.EntityDump) { dumpPoolPublic(aw, d) }

func loadPool(aw *arche.World, d *arche.EntityDump, alive []uint32) {
	loadPoolPublic(aw, d, alive)
}
