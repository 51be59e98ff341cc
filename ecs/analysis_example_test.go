package ecs_test

import (
	"fmt"

	"github.com/metronome-go/metronome/ecs"
)

// Which system changed the state: the hash after each system of a tick.
func ExampleApp_ObserveSystems() {
	type Score struct{ Points int }
	a, _ := ecs.NewApp(ecs.Options{})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		ecs.With(ctx.Commands.Spawn(), Score{})
	}})
	scores := ecs.NewFilter1[Score](a.World())
	a.AddSystem(ecs.Update, ecs.System{Name: "read input", Run: func(*ecs.Sys) {}})
	a.AddSystem(ecs.Update, ecs.System{Name: "score", Run: func(*ecs.Sys) {
		for q := scores.Query(); q.Next(); {
			q.Get().Points++
		}
	}})
	_ = a.InitSimulation(nil)

	// Steps are compared with the step before: the first one also holds
	// what the tick's start moved (its clock, the gameplay queue).
	var before, after ecs.Hash
	a.ObserveSystems(func(s *ecs.SystemStep) {
		if err := s.HashInto(&after); err != nil {
			fmt.Println(err)
			return
		}
		if s.Index > 0 && after.Total != before.Total {
			fmt.Printf("tick %d: %s (%v) changed %v\n", s.Tick, s.Name, s.Stage, ecs.DiffHashes(before, after))
		}
		before.Total = after.Total
		before.Types = append(before.Types[:0], after.Types...)
	})
	_ = a.Update(tick(0, 0))
	// Output:
	// tick 0: score (Update) changed [ecs_test.Score]
}
