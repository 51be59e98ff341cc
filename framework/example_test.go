package framework_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
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
			s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
				b := ctx.Commands.Spawn()
				ecs.With(b, ecs.At(0, 0))
				ecs.With(b, ecs.Sprite{Size: geom.Vec2{X: 8, Y: 8}})
				ecs.With(b, velocity{X: 30})
			}})
			s.App.AddSystem(ecs.Update, ecs.System{Name: "move", Run: func(ctx *ecs.Sys) {
				dt := float32(ctx.RunDeltaSeconds())
				extra := float32(ctx.Input.SimulationSeconds(boost, ctx.RunDelta()))
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

// A "save first?" prompt. While there are unsaved changes, the window's
// close button opens a question instead of ending the game: the shutdown
// policy, installed in Setup before the loop starts, defers the request,
// and a system answers it from the player's keys. Once saved, a close ends
// the game at once. A stop (a system's RequestStop, GameRuntime.Stop, a
// failure) never asks.
func ExampleSetup_shutdownPolicy() {
	game := framework.Game{
		Title: "editor",
		Setup: func(s *framework.Setup) error {
			save, err := s.Actions.RegisterNames("save", "S")
			if err != nil {
				return err
			}
			quit, err := s.Actions.RegisterNames("quit_anyway", "Y")
			if err != nil {
				return err
			}
			stay, err := s.Actions.RegisterNames("stay", "N")
			if err != nil {
				return err
			}
			unsaved := true // the policy and the systems run on the simulation owner: no lock
			shutdown := s.Runtime.Shutdown()
			err = shutdown.SetPolicy(func(req runtime.ShutdownRequest) runtime.ShutdownDecision {
				if !unsaved {
					return runtime.ShutdownAccept
				}
				fmt.Printf("%s: save first? (Y quits anyway, N stays)\n", req.Reason)
				return runtime.ShutdownDefer
			})
			if err != nil {
				return err
			}
			s.App.AddSystem(ecs.Update, ecs.System{Name: "prompt", Run: func(ctx *ecs.Sys) {
				if ctx.Input.Pressed(save) {
					unsaved = false
					fmt.Println("saved")
				}
				if _, asking := shutdown.Deferred(); !asking {
					return
				}
				switch {
				case ctx.Input.Pressed(quit):
					_ = shutdown.Accept()
				case ctx.Input.Pressed(stay):
					_ = shutdown.Refuse()
					fmt.Println("staying")
				}
			}})
			return nil
		},
	}

	sim, err := frameworktest.New(game, frameworktest.Options{Sets: []string{"timing.mode=fixed", "timing.rate=60"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	sim.Display.RequestClose(sim.At(100 * time.Millisecond))
	sim.Input.Tap(sim.At(200*time.Millisecond), input.KeyN, 20*time.Millisecond)
	sim.Input.Tap(sim.At(300*time.Millisecond), input.KeyS, 20*time.Millisecond)
	sim.Display.RequestClose(sim.At(400 * time.Millisecond))
	err = sim.Step(600) // ten seconds, unless a close ends the game first
	fmt.Printf("ended: %v, after %d ticks\n", errors.Is(err, frameworktest.ErrEnded), sim.Ticks())
	// Output:
	// window close: save first? (Y quits anyway, N stays)
	// staying
	// saved
	// ended: true, after 23 ticks
}
