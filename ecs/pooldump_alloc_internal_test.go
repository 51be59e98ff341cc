//go:build !archesafe

package ecs

import (
	"testing"

	arche "github.com/mlange-42/arche/ecs"
)

// TestDumpPoolAllocatesNothing: a snapshot's copy of a pool no larger
// than the one it holds reuses its buffer.
func TestDumpPoolAllocatesNothing(t *testing.T) {
	if !archePool.ok {
		t.Fatal("Arche's World.entityPool no longer has the layout pooldump.go reads; update findPoolLayout")
	}
	w := arche.NewWorld()
	for range 20 {
		w.NewEntity()
	}
	var d arche.EntityDump
	dumpPool(&w, &d)
	if n := testing.AllocsPerRun(100, func() { dumpPool(&w, &d) }); n != 0 {
		t.Errorf("dumpPool: %v allocations; want 0", n)
	}
}
