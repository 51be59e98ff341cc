package demo

import (
	goruntime "runtime"
	"testing"
)

var sink []byte

// TestContentionCountsCollections: the load report's contention counts
// the collections between two samples, their pauses and what was
// allocated, so that a long frame during a load can be told apart from a
// collection's pause.
func TestContentionCountsCollections(t *testing.T) {
	s0 := sampleContention()
	sink = make([]byte, 1<<20)
	goruntime.GC()
	c := sampleContention().since(s0)
	if c.GCCycles < 1 || c.GCPauses < 2 {
		t.Errorf("after a collection: %d cycles with %d pauses, want at least 1 with 2 (its two stop-the-world phases)", c.GCCycles, c.GCPauses)
	}
	if c.AllocBytes < 1<<20 {
		t.Errorf("allocated %d bytes, want at least the %d the test did", c.AllocBytes, 1<<20)
	}
	if c.GCCPUNS <= 0 {
		t.Errorf("collector CPU %d ns, want some", c.GCCPUNS)
	}
}
