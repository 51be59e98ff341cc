//go:build !race

package ecs_test

import (
	"testing"

	"github.com/metronome-go/metronome/ecs"
)

// Encoding a saved snapshot into a buffer that has room for it allocates
// nothing, whatever it holds: entities, slices, strings, events, timers
// and states.
func TestSnapshotEncodeAllocatesNothing(t *testing.T) {
	a := churnGame(t)
	for n := range uint64(100) {
		if err := a.Update(tick(n+1, 0)); err != nil {
			t.Fatal(err)
		}
	}
	var s ecs.Snapshot
	if err := a.Save(&s); err != nil {
		t.Fatal(err)
	}
	buf, err := s.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if buf, err = s.AppendBinary(buf[:0]); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("AppendBinary into a reused buffer: %v allocations, want 0", allocs)
	}
}
