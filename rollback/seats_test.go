package rollback_test

import (
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// Local seats give each player its seat's actions from the tick's input,
// and with a bot every seat but the first the bot's input, which is the
// same for the same seed.
func TestSeatsFillPlayers(t *testing.T) {
	actions := input.NewActions()
	up, err := actions.Register("up", input.KeyW)
	if err != nil {
		t.Fatal(err)
	}
	down, err := actions.Register("down", input.KeyS)
	if err != nil {
		t.Fatal(err)
	}
	seats := [][]input.Action{{up, down}, {down, up}}
	var held input.Tick
	var st input.State
	st.Down.Add(input.KeyW)
	held.Fill(actions, 0, 0, st, nil)
	var players, botted, again rollback.Players
	s := rollback.NewSeats(&players, seats, 0)
	s.Fill(&held)
	if !players.Input(0)[0].Down || players.Input(0)[1].Down || players.Input(1)[0].Down || !players.Input(1)[1].Down {
		t.Errorf("players %v %v: want player 0's up and player 1's second action (up) down", players.Input(0), players.Input(1))
	}
	b, c := rollback.NewSeats(&botted, seats, 7), rollback.NewSeats(&again, seats, 7)
	tc := runtime.TickContext{Update: timing.Update{Delta: time.Second / 60}}
	pressed := 0
	for range 200 {
		b.Update(&tc)
		c.Update(&tc)
		b.Fill(&held)
		c.Fill(&held)
		if !botted.Input(0)[0].Down {
			t.Fatal("the bot played the first seat")
		}
		if botted.Input(1)[0] != again.Input(1)[0] || botted.Input(1)[1] != again.Input(1)[1] {
			t.Fatal("two bots of one seed played differently")
		}
		pressed += botted.Input(1)[0].Presses + botted.Input(1)[1].Presses
	}
	if pressed == 0 {
		t.Error("the bot pressed nothing in 200 ticks")
	}
}

// CheckSeats states Options' ranges in the caller's names, all at once,
// and wants one seat per player with as many actions in each.
func TestCheckSeats(t *testing.T) {
	err := rollback.CheckSeats("game", "Net", 17, [][]input.Action{make([]input.Action, 65), {1}})
	for _, want := range []string{
		"game: Net.Players 17 is out of range; allowed: 1 to 16 players",
		"game: Net.Seats has 2 seats for 17 players: want one per player",
		"game: Net.Seats[0] (its actions) 65 is out of range; allowed: 1 to 64",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckSeats: %v, want it to say %q", err, want)
		}
	}
	if err := rollback.CheckSeats("game", "Net", 2, [][]input.Action{{1, 2}, {1}}); err == nil || !strings.Contains(err.Error(), "Net.Seats[1] has 1 actions, Seats[0] 2") {
		t.Errorf("seats of 2 and 1 actions: %v", err)
	}
	if err := rollback.CheckSeats("game", "Net", 2, [][]input.Action{{1, 2}, {2, 1}}); err != nil {
		t.Errorf("two seats of two actions: %v", err)
	}
}
