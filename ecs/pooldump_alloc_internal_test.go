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

// TestRestoreAcrossChurnAllocatesNothing: a restore across spawns and
// despawns puts the entity pool back in Arche's own storage (loadPool),
// so, once that storage has grown to the pool, it allocates nothing (3
// allocations of Arche's LoadEntities each time before).
func TestRestoreAcrossChurnAllocatesNothing(t *testing.T) {
	if !archePool.ok {
		t.Fatal("Arche's World.entityPool no longer has the layout pooldump.go reads; update findPoolLayout")
	}
	a, err := NewApp(Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	w := a.World()
	c := w.Commands()
	for i := range 40 {
		p := c.Spawn()
		if i%4 != 0 { // a quarter with no components at all
			With(p, poolA{V: uint32(i)})
		}
	}
	w.Apply()
	var s Snapshot
	if err := a.Save(&s); err != nil {
		t.Fatal(err)
	}
	all := NewFilter1[poolA](w)
	churn := func() {
		for q := all.Query(); q.Next(); {
			c.Despawn(q.Entity())
			q.Close()
			break
		}
		With(c.Spawn(), poolA{V: 7})
		c.Spawn()
		w.Apply()
		if err := a.Restore(&s); err != nil {
			t.Fatal(err)
		}
	}
	churn()
	if n := testing.AllocsPerRun(50, churn); n != 0 {
		t.Errorf("a restore across a spawn and a despawn: %v allocations; want 0", n)
	}
}
