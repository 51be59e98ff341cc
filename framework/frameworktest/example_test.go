package frameworktest_test

import (
	"fmt"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
)

// counter is a component: how many times its entity was pushed.
type counter struct{ Pushes int }

// A game's test steps the game, inspects its world, scripts more input and
// steps again. Ticks are exact: 10 ms fixed steps on virtual time.
func ExampleSim_Step() {
	var push input.Action
	game := framework.Game{Setup: func(s *framework.Setup) error {
		var err error
		if push, err = s.Actions.RegisterNames("push", "Space"); err != nil {
			return err
		}
		counters := ecs.NewFilter1[counter](s.App.World())
		s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Context) {
			ecs.With(ctx.Commands.Spawn(), counter{})
		}})
		s.App.AddSystem(ecs.Update, ecs.System{Name: "push", Run: func(ctx *ecs.Context) {
			n := ctx.Input.Presses(push)
			for q := counters.Query(); q.Next(); {
				q.Get().Pushes += n
			}
		}})
		return nil
	}}
	cfg := config.Default()
	_ = cfg.Set("timing.mode=fixed")
	_ = cfg.Set("timing.step=10ms")
	sim, err := frameworktest.New(game, frameworktest.Options{Config: &cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	pushes := func() int {
		q := ecs.NewFilter1[counter](sim.App.World()).Query()
		defer q.Close()
		q.Next()
		return q.Get().Pushes
	}
	sim.Input.Tap(sim.At(25*time.Millisecond), input.KeySpace, 5*time.Millisecond)
	_ = sim.Step(10) // 100 ms
	fmt.Println("after 10 ticks:", pushes(), "push")
	sim.Input.Tap(sim.At(150*time.Millisecond), input.KeySpace, 5*time.Millisecond)
	sim.Input.Tap(sim.At(160*time.Millisecond), input.KeySpace, 5*time.Millisecond)
	_ = sim.Step(10)
	fmt.Println("after 20 ticks:", pushes(), "pushes")
	fmt.Println(sim.Close(), sim.Ticks())
	// Output:
	// after 10 ticks: 1 push
	// after 20 ticks: 3 pushes
	// <nil> 20
}
