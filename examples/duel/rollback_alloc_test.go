//go:build !race

package main

import "testing"

// rollbackAllocBudget is what a rollback of the duel may allocate: the
// three of Arche's World.LoadEntities (a new pool, entity index and
// target set), which a restore across a spawn or despawn calls because
// Arche's public API rebuilds a pool only that way. Saves allocate
// nothing (ecs's pooldump.go); the goal is 0, and this budget
// falls to 0 when restores stop going through LoadEntities.
const rollbackAllocBudget = 3

// TestRollbackAllocations: a restore, 8 ticks in which shots spawn and
// despawn, and a save stay within the budget (8 before saves reused the
// snapshot's pool buffer).
func TestRollbackAllocations(t *testing.T) {
	if n := duelRollback(t).Allocs(t, 50); n > rollbackAllocBudget {
		t.Errorf("a rollback of the duel: %v allocations; budget %d", n, rollbackAllocBudget)
	}
}
