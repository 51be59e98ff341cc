package ecs_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/metronome-go/metronome/ecs"
)

func TestTransformInterpolated(t *testing.T) {
	near := func(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-5 }
	tests := []struct {
		name      string
		from, to  ecs.Transform
		alpha     float32
		wantPos   ecs.Vec2
		wantRot   float32
		wantScale ecs.Vec2
	}{
		{"start", ecs.At(0, 0), ecs.At(10, 20), 0, ecs.Vec2{X: 0, Y: 0}, 0, ecs.Vec2{X: 1, Y: 1}},
		{"quarter", ecs.At(0, 0), ecs.At(10, 20), 0.25, ecs.Vec2{X: 2.5, Y: 5}, 0, ecs.Vec2{X: 1, Y: 1}},
		{"end", ecs.At(0, 0), ecs.At(10, 20), 1, ecs.Vec2{X: 10, Y: 20}, 0, ecs.Vec2{X: 1, Y: 1}},
		{"scale", ecs.Transform{Scale: ecs.Vec2{X: 1, Y: 1}}, ecs.Transform{Scale: ecs.Vec2{X: 3, Y: 5}}, 0.5, ecs.Vec2{}, 0, ecs.Vec2{X: 2, Y: 3}},
		{"rotation", ecs.Transform{Rotation: 0.5}, ecs.Transform{Rotation: 1.5}, 0.5, ecs.Vec2{}, 1, ecs.Vec2{}},
		// From just below +pi to just above -pi is a short turn through pi.
		{"rotation wraps", ecs.Transform{Rotation: math.Pi - 0.1}, ecs.Transform{Rotation: -math.Pi + 0.1}, 0.5, ecs.Vec2{}, -math.Pi, ecs.Vec2{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := tt.from
			ecs.Snapshot(&tr)
			tr.Position, tr.Rotation, tr.Scale = tt.to.Position, tt.to.Rotation, tt.to.Scale
			pos, rot, scale := tr.Interpolated(tt.alpha)
			if !near(pos.X, tt.wantPos.X) || !near(pos.Y, tt.wantPos.Y) {
				t.Errorf("position: got %+v, want %+v", pos, tt.wantPos)
			}
			if d := math.Remainder(float64(rot-tt.wantRot), 2*math.Pi); math.Abs(d) > 1e-5 {
				t.Errorf("rotation: got %v, want %v", rot, tt.wantRot)
			}
			if !near(scale.X, tt.wantScale.X) || !near(scale.Y, tt.wantScale.Y) {
				t.Errorf("scale: got %+v, want %+v", scale, tt.wantScale)
			}
		})
	}
}

func TestTransformWithoutPreviousAndTeleport(t *testing.T) {
	tr := ecs.At(5, 5)
	if pos, _, _ := tr.Interpolated(0); pos != (ecs.Vec2{X: 5, Y: 5}) {
		t.Errorf("never snapshotted: got %+v, want current position", pos)
	}
	if _, _, _, ok := tr.Previous(); ok {
		t.Error("Previous: got ok before any snapshot")
	}
	ecs.Snapshot(&tr)
	tr.Position = ecs.Vec2{X: 100, Y: 100}
	tr.Teleport()
	if pos, _, _ := tr.Interpolated(0); pos != (ecs.Vec2{X: 100, Y: 100}) {
		t.Errorf("after Teleport: got %+v, want the new position", pos)
	}
}

func TestNames(t *testing.T) {
	w := ecs.NewWorld()
	ecs.With(w.Commands().Spawn(), ecs.At(0, 0))
	w.Apply()
	var e ecs.Entity
	q := ecs.NewFilter1[ecs.Transform](w).Query()
	for q.Next() {
		e = q.Entity()
	}
	tests := []struct{ got, want string }{
		{ecs.Update.String(), "Update"},
		{ecs.Shutdown.String(), "Shutdown"},
		{ecs.Stage(42).String(), "Stage(42)"},
		{ecs.TypeOf[ecs.Sprite]().String(), "ecs.Sprite"},
		{e.String(), fmt.Sprintf("entity(%d.%d)", e.ID(), e.Generation())},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	if e.IsZero() || !(ecs.Entity{}).IsZero() {
		t.Errorf("IsZero: live entity %v, zero entity %v", e.IsZero(), (ecs.Entity{}).IsZero())
	}
}

// TestSnapshotKeepsNeighbours checks that the snapshot copies every field of
// the current value and writes nothing outside its own Transform (the
// metronome_unsafe build copies raw memory): in an array laid out like an
// archetype column, snapshotting the middle element leaves both neighbours
// as they were.
func TestSnapshotKeepsNeighbours(t *testing.T) {
	col := [3]ecs.Transform{
		{Position: ecs.Vec2{X: 1, Y: 2}, Rotation: 3, Scale: ecs.Vec2{X: 4, Y: 5}},
		{Position: ecs.Vec2{X: -6, Y: 7}, Rotation: -0.5, Scale: ecs.Vec2{X: 8, Y: -9}},
		{Position: ecs.Vec2{X: 10, Y: 11}, Rotation: 12, Scale: ecs.Vec2{X: 13, Y: 14}},
	}
	before := col
	ecs.Snapshot(&col[1])
	for _, i := range []int{0, 2} {
		if col[i] != before[i] {
			t.Errorf("neighbour %d: got %+v, want %+v", i, col[i], before[i])
		}
		if _, _, _, ok := col[i].Previous(); ok {
			t.Errorf("neighbour %d: Previous got ok, want none", i)
		}
	}
	pos, rot, scale, ok := col[1].Previous()
	if !ok || pos != before[1].Position || rot != before[1].Rotation || scale != before[1].Scale {
		t.Errorf("snapshotted: got %+v %v %+v (ok %v), want %+v %v %+v (ok true)",
			pos, rot, scale, ok, before[1].Position, before[1].Rotation, before[1].Scale)
	}
}
