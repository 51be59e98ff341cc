package ecs_test

import (
	"fmt"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
)

func TestTransformInterpolationSwitch(t *testing.T) {
	tr := ecs.At(5, 5)
	if !tr.Interpolates() {
		t.Error("a new Transform: Interpolates() = false, want true")
	}
	tr.SetInterpolation(false)
	tr.Teleport() // must keep the switch
	if tr.Interpolates() {
		t.Error("after SetInterpolation(false) and Teleport: Interpolates() = true, want false")
	}
	tr.SetInterpolation(true)
	if !tr.Interpolates() {
		t.Error("after SetInterpolation(true): Interpolates() = false, want true")
	}
	if tr.Position != (geom.Vec2{X: 5, Y: 5}) || tr.Scale != (geom.Vec2{X: 1, Y: 1}) {
		t.Errorf("the switches changed the placement: %+v", tr)
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
