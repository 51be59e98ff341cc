//go:build js && wasm

package webplatform

import (
	"runtime"
	"runtime/debug"
	"sync/atomic"
)

// A page's start allocates a few megabytes (Breakout's about 11 MB before
// its first present): enough for one garbage collection with the default
// GOGC, in the middle of the start. In a page that collection is costly
// beyond its own work: the browser compiles each WebAssembly function at
// its first call, and the collector is a large body of code run for the
// first time. So the package defers collection, from its initialisation
// to the first present, with a memory limit in its place: the heap may
// grow to startHeapLimit before anything is collected. Whichever comes
// first, the first present (Presenter.Present, or Close without one) or
// the first collection the limit forces, gives back the program's own
// settings (GOGC and GOMEMLIMIT, through go.env, or the defaults).

// startHeapLimit is the memory limit in force while collection is
// deferred, unless the program's own is lower.
const startHeapLimit = 64 << 20

// gcStart holds the settings the deferral replaced.
var gcStart = deferGC()

type gcDeferral struct {
	ended   atomic.Bool
	percent int
	limit   int64
}

func deferGC() *gcDeferral {
	d := &gcDeferral{percent: debug.SetGCPercent(-1), limit: debug.SetMemoryLimit(-1)}
	if d.percent < 0 {
		// GOGC=off already: the program collects at its memory limit
		// only, which the deferral leaves alone.
		d.ended.Store(true)
		return d
	}
	debug.SetMemoryLimit(min(d.limit, startHeapLimit))
	// An object with a cleanup: the first collection, forced by the
	// limit, frees it and ends the deferral. (It holds a pointer, so it
	// is not one of the runtime's tiny allocations, which are freed
	// together and may stay alive.)
	sentinel := &struct {
		p   *int
		pad [2]uintptr
	}{}
	runtime.AddCleanup(sentinel, (*gcDeferral).end, d)
	return d
}

// end restores the program's collection settings, once; any goroutine.
func (d *gcDeferral) end() {
	if d.ended.CompareAndSwap(false, true) {
		debug.SetGCPercent(d.percent)
		debug.SetMemoryLimit(d.limit)
	}
}
