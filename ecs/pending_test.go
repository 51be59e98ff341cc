package ecs_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
)

// parent relates an entity to another one.
type parent struct{ Of ecs.Entity }

// squad holds entities in an array.
type squad struct {
	Lead    ecs.Entity
	Members [2]ecs.Entity
	Size    int
}

// TestPendingEntityReference: the reference a spawn hands out can be used
// in the same system for further commands and inside queued values, and
// becomes the spawned entity at the sync point.
func TestPendingEntityReference(t *testing.T) {
	tests := []struct {
		name string
		// queue runs in one system; it returns the spawns to resolve.
		queue func(ctx *ecs.Sys, existing ecs.Entity) []ecs.Pending
		// check looks at the world after the sync point; made are the
		// resolved spawns.
		check func(t *testing.T, w *ecs.World, existing ecs.Entity, made []ecs.Entity)
	}{
		{"a camera following a new player", func(ctx *ecs.Sys, _ ecs.Entity) []ecs.Pending {
			player := ctx.Commands.Spawn()
			ecs.With(player, ecs.At(10, 10))
			cam := ctx.Commands.Spawn()
			ecs.With(cam, ecs.At(0, 0))
			ecs.With(cam, ecs.Camera{Follow: player.Entity()})
			return []ecs.Pending{player, cam}
		}, func(t *testing.T, w *ecs.World, _ ecs.Entity, made []ecs.Entity) {
			m := ecs.NewMap[ecs.Camera](w)
			if got := m.Get(made[1]).Follow; got != made[0] {
				t.Errorf("camera follows %v, want the player %v", got, made[0])
			}
		}},
		{"a reference to a spawn queued later", func(ctx *ecs.Sys, _ ecs.Entity) []ecs.Pending {
			child := ctx.Commands.Spawn()
			root := ctx.Commands.Spawn()
			ecs.With(child, parent{Of: root.Entity()})
			ecs.With(root, health{1})
			return []ecs.Pending{child, root}
		}, func(t *testing.T, w *ecs.World, _ ecs.Entity, made []ecs.Entity) {
			m := ecs.NewMap[parent](w)
			if got := m.Get(made[0]).Of; got != made[1] || !w.Alive(got) {
				t.Errorf("child's parent is %v, want the root %v", got, made[1])
			}
		}},
		{"references in an array and to itself", func(ctx *ecs.Sys, _ ecs.Entity) []ecs.Pending {
			a, b := ctx.Commands.Spawn(), ctx.Commands.Spawn()
			ecs.With(a, squad{Lead: a.Entity(), Members: [2]ecs.Entity{b.Entity(), a.Entity()}, Size: 2})
			return []ecs.Pending{a, b}
		}, func(t *testing.T, w *ecs.World, _ ecs.Entity, made []ecs.Entity) {
			m := ecs.NewMap[squad](w)
			want := squad{Lead: made[0], Members: [2]ecs.Entity{made[1], made[0]}, Size: 2}
			if got := *m.Get(made[0]); got != want {
				t.Errorf("squad: got %+v, want %+v", got, want)
			}
		}},
		{"commands on the new entity", func(ctx *ecs.Sys, _ ecs.Entity) []ecs.Pending {
			p := ctx.Commands.Spawn()
			ecs.With(p, health{1})
			e := p.Entity()
			ecs.Add(ctx.Commands, e, ecs.At(1, 2))
			ecs.Set(ctx.Commands, e, health{5})
			ecs.Remove[health](ctx.Commands, e)
			ecs.Add(ctx.Commands, e, parent{})
			return []ecs.Pending{p}
		}, func(t *testing.T, w *ecs.World, _ ecs.Entity, made []ecs.Entity) {
			tr, hp, par := ecs.NewMap[ecs.Transform](w), ecs.NewMap[health](w), ecs.NewMap[parent](w)
			if !tr.Has(made[0]) || tr.Get(made[0]).Position != (geom.Vec2{X: 1, Y: 2}) || hp.Has(made[0]) || !par.Has(made[0]) {
				t.Errorf("components: transform %v, health %v, parent %v; want a transform at (1, 2), no health, a parent", tr.Has(made[0]), hp.Has(made[0]), par.Has(made[0]))
			}
		}},
		{"a despawn of the new entity", func(ctx *ecs.Sys, _ ecs.Entity) []ecs.Pending {
			p := ctx.Commands.Spawn()
			ecs.With(p, health{1})
			ctx.Commands.Despawn(p.Entity())
			return []ecs.Pending{p}
		}, func(t *testing.T, w *ecs.World, _ ecs.Entity, made []ecs.Entity) {
			if w.Alive(made[0]) {
				t.Errorf("%v is alive, want despawned", made[0])
			}
		}},
		{"a relation from an existing entity", func(ctx *ecs.Sys, existing ecs.Entity) []ecs.Pending {
			p := ctx.Commands.Spawn()
			ecs.With(p, health{1})
			ecs.Add(ctx.Commands, existing, parent{Of: p.Entity()})
			return []ecs.Pending{p}
		}, func(t *testing.T, w *ecs.World, existing ecs.Entity, made []ecs.Entity) {
			m := ecs.NewMap[parent](w)
			if got := m.Get(existing).Of; got != made[0] {
				t.Errorf("existing entity's parent %v, want %v", got, made[0])
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var errs []ecs.CommandError
			a := newApp(t, ecs.Options{OnCommandError: func(e ecs.CommandError) { errs = append(errs, e) }})
			var existing ecs.Entity
			var pend []ecs.Pending
			var sawDead bool
			a.AddSystem(ecs.Startup, ecs.System{Name: "existing", Run: func(ctx *ecs.Sys) {
				ecs.With(ctx.Commands.Spawn(), position{})
			}})
			a.AddSystem(ecs.Startup, ecs.System{Name: "find", Run: func(ctx *ecs.Sys) {
				q := ecs.NewFilter1[position](ctx.World).Query()
				for q.Next() {
					existing = q.Entity()
				}
			}})
			a.AddSystem(ecs.Update, ecs.System{Name: "spawner", Run: func(ctx *ecs.Sys) {
				q := ecs.NewFilter1[position](ctx.World).Query() // inside a query: the world is locked
				for q.Next() {
					pend = tt.queue(ctx, existing)
				}
				r := pend[0].Entity()
				sawDead = !ctx.World.Alive(r) && r.Pending() && !r.IsZero()
			}})
			if err := a.InitSimulation(nil); err != nil {
				t.Fatal(err)
			}
			if err := a.Update(tick(1, 0)); err != nil {
				t.Fatal(err)
			}
			if !sawDead {
				t.Error("before the sync point the reference was alive, or not a pending reference")
			}
			var made []ecs.Entity
			for _, p := range pend {
				e, ok := a.World().Commands().Resolve(p)
				if !ok {
					t.Fatalf("Resolve(%v): not resolved", p)
				}
				made = append(made, e)
			}
			tt.check(t, a.World(), existing, made)
			if len(errs) != 0 {
				t.Errorf("command errors: %v", errs)
			}
		})
	}
}

func TestPendingReferenceKeptTooLong(t *testing.T) {
	w := ecs.NewWorld()
	var errs []ecs.CommandError
	w.Commands().OnError(func(e ecs.CommandError) { errs = append(errs, e) })
	p := w.Commands().Spawn()
	ecs.With(p, health{1})
	old := p.Entity()
	if got := old.String(); got != "entity(pending 0)" {
		t.Errorf("String: got %q", got)
	}
	w.Apply()
	target := ecs.Entity{}
	ecs.With(w.Commands().Spawn(), parent{Of: old})
	w.Commands().Despawn(old)
	w.Apply()
	q := ecs.NewFilter1[parent](w).Query()
	for q.Next() {
		target = q.Get().Of
	}
	if !target.IsZero() {
		t.Errorf("a stale reference in a value became %v, want the zero Entity", target)
	}
	var reasons []string
	for _, e := range errs {
		reasons = append(reasons, e.Op+": "+e.Reason)
	}
	want := []string{"resolve: pending entity is from an earlier batch", "despawn: pending entity is from an earlier batch"}
	if !slices.Equal(reasons, want) {
		t.Errorf("errors: got %q, want %q", strings.Join(reasons, "; "), want)
	}
	if got := w.Commands().Stats().StalePending; got != 2 {
		t.Errorf("StalePending: got %d, want 2", got)
	}
}
