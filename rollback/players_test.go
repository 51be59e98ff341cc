package rollback_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// A handle taken before any Players resource exists (a framework game's
// Setup) reads the players of the session that runs the App later: the
// handle's system sees the local player's input one delay later.
func TestPlayersOfBeforeTheSession(t *testing.T) {
	a, err := ecs.NewApp(ecs.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	players := rollback.PlayersOf(a.World()) // as in Setup: no resource yet
	if players.Len() != 0 || players.Predicted(0) || players.Input(0) != nil {
		t.Fatalf("a handle with no resource: Len %d, Input %v; want no players", players.Len(), players.Input(0))
	}
	var seen []int32
	a.AddSystem(ecs.Update, ecs.System{Name: "read", Run: func(ctx *ecs.Sys) {
		seen = append(seen, int32(players.Input(0)[0].Presses)*10+int32(players.Len()))
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	sim, err := rollback.NewApp(a, 4)
	if err != nil {
		t.Fatal(err)
	}
	s, err := rollback.NewSession(sim, rollback.Options{Self: 0, Players: []rollback.Player{{Peer: 0, Delay: 1}}, Actions: 1, Window: 4, Clock: timing.NewManualClock(0)})
	if err != nil {
		t.Fatal(err)
	}
	ctx := &runtime.TickContext{Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: time.Second / 60, Final: true}}
	for i := range 3 {
		s.Local(0)[0] = input.Stats{Presses: i + 1}
		if _, err := sim.Update(s, ctx); err != nil {
			t.Fatal(err)
		}
	}
	// Delay 1: tick 0 has no input, tick k the input given at update k-1.
	if want := []int32{1, 11, 21}; !slices.Equal(seen, want) {
		t.Errorf("the handle read %v (presses*10 + players), want %v", seen, want)
	}
}

// A handle follows the resource the world holds when it is called, as
// the framework's local seats add one of their own after Setup.
func TestPlayersOfFollowsTheResource(t *testing.T) {
	a, err := ecs.NewApp(ecs.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	players := rollback.PlayersOf(a.World())
	var local rollback.Players
	ecs.AddResource(a.World(), &local)
	in := [][]input.Stats{{{Down: true}}, {{Presses: 2}}}
	local.SetLocal(in)
	if players.Len() != 2 || !players.Input(0)[0].Down || players.Input(1)[0].Presses != 2 || players.Predicted(1) {
		t.Errorf("the handle reads Len %d, %+v; want the local seats' two players", players.Len(), players.Input(0))
	}
	allocs := testing.AllocsPerRun(100, func() {
		if players.Len() != 2 || !players.Input(0)[0].Down {
			t.Fatal("the handle lost the resource")
		}
	})
	if allocs != 0 {
		t.Errorf("reading through the handle allocated %v times", allocs)
	}
	// A handle added as the resource itself has no players to go to.
	ecs.AddResource(a.World(), players)
	if players.Len() != 0 {
		t.Errorf("a handle that is its own resource: Len %d, want 0", players.Len())
	}
}

func TestPlayersOfSetLocalPanics(t *testing.T) {
	a, err := ecs.NewApp(ecs.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "PlayersOf") {
			t.Errorf("SetLocal on a handle: recovered %v, want a panic naming PlayersOf", r)
		}
	}()
	rollback.PlayersOf(a.World()).SetLocal(nil)
}

// A game takes the handle where it builds its systems, before the
// players' resource exists; here a local game's seats add it afterwards.
func ExamplePlayersOf() {
	app, err := ecs.NewApp(ecs.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	players := rollback.PlayersOf(app.World()) // a framework game's Setup
	fmt.Println("players at set-up:", players.Len())

	var seats rollback.Players // what the framework adds after Setup
	ecs.AddResource(app.World(), &seats)
	seats.SetLocal([][]input.Stats{{{Presses: 1}}, {{Down: true}}})
	fmt.Println("players in a tick:", players.Len(), players.Input(0)[0].Presses, players.Input(1)[0].Down)
	// Output:
	// players at set-up: 0
	// players in a tick: 2 1 true
}
