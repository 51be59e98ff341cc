package main

import (
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// BenchmarkRollback measures what a rollback costs Breakout in play: a
// restore, 8 ticks run again and a save (the budget is 4 ms, a
// quarter of a 60 Hz frame, with no allocation), and save and restore
// alone per entity.
//
//	go test -run '^$' -bench Rollback ./examples/breakout
func BenchmarkRollback(b *testing.B) {
	sim, err := frameworktest.New(newGame(), frameworktest.Options{Sets: slices.Clone(small)})
	if err != nil {
		b.Fatal(err)
	}
	defer sim.Close()
	randomInput(sim, 1200, 25)
	if err := sim.Step(1200); err != nil {
		b.Fatal(err)
	}
	benchRollback(b, sim.App, sim.Ticks(), tick)
}

// benchRollback runs the rollback benchmarks on a, whose next tick is
// number next, with fixed ticks of step.
func benchRollback(b *testing.B, a *ecs.App, next uint64, step time.Duration) {
	const depth = 8
	ring, err := ecs.NewSnapshots(a, depth+2)
	if err != nil {
		b.Fatal(err)
	}
	ticks := make([]runtime.TickContext, depth)
	for i := range ticks {
		ticks[i].Update = timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: step, Number: next + uint64(i), Final: true}
	}
	entities := 0
	if err := ring.Save(0); err != nil {
		b.Fatal(err)
	}
	entities = ring.Get(0).Entities()
	run := func() {
		if err := ring.Restore(0); err != nil {
			b.Fatal(err)
		}
		for i := range ticks {
			if err := a.Update(&ticks[i]); err != nil {
				b.Fatal(err)
			}
		}
		if err := ring.Save(depth); err != nil {
			b.Fatal(err)
		}
	}
	run() // every slot used once
	b.Run("restore+8ticks+save", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			run()
		}
		b.ReportMetric(float64(entities), "entities")
	})
	b.Run("save", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := ring.Save(1); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(entities), "ns/entity")
	})
	b.Run("restore", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := ring.Restore(1); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(entities), "ns/entity")
	})
}
