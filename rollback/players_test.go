package rollback_test

import (
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// The Players resource a game takes before the session exists (a
// framework game's Setup, after the framework added it) is the one the
// session fills: its system sees the local player's input one delay later.
func TestPlayersTakenBeforeTheSession(t *testing.T) {
	a, err := ecs.NewApp(ecs.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	players := &rollback.Players{} // as the framework adds it before Setup
	ecs.AddResource(a.World(), players)
	if players.Len() != 0 || players.Predicted(0) {
		t.Fatalf("before a tick: Len %d; want no players", players.Len())
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
		t.Errorf("the system read %v (presses*10 + players), want %v", seen, want)
	}
}
