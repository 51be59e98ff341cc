//go:build !race

package main

import "testing"

// TestRollbackAllocations: a restore, 8 ticks in which shots spawn and
// despawn, and a save allocate nothing (8 before saves reused the
// snapshot's pool buffer, 3 before restores put the pool back in Arche's
// own storage: ecs's pooldump.go).
func TestRollbackAllocations(t *testing.T) {
	if n := duelRollback(t).Allocs(t, 50); n != 0 {
		t.Errorf("a rollback of the duel: %v allocations; want 0", n)
	}
}
