//go:build archesafe

package ecs

import (
	"strconv"

	arche "github.com/mlange-42/arche/ecs"
)

// Builds tagged archesafe use only Arche's public API for the entity
// pool (pool.go), which allocates; see pooldump.go for the default.

func dumpPool(aw *arche.World, d *arche.EntityDump) { dumpPoolPublic(aw, d) }

func loadPool(aw *arche.World, d *arche.EntityDump, alive []uint32) {
	loadPoolPublic(aw, d, alive)
}

// makeEntity makes the Arche entity of index id and generation gen
// through its JSON form, Arche's only public way to make one from its
// parts, written into scratch. It calls UnmarshalJSON itself: through
// json.Unmarshal the bytes would be scanned once more before the call.
func makeEntity(scratch *[]byte, id, gen uint32) (arche.Entity, error) {
	b := append((*scratch)[:0], '[')
	b = strconv.AppendUint(b, uint64(id), 10)
	b = append(b, ',')
	b = strconv.AppendUint(b, uint64(gen), 10)
	b = append(b, ']')
	*scratch = b
	var e arche.Entity
	err := e.UnmarshalJSON(b)
	return e, err
}
