package ecs_test

import (
	"testing"

	"github.com/metronome-go/metronome/ecs"
)

type hp struct {
	Now, Max int
	owner    ecs.Entity
}

type glint struct {
	ecs.PresentationOnly
	N int
}

// The inspector's view of a world: every entity, its components as copies
// sorted by name, presentation marked; and the markers of the last tick.
func TestInspectionViewAndMarks(t *testing.T) {
	a := newApp(t, ecs.Options{Seed: 1})
	var first ecs.Entity
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		e := ctx.Commands.Spawn()
		ecs.With(e, hp{Now: 3, Max: 5})
		ecs.With(e, glint{N: 2})
		ecs.With(ctx.Commands.Spawn(), hp{Now: 1, Max: 1})
	}})
	a.AddSystem(ecs.Update, ecs.System{Name: "hurt", Run: func(ctx *ecs.Sys) {
		if ctx.Time.Number%2 == 1 {
			ctx.Mark("odd")
			ctx.Mark("twice")
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	n := 0
	a.World().EachEntity(func(e ecs.Entity) bool {
		if len(a.World().ComponentsOf(e, nil)) == 2 {
			first = e
		}
		n++
		return true
	})
	if n != 2 {
		t.Fatalf("EachEntity saw %d entities, want 2", n)
	}
	stops := 0
	a.World().EachEntity(func(ecs.Entity) bool { stops++; return false })
	if stops != 1 || a.World().Locked() {
		t.Errorf("EachEntity stopped after %d calls, locked %t: want 1 and unlocked", stops, a.World().Locked())
	}
	e, ok := a.World().EntityOf(first.ID(), first.Generation())
	if !ok || e != first {
		t.Fatalf("EntityOf(%d, %d): %v %t", first.ID(), first.Generation(), e, ok)
	}
	if _, ok := a.World().EntityOf(first.ID(), first.Generation()+1); ok {
		t.Error("EntityOf of another generation found one")
	}
	comps := a.World().ComponentsOf(first, nil)
	if len(comps) != 2 || comps[0].Type.Name() != "ecs_test.glint" || comps[1].Type.Name() != "ecs_test.hp" {
		t.Fatalf("ComponentsOf: %+v", comps)
	}
	if h := comps[1].Value.(*hp); h.Now != 3 || h.Max != 5 || comps[1].Presentation {
		t.Errorf("hp: %+v presentation %t", h, comps[1].Presentation)
	}
	if !comps[0].Presentation {
		t.Error("glint is presentation-only and not marked so")
	}
	comps[1].Value.(*hp).Now = 99 // a copy
	if again := a.World().ComponentsOf(first, nil); again[1].Value.(*hp).Now != 3 {
		t.Error("changing the copy changed the world")
	}
	if res := a.World().Resources(nil); len(res) == 0 {
		t.Error("no resources")
	}

	for i := range uint64(3) {
		if err := a.Update(tick(i, 0)); err != nil {
			t.Fatal(err)
		}
		marks := a.Marks()
		if want := int(i % 2 * 2); len(marks) != want {
			t.Fatalf("tick %d: %d marks, want %d", i, len(marks), want)
		}
		if len(marks) > 0 && (marks[0] != ecs.Mark{System: "hurt", Label: "odd"}) {
			t.Errorf("tick %d: mark %+v", i, marks[0])
		}
	}
}
