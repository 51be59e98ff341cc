//go:build js && wasm

package webplatform

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// The deferral of the first collection: in force from the package's
// initialisation (the test binary has presented nothing), ended by the
// first collection the start's memory limit forces, and then the
// program's own settings are back.
func TestCollectionWaitsForTheFirstPresent(t *testing.T) {
	if gcStart.ended.Load() {
		t.Fatal("the deferral had ended before the test: something collected or presented")
	}
	if got := debug.SetMemoryLimit(-1); got != startHeapLimit {
		t.Fatalf("memory limit while deferring: %d, want %d", got, startHeapLimit)
	}
	if p := debug.SetGCPercent(-1); p != -1 {
		debug.SetGCPercent(p)
		t.Fatalf("GOGC while deferring: %d, want off", p)
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	// Allocate past the limit: the limit forces a collection, whose
	// cleanup ends the deferral.
	var keep [][]byte
	for i := 0; i < 2*startHeapLimit/(1<<20) && !gcStart.ended.Load(); i++ {
		keep = append(keep, make([]byte, 1<<20))
		if len(keep) > 8 {
			keep = keep[1:]
		}
		runtime.Gosched() // the cleanup runs on its own goroutine
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if after.NumGC == before.NumGC {
		t.Fatalf("no collection after allocating %d MB past a %d MB limit", 2*startHeapLimit>>20, startHeapLimit>>20)
	}
	if !gcStart.ended.Load() {
		t.Fatal("the forced collection did not end the deferral")
	}
	if got := debug.SetMemoryLimit(-1); got != gcStart.limit {
		t.Errorf("memory limit after the deferral: %d, want the program's %d", got, gcStart.limit)
	}
	if p := debug.SetGCPercent(-1); p != gcStart.percent {
		t.Errorf("GOGC after the deferral: %d, want the program's %d", p, gcStart.percent)
	} else {
		debug.SetGCPercent(p)
	}
	gcStart.end() // a present after it changes nothing
	if got := debug.SetMemoryLimit(-1); got != gcStart.limit {
		t.Errorf("a second end changed the memory limit to %d", got)
	}
}
