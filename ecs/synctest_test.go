package ecs_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/runtime"
)

// A deterministic game passes sync-test at every depth, through spawns,
// despawns, references, events, timers and state changes.
func TestSyncTestPassesADeterministicGame(t *testing.T) {
	for _, depth := range []int{1, ecs.DefaultSyncTestDepth, 7} {
		a := churnGame(t)
		st, err := ecs.NewSyncTest(a, depth)
		if err != nil {
			t.Fatal(err)
		}
		const ticks = 300
		for n := range uint64(ticks) {
			if err := st.Update(tick(n, 0)); err != nil {
				t.Fatalf("depth %d: %v", depth, err)
			}
		}
		got := st.Stats()
		if got.Ticks != ticks || got.Checked != got.Resimulated || got.Resimulated != uint64(ticks-depth+1)*uint64(depth) {
			t.Fatalf("depth %d: stats %+v, want %d ticks each checked %d times", depth, got, ticks, depth)
		}
	}
}

type wander struct{ X, Y float32 }

// A system that reads state outside the world (here a counter in a
// closure) runs differently the second time; sync-test stops at the first
// tick it affects and names the tick, the type and the field.
func TestSyncTestCatchesStateOutsideTheWorld(t *testing.T) {
	a := newApp(t, ecs.Options{})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Context) {
		ecs.With(ctx.Commands.Spawn(), wander{})
		// Left out of the hash, an entity is left out of the report too.
		u := ctx.Commands.Spawn()
		ecs.With(u, wander{})
		ecs.With(u, ecs.Unhashed{})
	}})
	outside := 0 // not in the world: a restore does not bring it back
	wanders := ecs.NewFilter1[wander](a.World())
	marks := ecs.NewMap[ecs.Unhashed](a.World())
	a.AddSystem(ecs.Update, ecs.System{Name: "leak", Run: func(ctx *ecs.Context) {
		outside++
		for q := wanders.Query(); q.Next(); {
			d := q.Get()
			d.X += 1
			if marks.Has(q.Entity()) {
				d.X = float32(outside) // from the first tick, but unhashed
				continue
			}
			if ctx.Time.Number >= 5 {
				d.Y = float32(outside)
			}
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	st, err := ecs.NewSyncTest(a, 2)
	if err != nil {
		t.Fatal(err)
	}
	var failure error
	for n := range uint64(20) {
		if failure = st.Update(tick(n, 0)); failure != nil {
			break
		}
	}
	var se *ecs.SyncTestError
	if !errors.As(failure, &se) {
		t.Fatalf("sync-test of a leaking system: %v, want a SyncTestError", failure)
	}
	if se.Divergence.Tick != 5 {
		t.Errorf("mismatch at tick %d, want 5, the first tick that reads the counter", se.Divergence.Tick)
	}
	var div *runtime.DivergenceError
	if !errors.As(failure, &div) || len(div.DifferingTypes()) != 1 || div.DifferingTypes()[0] != "ecs_test.wander" {
		t.Errorf("divergence report: %v, want it to name ecs_test.wander alone", div)
	}
	if len(se.Fields) != 1 || se.Fields[0].Field != "ecs_test.wander.Y" || se.Fields[0].Type != "ecs_test.wander" {
		t.Errorf("fields: %+v, want ecs_test.wander.Y", se.Fields)
	}
	for _, want := range []string{"tick 5", "ecs_test.wander", "ecs_test.wander.Y of entity("} {
		if !strings.Contains(failure.Error(), want) {
			t.Errorf("message %q does not name %q", failure, want)
		}
	}
}

func TestSyncTestDepthRange(t *testing.T) {
	a := newApp(t, ecs.Options{})
	for _, d := range []int{0, -1, ecs.MaxSyncTestDepth + 1} {
		if _, err := ecs.NewSyncTest(a, d); err == nil || !strings.Contains(err.Error(), "allowed 1..") {
			t.Errorf("NewSyncTest(%d): %v, want an error with the allowed range", d, err)
		}
	}
}
