//go:build !race

package ecs_test

import (
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
)

// Once every slot of the ring has been used, saving a tick, running ticks
// and restoring allocate nothing while the world's structure is steady,
// slices in components included.
func TestSnapshotRingAllocatesNothing(t *testing.T) {
	a := newApp(t, ecs.Options{Seed: 1})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		for i := range 1000 {
			p := ctx.Commands.Spawn()
			ecs.With(p, ecs.At(float32(i), 0))
			ecs.With(p, ecs.Sprite{Size: geom.Vec2{X: 2, Y: 2}})
			ecs.With(p, speed{X: 1, Y: 2})
			if i%10 == 0 {
				ecs.With(p, body{Trail: []int32{1, 2, 3}})
			}
		}
	}})
	a.AddSystem(ecs.Update, moveSystem())
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	ring, err := ecs.NewSnapshots(a, 4)
	if err != nil {
		t.Fatal(err)
	}
	n := uint64(0)
	step := func() {
		n++
		if err := ring.Save(n); err != nil {
			t.Fatal(err)
		}
		if err := a.Update(tick(n, 0)); err != nil {
			t.Fatal(err)
		}
		if n > 2 {
			if err := ring.Restore(n - 2); err != nil {
				t.Fatal(err)
			}
			for m := n - 2; m <= n; m++ {
				if err := a.Update(tick(m, 0)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for range 8 {
		step()
	}
	if allocs := testing.AllocsPerRun(50, step); allocs != 0 {
		t.Fatalf("save, restore and resimulation allocate %v times per tick, want 0", allocs)
	}
}

// A sync-test tick (a save, the tick, a restore and the ticks run again,
// with their input kept) allocates nothing once warm.
func TestSyncTestAllocatesNothing(t *testing.T) {
	a := newApp(t, ecs.Options{Seed: 1})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		for i := range 1000 {
			p := ctx.Commands.Spawn()
			ecs.With(p, ecs.At(float32(i), 0))
			ecs.With(p, speed{X: 1, Y: 2})
		}
	}})
	a.AddSystem(ecs.Update, moveSystem())
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	st, err := ecs.NewSyncTest(a, 2)
	if err != nil {
		t.Fatal(err)
	}
	actions := input.NewActions()
	actions.MustRegister("fire", input.KeySpace)
	var in input.Tick
	n := uint64(0)
	step := func() {
		tk := tick(n, 0)
		in.Fill(actions, 0, 1, input.State{}, []input.Record{{Kind: input.RecordPress, Button: input.KeySpace}})
		tk.Input = &in
		if err := st.Update(tk); err != nil {
			t.Fatal(err)
		}
		n++
	}
	for range 8 {
		step()
	}
	if allocs := testing.AllocsPerRun(50, step); allocs != 0 {
		t.Fatalf("a sync-test tick allocates %v times, want 0", allocs)
	}
}

// A restore across spawns and despawns rebuilds the world's entities
// (World.Reset, then the pool put back), which drops every component
// value; the arrays of the slices those values held are reused for the
// restored ones, so the restore allocates only for the value despawned
// since the save (and, in builds tagged archesafe, Arche's LoadEntities),
// whatever the number of entities with slices.
func TestRestoreAcrossChurnReusesArrays(t *testing.T) {
	measure := func(n int) float64 {
		a := newApp(t, ecs.Options{Seed: 1})
		w := a.World()
		for i := range n {
			ecs.With(w.Commands().Spawn(), body{Trail: []int32{int32(i), 2, 3}})
		}
		w.Apply()
		var s ecs.Snapshot
		if err := a.Save(&s); err != nil {
			t.Fatal(err)
		}
		bodies := ecs.NewFilter1[body](w)
		var first ecs.Entity
		churn := func() {
			for q := bodies.Query(); q.Next(); {
				first = q.Entity()
				q.Close()
				break
			}
			w.Commands().Despawn(first)
			ecs.With(w.Commands().Spawn(), body{})
			w.Apply()
			if err := a.Restore(&s); err != nil {
				t.Fatal(err)
			}
		}
		churn()
		return testing.AllocsPerRun(20, churn)
	}
	few, many := measure(50), measure(2000)
	if many != few || many > 8 {
		t.Fatalf("a restore across a spawn and a despawn allocates %v times with 50 entities holding slices, %v with 2000; want the same few (the despawned value's slice, and Arche's own in archesafe builds)", few, many)
	}
}
