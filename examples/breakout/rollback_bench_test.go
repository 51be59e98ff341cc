package main

import (
	"slices"
	"testing"

	"github.com/metronome-go/metronome/ecs/ecstest"
	"github.com/metronome-go/metronome/framework/frameworktest"
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
	ecstest.Rollback{App: sim.App, Next: sim.Ticks(), Step: tick}.Bench(b)
}
