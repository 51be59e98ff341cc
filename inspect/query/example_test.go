package query_test

import (
	"fmt"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/inspect/query"
)

type Ball struct{ X, Y, VY float32 }

func Example() {
	a, _ := ecs.NewApp(ecs.Options{})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		ecs.With(ctx.Commands.Spawn(), Ball{X: 40, Y: 120, VY: 3})
		ecs.With(ctx.Commands.Spawn(), Ball{X: 80, Y: 410, VY: 5})
	}})
	_ = a.InitSimulation(nil)
	w := a.World()

	cond, err := query.Prepare("Ball.Y > 400 && Ball.VY > 0", w.ComponentTypes())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range cond.Eval(w) {
		fmt.Println(m.Entity, m.Values)
	}

	_, err = query.Prepare("Ball.Z > 400", w.ComponentTypes())
	fmt.Println(err)
	// Output:
	// entity(2.0) [410 5]
	// query: "Ball.Z > 400" at byte 0: Ball.Z: query_test.Ball has no field Z; its fields are X, Y, VY
}
