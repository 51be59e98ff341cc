package ecstest

import (
	"fmt"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// Rollback is one rollback of a game as a session makes it: a restore of
// the snapshot of the App's next tick, Depth fixed ticks run again, and a
// save of the tick after them. Its figures are what a game pays per
// rollback; [Rollback.Bench] measures them and [Rollback.Allocs] counts
// its allocations for a game's allocation test.
type Rollback struct {
	// App is the game, after enough play to hold its usual entities.
	App *ecs.App
	// Next is the number of the App's next tick.
	Next uint64
	// Step is the fixed step of every tick.
	Step time.Duration
	// Depth is the number of ticks run again; 0 means 8, the window the
	// issue's budget is stated for.
	Depth int
	// Input, when set, is called before the i-th tick run again (0 to
	// Depth-1) to give it input (t.Input), so that entities spawn and
	// despawn inside the window as they do in play.
	Input func(i int, t *runtime.TickContext)
}

// rollback is a Rollback ready to run.
type rollback struct {
	Rollback
	ring  *ecs.Snapshots
	ticks []runtime.TickContext
}

func (r Rollback) start(t testing.TB) *rollback {
	t.Helper()
	if r.Depth == 0 {
		r.Depth = 8
	}
	ring, err := ecs.NewSnapshots(r.App, r.Depth+2)
	if err != nil {
		t.Fatal(err)
	}
	rb := &rollback{Rollback: r, ring: ring, ticks: make([]runtime.TickContext, r.Depth)}
	for i := range rb.ticks {
		rb.ticks[i].Update = timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: r.Step, Number: r.Next + uint64(i), Final: true}
	}
	if err := ring.Save(0); err != nil {
		t.Fatal(err)
	}
	rb.run(t) // every slot and every scratch used once
	return rb
}

func (r *rollback) run(t testing.TB) {
	if err := r.ring.Restore(0); err != nil {
		t.Fatal(err)
	}
	for i := range r.ticks {
		if r.Input != nil {
			r.Input(i, &r.ticks[i])
		}
		if err := r.App.Update(&r.ticks[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.ring.Save(uint64(r.Depth)); err != nil {
		t.Fatal(err)
	}
}

// Allocs returns the allocations of one rollback, averaged over runs
// (testing.AllocsPerRun) after one run to warm up. A game's test that
// calls it is built with //go:build !race, where the race detector's own
// allocations do not count.
func (r Rollback) Allocs(t testing.TB, runs int) float64 {
	t.Helper()
	rb := r.start(t)
	return testing.AllocsPerRun(runs, func() { rb.run(t) })
}

// Bench measures, as sub-benchmarks, a whole rollback
// ("restore+8ticks+save" at the default depth, with the snapshot's entities), and a save and a
// restore alone per entity.
func (r Rollback) Bench(b *testing.B) {
	rb := r.start(b)
	entities := rb.ring.Get(0).Entities()
	perEntity := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(entities), "ns/entity")
	}
	b.Run(fmt.Sprintf("restore+%dticks+save", rb.Depth), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rb.run(b)
		}
		b.ReportMetric(float64(entities), "entities")
	})
	b.Run("save", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := rb.ring.Save(1); err != nil {
				b.Fatal(err)
			}
		}
		perEntity(b)
	})
	b.Run("restore", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := rb.ring.Restore(1); err != nil {
				b.Fatal(err)
			}
		}
		perEntity(b)
	})
}
