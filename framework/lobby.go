package framework

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/rollback"
)

// A Lobby is how a game's players meet through a lobby (cmd/lobby) by a
// room code or quick match instead of by address and token: list one in
// [Net].Lobby, such as lobbynet.NewNetplay(webrtc.Config{}) (package
// rollback/netplay/lobbynet). A game that lists none links no lobby
// client and refuses --lobby, as it refuses a transport it does not list.
type Lobby interface {
	// Meet meets the match m describes in the lobby at m.Net.Lobby: in
	// the room of code m.Net.Room, in a new room of m.Net.Players seats
	// (m.Net.Create) whose code it reports, or in quick match
	// (m.Net.Quick); a dedicated host (m.Role rollback.Dedicated) waits
	// for a full quick match and hosts it with no seat. It reports each
	// step as a line through status and returns this end's match once
	// every seat has joined. It fails saying why, in words a player
	// reads.
	Meet(ctx context.Context, m rollback.Meeting, status func(line string)) (rollback.Connected, error)
}

// LobbyFlags are the flags that meet a match through a lobby; each sets
// its [net] key (net.lobby, net.room, net.create, net.quick), and a way
// to meet given as a flag replaces the configuration's.
type LobbyFlags struct {
	// URL is the lobby to meet in (--lobby).
	URL string
	// Room is the code of a room to enter (--room).
	Room string
	// Create makes a room (--create).
	Create bool
	// Quick is a quick match of this many players (--quick N), which
	// sets net.players; 0 is off.
	Quick int
}

func (f *Flags) registerLobby(fs *flag.FlagSet) {
	fs.StringVar(&f.Lobby.URL, "lobby", "", "meet the other players in the lobby at this `URL` (ws://HOST:PORT, or wss://), with --room, --create or --quick; the game must list a lobby path (Game.Net.Lobby)")
	fs.StringVar(&f.Lobby.Room, "room", "", "with --lobby: enter the room of this `code`, such as KXR-4TQ, which another player's game printed")
	fs.BoolVar(&f.Lobby.Create, "create", false, "with --lobby: make a room of net.players seats and print its code for the other players")
	fs.IntVar(&f.Lobby.Quick, "quick", 0, "with --lobby: quick match with `N` players (net.players) of this game and configuration")
}

// asked reports whether any lobby flag is given.
func (l LobbyFlags) asked() bool { return l.URL != "" || l.way() }

// way reports whether a way to meet is given (one at most: the keys the
// flags set say so, rollback.MatchOptions).
func (l LobbyFlags) way() bool { return l.Room != "" || l.Create || l.Quick != 0 }

func (f *Flags) validateLobby() error {
	l := f.Lobby
	if !l.asked() {
		return nil
	}
	var errs []error
	if f.Host != "" || f.Join != "" || f.Spectate != "" {
		errs = append(errs, errors.New("framework: --lobby, --room, --create and --quick meet a match through a lobby: not with --host, --join or --spectate, which meet by address"))
	}
	if f.Replay != "" || f.SyncTest != 0 {
		errs = append(errs, errors.New("framework: --lobby plays a match: not with --replay or --synctest"))
	}
	return errors.Join(errs...)
}

// sets are the lobby flags as [net] keys, applied after the file: a way
// to meet given as a flag replaces the file's.
func (l LobbyFlags) sets() []string {
	var s []string
	if l.URL != "" {
		s = append(s, "net.lobby="+l.URL)
	}
	if l.way() {
		s = append(s, "net.room="+l.Room, "net.create="+strconv.FormatBool(l.Create), "net.quick="+strconv.FormatBool(l.Quick != 0))
	}
	if l.Quick != 0 {
		s = append(s, "net.players="+strconv.Itoa(l.Quick))
	}
	return s
}

// meetsInLobby reports whether this session meets its match through a
// lobby: net.lobby or a way to meet is set and no flag meets by address,
// which takes precedence over the configuration's lobby.
func meetsInLobby(f *Flags, cfg config.Config) bool {
	n := cfg.Net
	return (n.Lobby != "" || n.Room != "" || n.Create || n.Quick) && f.Host == "" && f.Join == "" && f.Spectate == ""
}

// checkMeeting refuses, before anything is dialled, a match g cannot
// meet as the [net] table n says: a game that declares no players, and
// through a lobby (lobby) one that lists no lobby path or a lobby
// meeting that is not one way to meet, for the game's number of players.
// A dedicated host waits for quick matches only.
func checkMeeting(g Game, n rollback.MatchOptions, lobby, dedicated bool) error {
	way := n.Room != "" || n.Create || n.Quick // one at most: rollback.MatchOptions refuses two
	what := "--lobby " + n.Lobby
	if dedicated {
		what = "--dedicated " + what
	}
	switch {
	case g.Net == nil && lobby:
		return errors.New("framework: --lobby (net.lobby) needs a game that declares its players (Game.Net)")
	case g.Net == nil:
		return errors.New("framework: --host, --join and --spectate need a game that declares its players (Game.Net)")
	case !lobby:
		return nil
	case g.Net.Lobby == nil:
		return errors.New("framework: --lobby (net.lobby): this game links no lobby path; list one in Game.Net.Lobby, such as lobbynet.NewNetplay(webrtc.Config{}) (package rollback/netplay/lobbynet)")
	case n.Lobby == "":
		return errors.New("framework: --room, --create and --quick (net.room, net.create, net.quick) meet through a lobby: give its URL with --lobby ws://HOST:PORT (net.lobby)")
	case dedicated && (n.Room != "" || n.Create):
		return fmt.Errorf("framework: %s waits for full quick matches: not with a room to enter or make (net.room, net.create)", what)
	case !dedicated && !way:
		return fmt.Errorf("framework: %s: give one way to meet: --room CODE, --create or --quick N (net.room, net.create, net.quick)", what)
	case n.Players != g.Net.Players && dedicated:
		return fmt.Errorf("framework: %s: quick matches of %d players (net.players, or --quick N); this game has %d (Game.Net.Players)", what, n.Players, g.Net.Players)
	case n.Players != g.Net.Players:
		return fmt.Errorf("framework: %s: a match of %d players (net.players, or --quick N); this game has %d (Game.Net.Players)", what, n.Players, g.Net.Players)
	}
	return nil
}
