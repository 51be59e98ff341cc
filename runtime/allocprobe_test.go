//go:build !race

package runtime_test

import (
	"fmt"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"
)

// allocProbe counts the heap allocations this module's code makes between
// two marks, exactly, whatever else the process does meanwhile.
//
// runtime.MemStats counts every allocation of the process, the Go
// runtime's own included: on a loaded machine the scheduler starts new
// threads, the collector wakes its workers and the scavenger rearms its
// timer, each with a small allocation, at moments no test controls. A
// count taken that way can only be too high, and was, on a busy CI
// machine. The probe instead records every allocation with its stack
// (MemProfileRate 1) and keeps those with a frame of this module in it:
// the loop, the adapters and the game. Allocations the Go runtime makes on
// a goroutine of ours (a new goroutine's stack, a timer) have our frames
// in their stacks too, so they count. Two kinds are left out, both caches
// the Go runtime refills at moments of chance, not per-tick garbage: the
// caches Go builds for a type assertion or type switch site, which it
// fills in at random moments (about one miss in a thousand), a few times
// per site in a process's life; and the sudogs a blocking channel
// operation takes from its processor's cache, which every collection's
// clearing of the central cache (the probe's own mark included) can leave
// empty, so that one is allocated again when the goroutine next blocks on
// another processor (seen once in 10,000 cycles on a loaded CI machine).
type allocProbe struct {
	marks [2][]goruntime.MemProfileRecord
	n     [2]int
	ok    [2]bool
}

const modulePrefix = "github.com/metronome-go/metronome/"

// goCaches are the Go runtime's functions that build a type assertion's
// or a type switch's cache, and that refill the sudog cache.
var goCaches = map[string]bool{
	"runtime.buildTypeAssertCache":      true,
	"runtime.buildInterfaceSwitchCache": true,
	"runtime.acquireSudog":              true,
}

// newAllocProbe turns on recording of every allocation for the rest of
// the test. Its buffers are made here, so that mark allocates nothing.
func newAllocProbe(t *testing.T) *allocProbe {
	t.Helper()
	old := goruntime.MemProfileRate
	goruntime.MemProfileRate = 1
	t.Cleanup(func() { goruntime.MemProfileRate = old })
	p := &allocProbe{}
	for i := range p.marks {
		p.marks[i] = make([]goruntime.MemProfileRecord, 1<<15)
	}
	return p
}

// mark takes snapshot i (0 at the start of the window, 1 at its end). The
// collection publishes the profile up to this moment; what it allocates
// itself is the Go runtime's or has this function in its stack, and is
// left out.
func (p *allocProbe) mark(i int) {
	goruntime.GC()
	p.n[i], p.ok[i] = goruntime.MemProfile(p.marks[i], true)
}

// window returns the number of allocations the module made between the
// two marks and one line per allocating stack, most frequent first.
func (p *allocProbe) window(t *testing.T) (int64, []string) {
	t.Helper()
	for i, ok := range p.ok {
		if !ok {
			t.Fatalf("allocation profile %d has %d records, more than the probe's %d", i, p.n[i], len(p.marks[i]))
		}
	}
	before := make(map[[32]uintptr]int64, p.n[0])
	for _, r := range p.marks[0][:p.n[0]] {
		before[r.Stack0] += r.AllocObjects
	}
	type site struct {
		n     int64
		stack string
	}
	var sites []site
	var total int64
	after := make(map[[32]uintptr]int64, p.n[1])
	for _, r := range p.marks[1][:p.n[1]] {
		after[r.Stack0] += r.AllocObjects
	}
	for key, n := range after {
		n -= before[key]
		if n <= 0 {
			continue
		}
		stack, ours := describe(key)
		if !ours {
			continue
		}
		total += n
		sites = append(sites, site{n, stack})
	}
	slices.SortFunc(sites, func(a, b site) int { return int(b.n - a.n) })
	lines := make([]string, len(sites))
	for i, s := range sites {
		lines[i] = fmt.Sprintf("%d× %s", s.n, s.stack)
	}
	return total, lines
}

// describe names the frames of a recorded stack, innermost first, and
// says whether it is this module's allocation: a frame of the module in
// it, and none of the probe's own.
func describe(key [32]uintptr) (string, bool) {
	pcs := key[:]
	if i := slices.Index(pcs, 0); i >= 0 {
		pcs = pcs[:i]
	}
	var b strings.Builder
	ours := false
	frames := goruntime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if strings.Contains(f.Function, "(*allocProbe)") || goCaches[f.Function] {
			return "", false
		}
		if strings.HasPrefix(f.Function, modulePrefix) {
			ours = true
		}
		if b.Len() > 0 {
			b.WriteString(" ← ")
		}
		fmt.Fprintf(&b, "%s:%d", f.Function, f.Line)
		if !more {
			break
		}
	}
	return b.String(), ours
}
