package framework_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
)

type fuel struct{ Left int }

// burnerGame burns one unit of fuel a tick and refuels at 90.
func burnerGame() framework.Game {
	return framework.Game{Title: "burner", Setup: func(s *framework.Setup) error {
		s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
			ecs.With(ctx.Commands.Spawn(), fuel{Left: 100})
		}})
		tanks := ecs.NewFilter1[fuel](s.App.World())
		s.App.AddSystem(ecs.Update, ecs.System{Name: "burn", Run: func(*ecs.Sys) {
			for q := tanks.Query(); q.Next(); {
				q.Get().Left--
			}
		}})
		s.App.AddSystem(ecs.PostUpdate, ecs.System{Name: "refuel", Run: func(*ecs.Sys) {
			for q := tanks.Query(); q.Next(); {
				if f := q.Get(); f.Left == 90 {
					f.Left = 100
				}
			}
		}})
		return nil
	}}
}

// Questions to a recording: when does the tank first get low, and which
// systems change it.
func ExampleFirstWhere() {
	dir, _ := os.MkdirTemp("", "burner")
	defer os.RemoveAll(dir)
	rec := filepath.Join(dir, "burner.rec")
	sim, _ := frameworktest.New(burnerGame(), frameworktest.Options{Record: rec, Sets: []string{"timing.mode=fixed"}})
	_ = sim.RunTicks(12)
	_ = sim.Close()

	where, err := framework.FirstWhere(burnerGame(), rec, "fuel.Left <= 91", 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(where)

	who, err := framework.WhoWrote(burnerGame(), rec, 1, 0, "fuel.Left", 8, 11)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(who)
	// Output:
	// the condition holds first after tick 8 (replay with --replay-until 9 to stop there), for 1 entity
	//   entity(1.0): fuel.Left=91
	// replayed 11 ticks: fuel.Left of entity(1.0) changed 4 times
	//   tick 8, system "burn" (Update): 92 -> 91
	//   tick 9, system "burn" (Update): 91 -> 90
	//   tick 9, system "refuel" (PostUpdate): 90 -> 100
	//   tick 10, system "burn" (Update): 100 -> 99
}
