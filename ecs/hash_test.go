package ecs_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/shape"
)

type label struct {
	Name  string
	Steps []int16
	Flags [2]bool
}

type sparkle struct{ Phase float32 }

type score struct {
	Points int
	Combo  float64
}

// hashWorld builds the same state two ways: direct spawns, or every entity
// spawned bare and its components added afterwards in another order, with
// other component types registered first (so Arche's IDs, archetypes and
// iteration order all differ), an extra component added and removed again,
// and filters made in between.
func hashWorld(t *testing.T, roundabout bool, change func(w *ecs.World, es []ecs.Entity)) (*ecs.World, []ecs.Entity) {
	t.Helper()
	w := ecs.NewWorld()
	ecs.HashResource[score](w)
	ecs.AddResource(w, &score{Points: 7, Combo: 1.5})
	ecs.ExcludeFromHash[sparkle](w)
	if roundabout {
		ecs.NewFilter2[label, health](w)
		ecs.NewFilter1[sparkle](w)
	}
	cmd := w.Commands()
	const n = 40
	ps := make([]ecs.Pending, n)
	for i := range n {
		ps[i] = cmd.Spawn()
		if !roundabout {
			ecs.With(ps[i], ecs.At(float32(i), float32(-i)))
			if i%2 == 0 {
				ecs.With(ps[i], speed{X: float32(i) / 3})
			}
			if i%3 == 0 {
				ecs.With(ps[i], label{Name: fmt.Sprint("n", i), Steps: []int16{int16(i), 2}, Flags: [2]bool{true, i%2 == 0}})
			}
			if i%5 == 0 {
				ecs.With(ps[i], health{i})
			}
			ecs.With(ps[i], sparkle{Phase: 1})
		} else {
			ecs.With(ps[i], position{}) // removed again below
		}
	}
	// A spawned and despawned entity, so generations matter too.
	tmp := cmd.Spawn()
	w.Apply()
	es := make([]ecs.Entity, n)
	for i := range n {
		es[i], _ = cmd.Resolve(ps[i])
	}
	tmpE, _ := cmd.Resolve(tmp)
	cmd.Despawn(tmpE)
	if roundabout {
		for i := n - 1; i >= 0; i-- {
			e := es[i]
			if i%5 == 0 {
				ecs.Add(cmd, e, health{i})
			}
			ecs.Add(cmd, e, sparkle{Phase: float32(i)}) // excluded: any value
			if i%3 == 0 {
				ecs.Add(cmd, e, label{Name: "n" + fmt.Sprint(i), Steps: []int16{int16(i), 2}, Flags: [2]bool{true, i%2 == 0}})
			}
			if i%2 == 0 {
				ecs.Add(cmd, e, speed{X: float32(i) / 3})
			}
			ecs.Add(cmd, e, ecs.At(float32(i), float32(-i)))
			ecs.Remove[position](cmd, e)
		}
	}
	w.Apply()
	if change != nil {
		change(w, es)
		w.Apply()
	}
	return w, es
}

func mustHash(t *testing.T, w *ecs.World) ecs.Hash {
	t.Helper()
	h, err := w.Hash()
	if err != nil {
		t.Fatalf("Hash: %v", err)
	}
	return h
}

func TestWorldHashDoesNotDependOnHowTheWorldWasBuilt(t *testing.T) {
	a, _ := hashWorld(t, false, nil)
	b, _ := hashWorld(t, true, nil)
	ha, hb := mustHash(t, a), mustHash(t, b)
	if ha.Total != hb.Total || !slices.Equal(ha.Types, hb.Types) {
		t.Fatalf("the same state built two ways hashes differently:\n%+v\n%+v\ndiffering: %v", ha, hb, ecs.DiffHashes(ha, hb))
	}
	var names []string
	for _, th := range ha.Types {
		names = append(names, fmt.Sprintf("%s:%d", th.Name, th.Count))
	}
	want := "ecs.Transform:40 ecs.entities:40 ecs_test.health:8 ecs_test.label:14 ecs_test.speed:20 resource ecs_test.score:1"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("parts: got %q, want %q", got, want)
	}
	if again := mustHash(t, a); again.Total != ha.Total {
		t.Errorf("hashing twice: %x then %x", ha.Total, again.Total)
	}
}

func TestWorldHashSeesEveryChange(t *testing.T) {
	tests := []struct {
		name   string
		change func(w *ecs.World, es []ecs.Entity)
		want   []string // the parts that differ; nil: none
		// entity is the index of the entity EntityHashes must name for
		// the first part in want, or -1.
		entity int
	}{
		{"nothing", func(*ecs.World, []ecs.Entity) {}, nil, -1},
		{"a position", func(w *ecs.World, es []ecs.Entity) {
			ecs.Set(w.Commands(), es[4], ecs.At(4.0001, -4))
		}, []string{"ecs.Transform"}, 4},
		{"a teleport", func(w *ecs.World, es []ecs.Entity) {
			m := ecs.NewMap[ecs.Transform](w)
			m.Get(es[9]).Teleport()
		}, []string{"ecs.Transform"}, 9},
		{"zero against minus zero", func(w *ecs.World, es []ecs.Entity) {
			ecs.Set(w.Commands(), es[0], speed{X: float32(math.Copysign(0, -1))})
		}, []string{"ecs_test.speed"}, 0},
		{"a string", func(w *ecs.World, es []ecs.Entity) {
			m := ecs.NewMap[label](w)
			m.Get(es[3]).Name = "n3 "
		}, []string{"ecs_test.label"}, 3},
		{"a slice element", func(w *ecs.World, es []ecs.Entity) {
			m := ecs.NewMap[label](w)
			m.Get(es[6]).Steps[1] = 3
		}, []string{"ecs_test.label"}, 6},
		{"a slice length", func(w *ecs.World, es []ecs.Entity) {
			m := ecs.NewMap[label](w)
			l := m.Get(es[6])
			l.Steps = append(l.Steps, 0)
		}, []string{"ecs_test.label"}, 6},
		{"an array element", func(w *ecs.World, es []ecs.Entity) {
			m := ecs.NewMap[label](w)
			m.Get(es[0]).Flags[1] = false
		}, []string{"ecs_test.label"}, 0},
		{"a component added", func(w *ecs.World, es []ecs.Entity) {
			ecs.Add(w.Commands(), es[1], health{1})
		}, []string{"ecs_test.health"}, 1},
		{"a component moved to another entity", func(w *ecs.World, es []ecs.Entity) {
			ecs.Remove[health](w.Commands(), es[5])
			ecs.Add(w.Commands(), es[6], health{5})
		}, []string{"ecs_test.health"}, 5},
		{"an entity respawned on the same index", func(w *ecs.World, es []ecs.Entity) {
			// Despawned then spawned with the same components: a new
			// generation on the recycled index, so every part of it differs.
			w.Commands().Despawn(es[37])
			w.Apply()
			p := w.Commands().Spawn()
			ecs.With(p, ecs.At(37, -37))
			ecs.With(p, sparkle{Phase: 1})
		}, []string{"ecs.Transform", "ecs.entities"}, 37},
		{"an excluded component", func(w *ecs.World, es []ecs.Entity) {
			m := ecs.NewMap[sparkle](w)
			m.Get(es[2]).Phase = 99
		}, nil, -1},
		{"a registered resource", func(w *ecs.World, es []ecs.Entity) {
			ecs.GetResource[score](w).Combo = 2
		}, []string{"resource ecs_test.score"}, -1},
		{"an unregistered resource", func(w *ecs.World, es []ecs.Entity) {
			ecs.AddResource(w, &position{X: 1})
		}, nil, -1},
	}
	base, _ := hashWorld(t, false, nil)
	hb := mustHash(t, base)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, es := hashWorld(t, true, tt.change)
			h := mustHash(t, w)
			if got := ecs.DiffHashes(hb, h); !slices.Equal(got, tt.want) {
				t.Errorf("differing parts: got %v, want %v", got, tt.want)
			}
			if (h.Total == hb.Total) != (tt.want == nil) {
				t.Errorf("total %x against %x: want equal %v", h.Total, hb.Total, tt.want == nil)
			}
			if tt.entity < 0 || !strings.HasPrefix(tt.want[0], "ecs") {
				return
			}
			ct := map[string]ecs.ComponentType{
				"ecs.Transform": ecs.TypeOf[ecs.Transform](), "ecs_test.speed": ecs.TypeOf[speed](),
				"ecs_test.label": ecs.TypeOf[label](), "ecs_test.health": ecs.TypeOf[health](),
			}[tt.want[0]]
			ea, err := base.EntityHashes(ct)
			if err != nil {
				t.Fatal(err)
			}
			eb, err := w.EntityHashes(ct)
			if err != nil {
				t.Fatal(err)
			}
			got := ecs.DiffEntities(ea, eb)
			if len(got) == 0 || got[0].ID() != es[tt.entity].ID() {
				t.Errorf("differing entities in %s: got %v, want first the one of index %d (%v)", tt.want[0], got, tt.entity, es[tt.entity])
			}
		})
	}
}

type withPointer struct {
	X    int
	Next *withPointer
}

type deep struct {
	A struct {
		B [2]struct{ M map[string]int }
	}
}

type withInterface struct{ V any }

type withFunc struct {
	Name string
	F    func()
}

func TestWorldHashRefusesWhatIsNotPlainData(t *testing.T) {
	w := ecs.NewWorld()
	cmd := w.Commands()
	p := cmd.Spawn()
	ecs.With(p, withPointer{X: 1})
	ecs.With(p, deep{})
	ecs.With(p, withInterface{})
	ecs.With(p, withFunc{Name: "f"})
	ecs.With(p, health{3})
	w.Apply()
	h, err := w.Hash()
	if err == nil {
		t.Fatal("Hash: no error for four types that are not plain data")
	}
	for _, want := range []string{
		"component type ecs_test.withPointer: ecs_test.withPointer.Next is a pointer (*ecs_test.withPointer), not plain data",
		"component type ecs_test.deep: ecs_test.deep.A.B[0].M is a map (map[string]int)",
		"component type ecs_test.withInterface: ecs_test.withInterface.V is an interface (interface {})",
		"component type ecs_test.withFunc: ecs_test.withFunc.F is a function (func())",
		"ExcludeFromHash",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q\ndoes not say %q", err, want)
		}
	}
	var names []string
	for _, th := range h.Types {
		names = append(names, th.Name)
	}
	if got, want := strings.Join(names, " "), "ecs.entities ecs_test.health"; got != want {
		t.Errorf("parts hashed despite the errors: got %q, want %q", got, want)
	}
	for _, ty := range []func(*ecs.World){ecs.ExcludeFromHash[withPointer], ecs.ExcludeFromHash[deep], ecs.ExcludeFromHash[withInterface], ecs.ExcludeFromHash[withFunc]} {
		ty(w)
	}
	if _, err := w.Hash(); err != nil {
		t.Errorf("Hash after excluding them: %v", err)
	}
}

func TestWorldHashWhileLocked(t *testing.T) {
	w := ecs.NewWorld()
	spawnPV(w, 2)
	q := ecs.NewFilter1[position](w).Query()
	q.Next()
	_, err := w.Hash()
	q.Close()
	if err == nil || !strings.Contains(err.Error(), "locked") {
		t.Errorf("Hash inside a query: got %v, want an error saying the world is locked", err)
	}
}

func TestAppHashCoversTheRandomSourceAndQueue(t *testing.T) {
	run := func(draws, events int) ecs.Hash {
		a := newApp(t, ecs.Options{Seed: 5})
		a.AddSystem(ecs.Update, ecs.System{Name: "play", Run: func(ctx *ecs.Sys) {
			for range draws {
				ctx.Rand.Uint64()
			}
			for range events {
				if _, err := ctx.Queue.After(10, ecs.Event{Kind: 1}); err != nil {
					ctx.Fail(err)
				}
			}
		}})
		if err := a.Update(tick(1, 0)); err != nil {
			t.Fatal(err)
		}
		h, err := a.Hash()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	base := run(1, 1)
	if again := run(1, 1); again.Total != base.Total {
		t.Errorf("the same run hashed %x then %x", base.Total, again.Total)
	}
	if got := ecs.DiffHashes(base, run(2, 1)); !slices.Equal(got, []string{"ecs.rand"}) {
		t.Errorf("one more draw: differing parts %v, want [ecs.rand]", got)
	}
	if got := ecs.DiffHashes(base, run(1, 2)); !slices.Equal(got, []string{"ecs.queue"}) {
		t.Errorf("one more event: differing parts %v, want [ecs.queue]", got)
	}
}

func TestDiffHashes(t *testing.T) {
	h := func(parts ...ecs.TypeHash) ecs.Hash { return ecs.Hash{Types: parts} }
	tests := []struct {
		name string
		a, b ecs.Hash
		want []string
	}{
		{"equal", h(ecs.TypeHash{"a", 1, 1}), h(ecs.TypeHash{"a", 1, 1}), nil},
		{"hash", h(ecs.TypeHash{"a", 1, 1}, ecs.TypeHash{"b", 2, 1}), h(ecs.TypeHash{"a", 1, 1}, ecs.TypeHash{"b", 3, 1}), []string{"b"}},
		{"count", h(ecs.TypeHash{"a", 1, 1}), h(ecs.TypeHash{"a", 1, 2}), []string{"a"}},
		{"only in a", h(ecs.TypeHash{"a", 1, 1}, ecs.TypeHash{"c", 1, 1}), h(ecs.TypeHash{"c", 1, 1}), []string{"a"}},
		{"only in b", h(ecs.TypeHash{"c", 1, 1}), h(ecs.TypeHash{"b", 1, 1}, ecs.TypeHash{"c", 1, 1}, ecs.TypeHash{"d", 1, 1}), []string{"b", "d"}},
	}
	for _, tt := range tests {
		if got := ecs.DiffHashes(tt.a, tt.b); !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestUnhashedEntitiesAreLeftOut: an entity marked Unhashed does not change
// the world hash, whatever its components hold.
func TestUnhashedEntitiesAreLeftOut(t *testing.T) {
	build := func(overlay float32) uint64 {
		w := ecs.NewWorld()
		ecs.With(w.Commands().Spawn(), ecs.At(1, 2))
		o := w.Commands().Spawn()
		ecs.With(o, ecs.At(overlay, overlay))
		ecs.With(o, ecs.Unhashed{})
		w.Apply()
		h, err := w.Hash()
		if err != nil {
			t.Fatal(err)
		}
		return h.Total
	}
	if a, b := build(10), build(99); a != b {
		t.Errorf("hashes differ (%#x, %#x) with only an Unhashed entity changed", a, b)
	}
}

// hudLayout is a game's presentation-only component.
type hudLayout struct {
	ecs.PresentationOnly
	Margin float32
}

// TestHashLeavesOutPresentation: sprites, texts, shapes, animators,
// cameras and the game's own presentation-only types are not in the world
// hash, so changing how things look keeps it; where they are (Transform)
// and gameplay components still count.
func TestHashLeavesOutPresentation(t *testing.T) {
	build := func(edit func(*ecs.Commands, ecs.Pending, int)) ecs.Hash {
		t.Helper()
		w := ecs.NewWorld()
		cmd := w.Commands()
		for i := range 5 {
			e := cmd.Spawn()
			edit(cmd, e, i)
		}
		w.Apply()
		h, err := w.Hash()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	base := func(cmd *ecs.Commands, e ecs.Pending, i int) {
		ecs.With(e, ecs.At(float32(i), 0))
		ecs.With(e, health{10})
		ecs.With(e, ecs.Sprite{Size: geom.Vec2{X: 4, Y: 4}})
		ecs.With(e, ecs.Text{Content: "score 10"})
		ecs.With(e, ecs.Shape{Shape: shape.Circle(3)})
		ecs.With(e, ecs.Camera{Zoom: 1})
		ecs.With(e, ecs.Animator{Elapsed: 3})
		ecs.With(e, hudLayout{Margin: 4})
	}
	want := build(base)
	for _, tt := range []struct {
		name    string
		edit    func(cmd *ecs.Commands, e ecs.Pending, i int)
		changes bool
	}{
		{"sprite, text, shape, camera, animator, HUD layout", func(cmd *ecs.Commands, e ecs.Pending, i int) {
			ecs.With(e, ecs.At(float32(i), 0))
			ecs.With(e, health{10})
			ecs.With(e, ecs.Sprite{Size: geom.Vec2{X: 8, Y: 8}, Layer: 3})
			ecs.With(e, ecs.Text{Content: "SCORE: 10", Width: 100})
			ecs.With(e, ecs.Shape{Shape: shape.Rect(2, 2), Color: render2d.Color{R: 1, A: 1}})
			ecs.With(e, ecs.Camera{Zoom: 2})
			ecs.With(e, ecs.Animator{Elapsed: 4})
			ecs.With(e, hudLayout{Margin: 9})
		}, false},
		{"without any presentation", func(cmd *ecs.Commands, e ecs.Pending, i int) {
			ecs.With(e, ecs.At(float32(i), 0))
			ecs.With(e, health{10})
		}, false},
		{"a position", func(cmd *ecs.Commands, e ecs.Pending, i int) {
			base(cmd, e, i)
			ecs.With(e, ecs.At(float32(i)+1, 0))
		}, true},
		{"a gameplay component", func(cmd *ecs.Commands, e ecs.Pending, i int) {
			base(cmd, e, i)
			ecs.With(e, health{9})
		}, true},
	} {
		got := build(tt.edit)
		if (got.Total != want.Total) != tt.changes {
			t.Errorf("%s: hash %x, base %x; want changed %v", tt.name, got.Total, want.Total, tt.changes)
		}
	}
	for _, th := range want.Types {
		if strings.Contains(th.Name, "Sprite") || strings.Contains(th.Name, "Text") || strings.Contains(th.Name, "hudLayout") {
			t.Errorf("the hash lists %s, a presentation-only type", th.Name)
		}
	}
}
