package frameworktest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
)

type tally struct{ Seen, Last int }

// leakyGame keeps a count in a variable of its own, outside the world,
// and writes it into a component from tick 10 on: a restore cannot bring
// the variable back, so sync-test catches the tick.
func leakyGame() framework.Game {
	return framework.Game{
		Title: "leaky",
		Setup: func(s *framework.Setup) error {
			tallies := ecs.NewFilter1[tally](s.App.World())
			outside := 0
			s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Context) {
				ecs.With(ctx.Commands.Spawn(), tally{})
			}})
			s.App.AddSystem(ecs.Update, ecs.System{Name: "count", Run: func(ctx *ecs.Context) {
				outside++
				for q := tallies.Query(); q.Next(); {
					c := q.Get()
					c.Seen++
					if ctx.Time.Number >= 10 {
						c.Last = outside
					}
				}
			}})
			return nil
		},
	}
}

func TestSyncTestOption(t *testing.T) {
	// Without sync-test the game runs; with it, it stops at tick 10.
	plain, err := frameworktest.New(leakyGame(), frameworktest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := plain.RunTicks(30); err != nil {
		t.Fatalf("without sync-test: %v", err)
	}
	if _, ok := plain.SyncTestStats(); ok {
		t.Error("SyncTestStats without a sync-test: ok")
	}

	sim, err := frameworktest.New(leakyGame(), frameworktest.Options{SyncTest: 2})
	if err != nil {
		t.Fatal(err)
	}
	err = sim.RunTicks(30)
	var se *ecs.SyncTestError
	if !errors.As(err, &se) {
		t.Fatalf("under sync-test: %v, want an ecs.SyncTestError", err)
	}
	if se.Divergence.Tick != 10 || len(se.Fields) != 1 || se.Fields[0].Field != "frameworktest_test.tally.Last" {
		t.Errorf("report: tick %d, fields %+v; want tick 10 and frameworktest_test.tally.Last", se.Divergence.Tick, se.Fields)
	}
	if !strings.Contains(err.Error(), "tick 10") {
		t.Errorf("message %q does not name tick 10", err)
	}

	if _, err := frameworktest.New(leakyGame(), frameworktest.Options{SyncTest: -1}); err == nil {
		t.Error("SyncTest -1: no error")
	}
}
