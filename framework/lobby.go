package framework

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/rollback/netplay"
)

// A Lobby is how a game's players meet through a lobby (cmd/lobby) by a
// room code or quick match instead of by address and token: list one in
// [Net].Lobby, such as lobbynet.NewNetplay(webrtc.Config{}) (package
// rollback/netplay/lobbynet). A game that lists none links no lobby
// client and refuses --lobby, as it refuses a transport it does not list.
type Lobby interface {
	// Meet takes a seat in the lobby at url: in the room of code room;
	// with room "" and quick 0, in a new room of opts.Players seats whose
	// code it reports; or in quick match for a room of quick players. It
	// reports each step as a line through status and returns this end's
	// match once every seat has joined. It fails saying why, in words a
	// player reads.
	Meet(ctx context.Context, url, room string, quick int, opts netplay.Options, id netplay.Identity, status func(line string)) (*netplay.Match, error)
	// Serve waits in the lobby at url as a dedicated host for a quick
	// match of players (--dedicated --lobby URL) and hosts the room the
	// lobby hands it, with no seat: opts.Players becomes players+1.
	Serve(ctx context.Context, url string, players int, opts netplay.Options, id netplay.Identity, status func(line string)) (*netplay.Match, error)
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
func (l LobbyFlags) asked() bool { return l.URL != "" || l.ways() > 0 }

// ways counts the ways to meet given.
func (l LobbyFlags) ways() int {
	n := 0
	for _, b := range []bool{l.Room != "", l.Create, l.Quick != 0} {
		if b {
			n++
		}
	}
	return n
}

func (f *Flags) validateLobby() error {
	l := f.Lobby
	if !l.asked() {
		return nil
	}
	var errs []error
	if f.Host != "" || f.Join != "" || f.Spectate != "" {
		errs = append(errs, errors.New("framework: --lobby, --room, --create and --quick meet a match through a lobby: not with --host, --join or --spectate, which meet by address"))
	}
	if l.ways() > 1 {
		errs = append(errs, errors.New("framework: --room, --create and --quick: give one way to meet (enter a room by its code, make one, or quick match)"))
	}
	if l.URL != "" && !strings.HasPrefix(l.URL, "ws://") && !strings.HasPrefix(l.URL, "wss://") {
		errs = append(errs, fmt.Errorf("framework: --lobby %s: want the lobby's ws://HOST:PORT or wss://HOST:PORT URL", strconv.Quote(l.URL)))
	}
	if l.Quick != 0 && (l.Quick < 2 || l.Quick > 16) {
		errs = append(errs, fmt.Errorf("framework: --quick %d: a match has 2 to 16 players (net.players; the game's own number)", l.Quick))
	}
	if f.Dedicated && (l.Room != "" || l.Create) {
		errs = append(errs, errors.New("framework: --dedicated --lobby URL waits for full quick matches: not with --room or --create"))
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
	if l.ways() > 0 {
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

// meetInLobby meets this machine's side of a match through the game's
// lobby path as the [net] keys say (the lobby flags set them), printing
// each step the player should see (the room code, waiting, found,
// connecting, direct or relayed and the round trip) on stdout.
func meetInLobby(f *Flags, g Game, cfg config.Config, stdout, stderr io.Writer) (*Match, error) {
	n := cfg.Net
	if g.Net == nil {
		return nil, errors.New("framework: --lobby (net.lobby) needs a game that declares its players (Game.Net)")
	}
	if g.Net.Lobby == nil {
		return nil, errors.New("framework: --lobby (net.lobby): this game links no lobby path; list one in Game.Net.Lobby, such as lobbynet.NewNetplay(webrtc.Config{}) (package rollback/netplay/lobbynet)")
	}
	d, err := g.Net.driver()
	if err != nil {
		return nil, fmt.Errorf("framework: --lobby (net.lobby): %w", err)
	}
	ways := 0
	for _, b := range []bool{n.Room != "", n.Create, n.Quick} {
		if b {
			ways++
		}
	}
	if n.Lobby == "" {
		return nil, errors.New("framework: --room, --create and --quick (net.room, net.create, net.quick) meet through a lobby: give its URL with --lobby ws://HOST:PORT (net.lobby)")
	}
	if f.Dedicated {
		return serveInLobby(f, g, cfg, d, stdout, stderr)
	}
	if ways != 1 {
		return nil, fmt.Errorf("framework: --lobby %s: give one way to meet: --room CODE, --create or --quick N (net.room, net.create, net.quick)", n.Lobby)
	}
	if n.Players != g.Net.Players {
		return nil, fmt.Errorf("framework: --lobby %s: a match of %d players (net.players, or --quick N); this game has %d (Game.Net.Players)", n.Lobby, n.Players, g.Net.Players)
	}
	if n.Players > netplay.MaxPlayers {
		return nil, fmt.Errorf("framework: --lobby %s: net.players is %d; a match holds 2 to %d", n.Lobby, n.Players, netplay.MaxPlayers)
	}
	id, err := matchIdentity(g, cfg, stderr)
	if err != nil {
		return nil, err
	}
	quick := 0
	if n.Quick {
		quick = n.Players
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.JoinTimeout)
	defer cancel()
	opts := netplay.Options{Players: n.Players, Timeout: n.Timeout, Start: n.StartWith, ICE: n.ICE}
	m, err := g.Net.Lobby.Meet(ctx, n.Lobby, n.Room, quick, opts, id, func(line string) { fmt.Fprintln(stdout, line) })
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("framework: --lobby %s: within %v (net.join_timeout): %w", n.Lobby, n.JoinTimeout, err)
		}
		return nil, fmt.Errorf("framework: --lobby %s: %w", n.Lobby, err)
	}
	c := d.Seat(m, n.Players)
	fmt.Fprintf(stdout, "match started: %d players, this machine is peer %d\n", n.Players, c.Self)
	return &Match{Transport: c.Transport, Self: c.Self, Peers: c.Peers, Seatless: c.Seatless, Late: c.Late, Bot: f.Bot,
		Rejoining: c.Rejoining, JoinedLate: c.JoinedLate, driver: d}, nil
}

// serveInLobby is --dedicated --lobby URL: this machine waits in the
// lobby as a dedicated host for a quick match of net.players and serves
// the room it is handed with no seat, as --dedicated --host does.
func serveInLobby(f *Flags, g Game, cfg config.Config, d matchDriver, stdout, stderr io.Writer) (*Match, error) {
	n := cfg.Net
	if n.Room != "" || n.Create {
		return nil, fmt.Errorf("framework: --dedicated --lobby %s waits for full quick matches: not with a room to enter or make (net.room, net.create)", n.Lobby)
	}
	if n.Players != g.Net.Players {
		return nil, fmt.Errorf("framework: --dedicated --lobby %s: quick matches of %d players (net.players, or --quick N); this game has %d (Game.Net.Players)", n.Lobby, n.Players, g.Net.Players)
	}
	if n.Players+1 > netplay.MaxPlayers {
		return nil, fmt.Errorf("framework: --dedicated: a dedicated host serves up to %d players (a match holds %d peers, the host's included); net.players is %d",
			netplay.MaxPlayers-1, netplay.MaxPlayers, n.Players)
	}
	id, err := matchIdentity(g, cfg, stderr)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.JoinTimeout)
	defer cancel()
	opts := netplay.Options{Timeout: n.Timeout, Start: n.StartWith, ICE: n.ICE}
	m, err := g.Net.Lobby.Serve(ctx, n.Lobby, n.Players, opts, id, func(line string) { fmt.Fprintln(stdout, line) })
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("framework: --dedicated --lobby %s: within %v (net.join_timeout): %w", n.Lobby, n.JoinTimeout, err)
		}
		return nil, fmt.Errorf("framework: --dedicated --lobby %s: %w", n.Lobby, err)
	}
	c := d.Seat(m, n.Players)
	fmt.Fprintf(stdout, "match started: %d players, this machine is peer %d, a dedicated host\n", n.Players, c.Self)
	return &Match{Transport: c.Transport, Self: c.Self, Peers: c.Peers, Seatless: c.Seatless, Late: c.Late, driver: d}, nil
}
