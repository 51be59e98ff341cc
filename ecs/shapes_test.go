package ecs_test

import (
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/shape"
)

// TestShapes: a Shape entity becomes a shape packet at its Transform,
// sorted with sprites by layer and interpolated from the previous frame;
// a ctx.Draw line lasts until the next tick starts, on top of everything.
func TestShapes(t *testing.T) {
	a := newApp(t, ecs.Options{})
	drawLine := true
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		spawnSprite(ctx.Commands, 10, 10, 1, speed{}, red)
		s := ctx.Commands.Spawn()
		ecs.With(s, ecs.At(100, 50))
		ecs.With(s, ecs.Shape{Shape: shape.Circle(8), Color: green, Layer: 0})
		ecs.With(s, speed{X: 50})
		spawnSprite(ctx.Commands, 30, 10, -1, speed{}, blue)
	}})
	a.AddSystem(ecs.Update, moveSystem())
	a.AddSystem(ecs.Update, ecs.System{Name: "gizmo", Run: func(ctx *ecs.Sys) {
		if drawLine {
			ctx.Draw.Line(geom.Vec2{X: 0, Y: 0}, geom.Vec2{X: 10, Y: 10}, 1, yellow)
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	if err := a.Update(tick(1, 0)); err != nil {
		t.Fatal(err)
	}
	prepare(t, a)
	if err := a.Update(tick(2, 0)); err != nil {
		t.Fatal(err)
	}
	f := prepare(t, a)
	ps := f.Passes[0].Packets
	var got []render2d.Color
	for _, p := range ps {
		got = append(got, p.Tint)
	}
	want := []render2d.Color{blue, green, red, yellow}
	if len(got) != len(want) {
		t.Fatalf("packets: got tints %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("packet order: got tints %v, want %v (by layer, the debug line on top)", got, want)
		}
	}
	circle := ps[1]
	if !circle.IsShape() || circle.Transform.Position != (geom.Vec2{X: 102, Y: 50}) {
		t.Errorf("circle packet: shape %v at %v, want a shape at (102, 50)", circle.IsShape(), circle.Transform.Position)
	}
	if !circle.Prev.Set || circle.Prev.Position != (geom.Vec2{X: 101, Y: 50}) {
		t.Errorf("circle's previous placement: got %+v, want (101, 50)", circle.Prev)
	}
	if line := ps[3]; !line.IsShape() || line.Layer != ecs.GizmoLayer {
		t.Errorf("debug line: shape %v on layer %d, want a shape on GizmoLayer", line.IsShape(), line.Layer)
	}
	drawLine = false
	if err := a.Update(tick(3, 0)); err != nil {
		t.Fatal(err)
	}
	if n := prepare(t, a).PacketCount(); n != 3 {
		t.Errorf("packets after a tick without the debug line: got %d, want 3", n)
	}
}

// TestShapeErrors: a shape that cannot be drawn is counted and skipped.
func TestShapeErrors(t *testing.T) {
	a := newApp(t, ecs.Options{})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		ecs.With(ctx.Commands.Spawn(), ecs.At(1, 1))
		s := ctx.Commands.Spawn()
		ecs.With(s, ecs.At(1, 1))
		ecs.With(s, ecs.Shape{Shape: shape.Circle(-1)})
		ctx.Draw.Circle(geom.Vec2{}, 4, -1, red)
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	if n := prepare(t, a).PacketCount(); n != 0 {
		t.Errorf("packets: got %d, want 0", n)
	}
	if st := a.Stats().Extract; st.ShapeErrors != 2 || st.LastShapeError == nil {
		t.Errorf("shape errors: got %d (%v), want 2", st.ShapeErrors, st.LastShapeError)
	}
}
