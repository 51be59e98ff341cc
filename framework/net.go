package framework

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// Net declares that a game is played by several players, and which of its
// actions make one player's input. Its systems read every player's input
// from the [rollback.Players] resource the same way in every mode:
// Input(p)[i] is the state of the i-th action of player p's seat.
//
// Without a [Match] (no network) all players sit at this machine: player p
// reads Seats[p] from the devices, so two players share one keyboard; no
// tick is predicted or run again. In a match each machine's own player
// reads Seats[0], the others' inputs arrive over the match's transport,
// and a rollback session predicts and corrects them.
type Net struct {
	// Players is the number of players, 1 to 16.
	Players int
	// Seats lists, per player on one machine, the actions that make that
	// player's input, in the order the systems index them. Every seat has
	// the same number of actions (1 to 64); there is one seat per player.
	// Setup registers the actions, so it fills Seats (Game.Net is a
	// pointer for that); they are checked after it.
	Seats [][]input.Action
	// Networks are the transports this game offers a match: net.transport
	// names one of them. A game that lists none links no transport and
	// refuses --host, --join and --spectate, naming what to list. The
	// game links only those it lists, so QUIC's quic-go and TLS are in the
	// binary only when it lists quicnet.Network() (package
	// rollback/netplay/quicnet); a game without Net links no transport of
	// its own. The first network that carries a netplay.Driver (UDP's and
	// QUIC's do) plays the game's matches and replays their recordings;
	// a game that lists none links no rollback session, no socket and no
	// cryptography, and refuses a match recording's --replay too. A
	// rollback.Network is a name; the networks that open sockets are
	// package rollback/netplay's (netplay.Network).
	Networks []rollback.Network
	// Lobby is how this game's players meet through a lobby by room
	// code or quick match (--lobby; see [Lobby]); nil links no lobby
	// client, and --lobby is refused.
	Lobby Lobby
}

// validate checks n against the actions registered: its ranges are
// rollback's (rollback.CheckSeats, from rollback.Options' one statement),
// named as Game.Net's fields.
func (n *Net) validate(actions *input.Actions) error {
	errs := []error{rollback.CheckSeats("framework", "Game.Net", n.Players, n.Seats)}
	for i, s := range n.Seats {
		for j, a := range s {
			if a == input.NoAction || (actions != nil && int(a) > actions.Len()) {
				errs = append(errs, fmt.Errorf("framework: Game.Net.Seats[%d][%d] is action %d, which Setup never registered", i, j, a))
			}
		}
	}
	return errors.Join(errs...)
}

// Match is this machine's side of a networked match: the transport its
// messages travel through, its peer number and the peer each player plays
// at. The match's input delay, prediction window and hash interval are
// the configuration's [net] table (config.Config.Net), which every peer
// must share. The match layer that connects the peers (a host and those who join)
// makes one; tests make one over a simulated network
// (rollbacktest.NewTransports).
type Match struct {
	Transport rollback.Transport
	// Self is this machine's peer number.
	Self int
	// Peers[p] is the peer player p plays at; one per player of the
	// game's [Net]. The players at Self read the seats in order.
	Peers []int
	// Seatless lists the peers of the match that play no player, such as
	// a dedicated host (--dedicated), which relays the match and compares
	// its hashes: this machine sends them its messages too and accepts
	// theirs (rollback.Session.AddPeer). A machine whose Self plays no
	// player is itself seat-less: it runs the simulation only, with no
	// window, sound or input (see [RunOptions.Match]).
	Seatless []int
	// Spectator makes this machine a spectator of the match (Self is
	// then no player's peer, and Peers are the players' peers as on
	// every machine): it follows the confirmed inputs the host streams
	// instead of playing (--spectate).
	Spectator bool
	// Rejoining makes this machine take back its player's slot in a
	// match under way, as a new run of a player whose process ended
	// (netplay.Match.Rejoining): it first follows the host's confirmed
	// inputs from tick 0, as a spectator does, and plays on from the
	// tick it caught up on (rollback.NewSessionAfter).
	Rejoining bool
	// JoinedLate says this machine's player joins the match under way
	// for the first time (netplay.Match.Late): it catches up as a
	// rejoining player does, and is told it is joining, not rejoining.
	JoinedLate bool
	// driver is the network's driver that connected the match
	// (connectMatch); nil for a transport made elsewhere, which the
	// game's listed networks drive (Net.driver).
	driver matchDriver
	// Late lists, at the host, the peers whose players had not joined
	// when the match started (net.start_with): the host plays them with
	// neutral input, on every peer, until each joins, catching up first
	// as a rejoining player does.
	Late []int
	// Bot, if not zero, plays this machine's players with input drawn
	// from this seed instead of the devices (--bot SEED), for soak runs
	// and tests of two processes against each other.
	Bot uint64
}

// seatless reports whether m gives this machine no player: a dedicated
// host's side of a match.
func (m *Match) seatless() bool {
	if m.Spectator {
		return false // it shows the match in a window unless told not to
	}
	for _, peer := range m.Peers {
		if peer == m.Self {
			return false
		}
	}
	return true
}

// NetStats are a networked session's figures for an overlay or a
// report: the match's own ([rollback.PeerStats]).
type NetStats = rollback.PeerStats

// UseMatch makes the session play m instead of a local game: it needs a
// game with [Game.Net] and fixed timing (timing.mode = "fixed"), and it
// turns on the scheduler's repay-debt policy with rollback declared, so
// that resimulation, held ticks and frame advantage are repaid by pacing.
// Call it before the session runs; the transport is the session's to
// close once it ends.
func (s *Session) UseMatch(m *Match) error {
	if s.game.Net == nil {
		return errors.New("framework: a networked match needs a game that declares its players (Game.Net)")
	}
	if m.Transport == nil {
		return errors.New("framework: Match.Transport is nil")
	}
	if len(m.Peers) != s.game.Net.Players {
		return fmt.Errorf("framework: Match.Peers has %d peers for the game's %d players: want one per player", len(m.Peers), s.game.Net.Players)
	}
	if s.cfg.Timing.Mode != timing.FixedMode {
		return fmt.Errorf("framework: %s: a networked match needs timing.mode = \"fixed\" (rollback runs identical fixed steps), not %q", s.source, s.cfg.Timing.Mode)
	}
	if s.syncDepth != 0 {
		return errors.New("framework: --synctest and a networked match: a sync-test runs one machine alone")
	}
	d := m.driver
	if d == nil {
		var err error
		if d, err = s.game.Net.driver(); err != nil {
			return fmt.Errorf("framework: a networked match: %w", err)
		}
	}
	s.match, s.driver = m, d
	return nil
}

// matchDriver is all framework asks of networked play: meeting a match
// by address, naming the game's simulation code for the match's
// identity, building this machine's side of a match, replaying a
// match's recording (netplay.Driver). It speaks in rollback's words, and
// framework reaches it only through the networks the game lists
// (Net.driver), never by name, so a game that lists none links no
// socket, no cryptography, no rollback session and no log/slog.
type matchDriver interface {
	Connect(ctx context.Context, m rollback.Meeting, out io.Writer) (rollback.Connected, error)
	Version(source fs.FS) (version string, warnings []string, err error)
	Play(app *ecs.App, o rollback.PlayOptions) (rollback.Play, error)
	Replay(r *recording.Reader, players, actions int) (rollback.Replay, error)
}

// driver returns the driver of the first network n lists that carries
// one (netplay.UDPNetwork's and quicnet.Network's do), or an error
// naming what to list.
func (n *Net) driver() (matchDriver, error) {
	for _, nw := range n.Networks {
		if d, ok := nw.(matchDriver); ok {
			return d, nil
		}
	}
	if len(n.Networks) == 0 {
		return nil, errors.New("this game lists no network to play over (Game.Net.Networks is empty); allowed: one network or more, such as netplay.UDPNetwork() (package rollback/netplay) or quicnet.Network()")
	}
	return nil, errors.New("no network Game.Net.Networks lists carries a match driver (netplay.Driver); allowed: list netplay.UDPNetwork() (package rollback/netplay) or quicnet.Network() with it")
}

// MatchTiming returns o as the session's match runs it ([Session.UseMatch]
// first): [rollback.PeerTiming] for a player (the host slows the whole
// match down past the debt cutoff, a joined player resynchronises), and
// [rollback.SpectatorTiming] for a spectator, which keeps o's policy
// (timing.debt.past_cutoff) since it plays no part in the match's time.
func (s *Session) MatchTiming(o timing.Options) timing.Options {
	switch m := s.match; {
	case m == nil || m.Spectator:
		return rollback.SpectatorTiming(o)
	default:
		return rollback.PeerTiming(o, m.Self == 0)
	}
}

// NetStats returns the networked session's figures, and false when the
// session plays no match. Simulation owner (a system), or after the
// session.
func (s *Session) NetStats() (NetStats, bool) {
	if m := s.played(); m != nil {
		return m.Stats(), true
	}
	return NetStats{}, false
}

// played is the match the session plays (its rollback.Side) or replays
// (the rollback.Playback of its recording, which is the match with no
// network), nil for none.
func (s *Session) played() interface {
	Stats() rollback.PeerStats
	ConfirmedHash() (tick int64, hash uint64, ok bool)
	HashAt(tick int64) (uint64, bool)
} {
	switch {
	case s.replayNet != nil:
		return s.replayNet
	case s.play != nil:
		return s.play
	}
	return nil
}

// NetStats returns the match's figures for the game's own display (see
// [Session.NetStats]), and false when the session plays no match. Call it
// from a system: it belongs to the simulation owner.
func (s *Setup) NetStats() (NetStats, bool) {
	if s.session == nil {
		return NetStats{}, false
	}
	return s.session.NetStats()
}

// ConfirmedHash returns the last confirmed tick of a networked session
// that the session hashed, with its world hash (see
// rollback.App.ConfirmedHash): the same on every peer of a match in sync.
// A replay of a match's recording gives its last checkpoint replayed, as
// the match's last line named it. Simulation owner, or after the session.
func (s *Session) ConfirmedHash() (tick int64, hash uint64, ok bool) {
	if m := s.played(); m != nil {
		return m.ConfirmedHash()
	}
	return 0, 0, false
}

// ConfirmedHashAt returns the world hash of the confirmed timeline at
// tick, when the networked session hashed it, it is confirmed and still
// held (rollback.App.HashAt). In a replay of a match's recording it is
// the recorded hash of tick's state once the replay has checked it (the
// last 64 checkpoints are held): the final world hash of a match is the
// one its confirmed line names. Simulation owner, or after the session.
func (s *Session) ConfirmedHashAt(tick int64) (uint64, bool) {
	if m := s.played(); m != nil {
		return m.HashAt(tick)
	}
	return 0, false
}

// ConfirmedLine is the line a headless networked run ends with, for a
// script to compare two processes: "confirmed tick 1199 hash
// 0123456789abcdef".
//
// Deprecated: use rollback.ConfirmedLine.
//
//go:fix inline
func ConfirmedLine(tick int64, hash uint64) string {
	return rollback.ConfirmedLine(tick, hash)
}

// startNet builds the local seats or the match after the game's Setup,
// once its actions and state types are registered.
func (s *Session) startNet() error {
	n := s.game.Net
	if n == nil {
		return nil
	}
	err := n.validate(s.actions)
	if err != nil {
		return err
	}
	if s.match == nil {
		s.seats = rollback.NewSeats(s.players, n.Seats, s.localBot)
		if s.replayFrom != nil {
			d, err := n.driver()
			if err == nil {
				s.replayNet, err = d.Replay(s.replayFrom, n.Players, len(n.Seats[0]))
			}
			if err != nil {
				return fmt.Errorf("framework: --replay %s: %w", s.replayPath, err)
			}
		}
		return nil
	}
	m := s.match
	s.play, err = s.driver.Play(s.App, rollback.PlayOptions{
		Connected: rollback.Connected{Transport: m.Transport, Self: m.Self, Rejoining: m.Rejoining, JoinedLate: m.JoinedLate,
			Seating: rollback.Seating{Peers: m.Peers, Seatless: m.Seatless, Late: m.Late}},
		Spectator: m.Spectator, Bot: m.Bot, Net: s.cfg.Net, Timing: s.cfg.Timing, Seats: n.Seats,
		Ticks: int64(s.stopAfter), Recorded: s.matchRec != nil, Clock: s.rt.Options().Clock,
	})
	switch {
	case err != nil && m.Spectator:
		return fmt.Errorf("framework: following the match: %w", err)
	case err != nil:
		return fmt.Errorf("framework: networked match: %w", err)
	}
	s.logEvents(s.play.Events())
	return s.startMatchRecording()
}

// readyToStart waits, just before the clock of a networked match starts
// (the window open, the renderer warm, the Startup systems run), until
// every peer is ready (rollback.Play.Ready). Simulation owner.
func (s *Session) readyToStart() error {
	if s.play == nil {
		return nil
	}
	if err := s.play.Ready(context.Background()); err != nil {
		return fmt.Errorf("framework: starting the networked match (net.join_timeout %v): %w", s.cfg.Net.JoinTimeout, err)
	}
	return nil
}

// updateNet runs one update: through the match of a networked session
// (rollback.Play.Update, rollback.Side's, which stops the session once the match
// finished, and fails it with its *rollback.OutcomeError when it ended
// otherwise: Main turns that into the outcome's exit status), else as
// any game's.
func (s *Session) updateNet(t *runtime.TickContext) error {
	if s.play != nil {
		err := s.play.Update(t)
		s.logEvents(s.play.Events())
		if err != nil {
			return err
		}
		return s.recordConfirmed(t)
	}
	if s.seats != nil {
		s.seats.Update(t) // the bot's seats (--bot)
	}
	return s.updateApp(t)
}

// logEvents writes a match's events on the session's message writer.
func (s *Session) logEvents(evs []rollback.Event) {
	for _, ev := range evs {
		fmt.Fprintf(s.messages(), "%s: %v\n", programName(), ev)
		showMatchLine(ev)
	}
}

// messages is where a match's connection messages go: RunOptions.Stderr,
// or the process's.
func (s *Session) messages() io.Writer {
	if s.stderr == nil {
		return os.Stderr
	}
	return s.stderr
}

// fillSeats is the system that gives a local game's players the input of
// their seats for the tick (rollback.Seats; a networked session's come
// from its match), or a match recording's in its replay.
func (s *Session) fillSeats(ctx *ecs.Sys) {
	switch {
	case s.replayNet != nil:
		s.replayNet.Fill(s.players)
	case s.seats != nil:
		s.seats.Fill(ctx.Input)
	}
}

// The network flags: --host and --join name the match to play
// (connectMatch, netplay.go).
func (f *Flags) registerNet(fs *flag.FlagSet) {
	fs.StringVar(&f.Host, "host", "", "host a networked match on this `address`, such as :7777 (needs a game with Game.Net)")
	fs.StringVar(&f.Join, "join", "", "join the networked match hosted at this `address`, such as 127.0.0.1:7777, with --token")
	fs.BoolVar(&f.Dedicated, "dedicated", false, "with --host: serve the match without a seat here (every player joins), with no window, GPU, X server or sound device")
	fs.BoolVar(&f.NoWindow, "no-window", false, "with --join or --host and --bot: play the match with no window, GPU, X server or sound device, the simulation only (load tests)")
	fs.StringVar(&f.Spectate, "spectate", "", "watch the networked match hosted at this `address` as a spectator, with --token: it catches up from the start and follows live")
	fs.StringVar(&f.Token, "token", "", "with --join or --spectate: the join `token` the host printed")
	f.registerLobby(fs)
	fs.Uint64Var(&f.Bot, "bot", 0, "this machine's players play seeded random input from this `seed` instead of the keyboard: in a match (--host, --join) every player here, in local play every seat but the first (soak runs, tests of two processes; 0 = off)")
}

func (f *Flags) validateNet() error {
	var errs []error
	if f.Host != "" && f.Join != "" {
		errs = append(errs, errors.New("framework: --host and --join: a session hosts a match or joins one"))
	}
	if f.Join != "" && f.Token == "" {
		errs = append(errs, errors.New("framework: --join needs --token, the join token the host printed"))
	}
	if f.Spectate != "" {
		if f.Host != "" || f.Join != "" {
			errs = append(errs, errors.New("framework: --spectate and --host or --join: a session watches a match or plays in one"))
		}
		if f.Token == "" {
			errs = append(errs, errors.New("framework: --spectate needs --token, the join token the host printed"))
		}
		if f.Bot != 0 || f.Dedicated {
			errs = append(errs, errors.New("framework: --spectate with --bot or --dedicated: a spectator plays no player and hosts nothing"))
		}
		if f.Replay != "" || f.SyncTest != 0 {
			errs = append(errs, errors.New("framework: --spectate watches a match: not with --replay or --synctest"))
		}
	}
	if f.Bot != 0 && f.Replay != "" {
		errs = append(errs, errors.New("framework: --bot and --replay: a replay's input is the recording's"))
	}
	if f.Dedicated && f.Host == "" && f.Lobby.URL == "" {
		errs = append(errs, errors.New("framework: --dedicated goes with --host ADDR or --lobby URL: a dedicated host serves a match it plays no seat in"))
	}
	if f.Dedicated && f.Bot != 0 {
		errs = append(errs, errors.New("framework: --dedicated and --bot: a dedicated host has no player for the bot to play"))
	}
	errs = append(errs, f.validateLobby())
	if f.NoWindow && f.Spectate == "" && (f.Bot == 0 || (f.Host == "" && f.Join == "" && f.Lobby.URL == "")) {
		errs = append(errs, errors.New("framework: --no-window plays a match whose players here are bots: use it with --host or --join and --bot SEED (a dedicated host, --dedicated, has none and needs no window anyway)"))
	}
	if f.Token != "" && f.Join == "" && f.Spectate == "" {
		errs = append(errs, errors.New("framework: --token goes with --join ADDR or --spectate ADDR"))
	}
	if (f.Host != "" || f.Join != "") && (f.Replay != "" || f.SyncTest != 0) {
		errs = append(errs, errors.New("framework: --host and --join play a match: not with --replay or --synctest"))
	}
	return errors.Join(errs...)
}
