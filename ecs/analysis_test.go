package ecs_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/metronome-go/metronome/ecs"
)

type vigour struct{ Value int32 }

// analysisApp has three systems: spawn (tick 0 only), a mover and a
// system that changes nothing.
func analysisApp(t *testing.T) (*ecs.App, ecs.Filter1[vigour]) {
	t.Helper()
	a, err := ecs.NewApp(ecs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hs := ecs.NewFilter1[vigour](a.World())
	a.AddSystem(ecs.PreUpdate, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		if ctx.Time.Number == 0 {
			p := ctx.Commands.Spawn()
			ecs.With(p, ecs.At(1, 2))
			ecs.With(p, vigour{Value: 10})
		}
	}})
	a.AddSystem(ecs.Update, ecs.System{Name: "hurt", Run: func(ctx *ecs.Sys) {
		q := hs.Query()
		for q.Next() {
			q.Get().Value--
		}
	}})
	a.AddSystem(ecs.PostUpdate, ecs.System{Name: "idle", Run: func(*ecs.Sys) {}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	return a, *hs
}

// TestObserveSystems: the observer sees every system of a tick in order,
// each with the state it left, and can save it for FieldDiffs.
func TestObserveSystems(t *testing.T) {
	a, _ := analysisApp(t)
	type seen struct {
		tick  uint64
		index int
		name  string
		hash  uint64
	}
	var got []seen
	var h ecs.Hash
	var snaps []*ecs.Snapshot
	a.ObserveSystems(func(s *ecs.SystemStep) {
		if err := s.HashInto(&h); err != nil {
			t.Fatal(err)
		}
		got = append(got, seen{s.Tick, s.Index, s.Name, h.Total})
		snap := new(ecs.Snapshot)
		if err := s.Save(snap); err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, snap)
	})
	for n := range uint64(2) {
		if err := a.Update(tick(n, 0)); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for _, s := range got {
		names = append(names, s.name)
	}
	// ecs.animate is the App's own cosmetic system, first in PostUpdate.
	want := []string{"spawn", "hurt", "ecs.animate", "idle", "spawn", "hurt", "ecs.animate", "idle"}
	if !slices.Equal(names, want) {
		t.Fatalf("steps: got %v, want %v", names, want)
	}
	if got[4].tick != 1 || got[4].index != 0 || got[7].index != 3 {
		t.Errorf("tick 1's steps: got %+v, want tick 1 counted from index 0", got[4:])
	}
	if got[4].hash == got[5].hash {
		t.Errorf("hurt changed a vigour but the hash after it is the hash before it")
	}
	if got[5].hash != got[7].hash {
		t.Errorf("idle changed nothing but the hash after it differs")
	}
	// The world after spawn of tick 1 against the world now: hurt wrote
	// the vigour.
	a.ObserveSystems(nil)
	if err := a.Restore(snaps[4]); !errors.Is(err, ecs.ErrSnapshot) {
		t.Errorf("Restore of a mid-tick snapshot: got %v, want ErrSnapshot", err)
	}
	diffs := a.FieldDiffs(snaps[4], []string{"ecs_test.vigour"})
	if len(diffs) != 1 || diffs[0].Field != "ecs_test.vigour.Value" {
		t.Errorf("FieldDiffs against the state after spawn: got %+v, want ecs_test.vigour.Value", diffs)
	}
}

// TestComponentReading: components read by type, without a typed filter.
func TestComponentReading(t *testing.T) {
	a, _ := analysisApp(t)
	if err := a.Update(tick(0, 0)); err != nil {
		t.Fatal(err)
	}
	w := a.World()
	ht := ecs.TypeOf[vigour]()
	if !slices.Contains(w.ComponentTypes(), ht) {
		t.Fatalf("ComponentTypes: got %v, want vigour among them", w.ComponentTypes())
	}
	es := w.EntitiesWith(ht)
	if len(es) != 1 {
		t.Fatalf("EntitiesWith(vigour): got %v, want one entity", es)
	}
	v, ok := w.Component(es[0], ht)
	if !ok || v.Interface().(vigour).Value != 9 {
		t.Errorf("Component: got %v %v, want vigour 9", v, ok)
	}
	if e, ok := w.EntityOf(es[0].ID(), es[0].Generation()); !ok || e != es[0] {
		t.Errorf("EntityOf(%d, %d): got %v %v", es[0].ID(), es[0].Generation(), e, ok)
	}
	if _, ok := w.Component(es[0], ecs.TypeOf[ecs.Camera]()); ok {
		t.Errorf("Component of a type the entity lacks: got ok")
	}
	if !ecs.TypeOf[ecs.Sprite]().PresentationOnly() || ht.PresentationOnly() {
		t.Errorf("PresentationOnly: sprite %v, vigour %v; want true, false", ecs.TypeOf[ecs.Sprite]().PresentationOnly(), ht.PresentationOnly())
	}
}
