//go:build !race

package ecs_test

import (
	"testing"

	"github.com/metronome-go/metronome/ecs"
)

// A tick whose system sets markers allocates nothing once the list grew.
func TestMarkAllocatesNothing(t *testing.T) {
	a := newApp(t, ecs.Options{Seed: 1})
	a.AddSystem(ecs.Update, ecs.System{Name: "mark", Run: func(ctx *ecs.Sys) {
		ctx.Mark("boss spawned")
		ctx.Mark("door opened")
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	tk := tick(0, 0)
	if err := a.Update(tk); err != nil {
		t.Fatal(err)
	}
	if got := testing.AllocsPerRun(100, func() {
		tk.Number++
		if err := a.Update(tk); err != nil {
			t.Fatal(err)
		}
	}); got != 0 {
		t.Errorf("a tick with two markers: %v allocations, want 0", got)
	}
	if len(a.Marks()) != 2 {
		t.Errorf("marks: %v", a.Marks())
	}
}
