package rollback

import (
	"errors"
	"fmt"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/runtime"
)

// CheckSeats checks a game's players and their seats (the actions that
// make each player's input) against [Options]' ranges of players and
// actions, and against each other: one seat per player, as many actions
// in every seat. pkg and field say how the caller's users name them
// ("framework", "Game.Net"): the errors name field.Players and
// field.Seats[i], all at once.
func CheckSeats(pkg, field string, players int, seats [][]input.Action) error {
	var errs []error
	named := func(err error, name string) {
		var oe *option.Error
		if errors.As(err, &oe) {
			oe.Pkg, oe.Field = pkg, name
			errs = append(errs, oe)
		}
	}
	named(playersRange.check("", players), field+".Players")
	if len(seats) != players {
		errs = append(errs, fmt.Errorf("%s: %s.Seats has %d seats for %d players: want one per player", pkg, field, len(seats), players))
	}
	for i, s := range seats {
		if err := actionsRange.check("", len(s)); err != nil {
			named(err, fmt.Sprintf("%s.Seats[%d] (its actions)", field, i))
		} else if len(s) != len(seats[0]) {
			errs = append(errs, fmt.Errorf("%s: %s.Seats[%d] has %d actions, Seats[0] %d: want the same in every seat", pkg, field, i, len(s), len(seats[0])))
		}
	}
	return errors.Join(errs...)
}

// Seats is a game whose players all sit at this machine, with no match:
// player p's input is the state of seats[p]'s actions in each tick's
// input, or a [Bot]'s. It fills the [Players] resource a match fills, so
// a game's systems read every player the same way in every mode. Seats
// belong to the simulation goroutine.
type Seats struct {
	players *Players
	seats   [][]input.Action
	in      [][]input.Stats
	bot     *Bot // plays every seat but the first, or nil
	ticks   int64
}

// NewSeats returns the seats of players, one per player (checked with
// [CheckSeats]); bot, if not zero, seeds a [Bot] that plays every seat but
// the first.
func NewSeats(players *Players, seats [][]input.Action, bot uint64) *Seats {
	s := &Seats{players: players, seats: seats, in: make([][]input.Stats, len(seats))}
	for p := range s.in {
		s.in[p] = make([]input.Stats, len(seats[p]))
	}
	if bot != 0 && len(seats) > 1 {
		s.bot = NewBot(bot, len(seats)-1, len(seats[0]))
	}
	return s
}

// Update plays the bot's seats for the update t, before its tick runs. It
// allocates nothing.
func (s *Seats) Update(t *runtime.TickContext) {
	if s.bot == nil {
		return
	}
	for k, dst := range s.in[1:] {
		s.bot.Fill(k, s.ticks, t.Delta, dst)
	}
	s.ticks++
}

// Fill gives the players the tick's input in: each seat the bot does not
// play takes its actions' states from in. Call it at the start of every
// tick the game runs (a tick run again, as a sync-test does, reads its
// own input again). It allocates nothing.
func (s *Seats) Fill(in *input.Tick) {
	for p, seat := range s.seats {
		if s.bot != nil && p > 0 {
			continue
		}
		for i, a := range seat {
			s.in[p][i] = in.Action(a)
		}
	}
	s.players.SetLocal(s.in)
}
