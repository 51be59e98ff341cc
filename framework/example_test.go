package framework_test

import (
	"fmt"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
)

// velocity is a component: world units per second.
type velocity struct{ X, Y float32 }

// A game of a few dozen lines: a ball that moves under an ECS system and
// speeds up while Space is held, tested headless on exact 60 Hz ticks.
func Example() {
	var boost input.Action
	game := framework.Game{
		Title: "ball",
		Setup: func(s *framework.Setup) error {
			var err error
			if boost, err = s.Actions.RegisterNames("boost", "Space"); err != nil {
				return err
			}
			balls := ecs.NewFilter2[ecs.Transform, velocity](s.App.World())
			s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Context) {
				b := ctx.Commands.Spawn()
				ecs.With(b, ecs.At(0, 0))
				ecs.With(b, ecs.Sprite{Size: ecs.Vec2{X: 8, Y: 8}})
				ecs.With(b, velocity{X: 30})
			}})
			s.App.AddSystem(ecs.Update, ecs.System{Name: "move", Run: func(ctx *ecs.Context) {
				dt := float32(ctx.DeltaSeconds())
				extra := float32(ctx.Input.SimulationSeconds(boost, ctx.Delta()))
				q := balls.Query()
				for q.Next() {
					t, v := q.Get()
					t.Position.X += v.X*dt + 2*v.X*extra // triple speed while boosted
				}
			}})
			return nil
		},
	}

	cfg := config.Default()
	_ = cfg.Set("timing.mode=fixed")
	_ = cfg.Set("timing.rate=60")
	sim, err := frameworktest.New(game, frameworktest.Options{Config: &cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	sim.Input.Press(sim.At(0), input.KeySpace)
	sim.Input.Release(sim.At(500*time.Millisecond), input.KeySpace)
	if err := sim.RunTicks(60); err != nil { // one simulated second
		fmt.Println(err)
		return
	}
	q := ecs.NewFilter2[ecs.Transform, velocity](sim.App.World()).Query()
	for q.Next() {
		t, _ := q.Get()
		fmt.Printf("x = %.1f after %d ticks\n", t.Position.X, sim.Ticks())
	}
	// Output: x = 60.0 after 60 ticks
}
