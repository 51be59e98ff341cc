package rollback

import (
	"context"
	"errors"
	"fmt"

	"strconv"
	"strings"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// This file holds the words a program and the package that connects its
// matches (rollback/netplay's driver, a lobby path) speak in: how to meet
// a match, what was met, and this machine's side of it. They live here,
// with no socket or cryptography behind them, so that a program naming
// them (package framework) links no network until it lists one.

// A Network is a transport a program offers its matches, by name: a
// framework game lists its networks in framework.Net.Networks, and
// net.transport ([MatchOptions].Transport) names one. The networks that
// open sockets are package rollback/netplay's (netplay.Network, such as
// netplay.UDPNetwork()) and those of its subpackages.
type Network interface {
	// Name is the transport's name as a join token and a configuration
	// spell it ("udp", "quic").
	Name() string
}

// CheckNetworks checks the networks a program lists and the transport it
// asks for, the one statement of their rules: none nil, each under a
// transport's name ([TransportKind]'s spelling) and listed once, and the
// transport, unless empty or no network is listed, the name of one of
// them. Each problem is an *option.Error of package pkg ("" for a
// caller that prefixes its own) naming list[i] or field, the program's
// own names for the two options.
func CheckNetworks(pkg, list, field string, transport TransportKind, networks []Network) error {
	var errs []error
	names := map[string]bool{}
	var linked []string
	for i, n := range networks {
		at := fmt.Sprintf("%s[%d]", list, i)
		switch {
		case n == nil:
			errs = append(errs, &option.Error{Pkg: pkg, Field: at, Problem: "is nil", Allowed: "a network, such as netplay.UDPNetwork()"})
		case !TransportKind(n.Name()).valid():
			errs = append(errs, &option.Error{Pkg: pkg, Field: at, Value: n.Name(), Problem: "is not a network's name", Allowed: "1 to 16 of a-z, 0-9 and '-'"})
		case names[n.Name()]:
			errs = append(errs, &option.Error{Pkg: pkg, Field: at, Value: n.Name(), Problem: "is listed twice", Allowed: "each network once"})
		default:
			names[n.Name()] = true
			linked = append(linked, strconv.Quote(n.Name()))
		}
	}
	if transport != "" && len(networks) > 0 && !names[string(transport)] {
		allowed := strings.Join(linked, " or ")
		if n := len(linked); n > 2 {
			allowed = strings.Join(linked[:n-1], ", ") + " or " + linked[n-1]
		}
		errs = append(errs, &option.Error{Pkg: pkg, Field: field, Value: transport, Problem: "is not a transport this program links",
			Allowed: allowed + " (" + list + ")"})
	}
	return errors.Join(errs...)
}

// Role is the part a machine takes in a match it meets.
type Role uint8

const (
	// Hosting hosts the match and plays a seat in it: peer 0.
	Hosting Role = iota + 1
	// Dedicated hosts the match with no seat: it relays and checks the
	// match, every player joins, and the match holds one peer more than
	// players (player p plays at peer p+1).
	Dedicated
	// Joining joins a hosted match as a player.
	Joining
	// Spectating watches a hosted match.
	Spectating
)

func (r Role) String() string {
	switch r {
	case Hosting:
		return "host"
	case Dedicated:
		return "dedicated host"
	case Joining:
		return "joiner"
	case Spectating:
		return "spectator"
	}
	return fmt.Sprintf("Role(%d)", uint8(r))
}

// Identity names the game a match plays. A joiner whose Identity differs
// from the host's in any field is refused, with the field named on both
// sides: peers of different games, versions or configurations would
// desync at once.
type Identity struct {
	// Game and Version name the game and its version, each up to 64
	// bytes.
	Game, Version string
	// Config is a hash of the configuration that must agree between peers
	// (tick rate, players' delays, the game's own rules).
	Config uint64
	// Settings are the values Config hashes, each under its key
	// ("game.ship_speed" = "260"), so that a host refusing a joiner whose
	// Config differs can name what differs and both values. Optional: a
	// joiner sends as many as fit in 800 bytes (keys and values up to 64
	// bytes each; longer ones are cut), and the host compares those.
	Settings []Setting
}

// Setting is one configuration value peers must share: its key and its
// value as text.
type Setting struct {
	Key, Value string
}

// MaxIdentityName bounds Identity.Game and Identity.Version, in bytes.
const MaxIdentityName = 64

// Validate reports every field of id out of range at once, each as an
// *option.Error.
func (id Identity) Validate() error {
	var errs []error
	for _, f := range []struct{ field, v string }{{"Game", id.Game}, {"Version", id.Version}} {
		if len(f.v) > MaxIdentityName {
			errs = append(errs, &option.Error{Pkg: "rollback", Field: "Identity." + f.field, Value: len(f.v), Problem: "is too long", Allowed: fmt.Sprintf("up to %d bytes", MaxIdentityName)})
		}
	}
	return errors.Join(errs...)
}

// Meeting says how this machine meets a match: by address (a host
// listening on Addr, or a joiner or spectator reaching the host at Addr
// with its Token) or, with Addr empty, through the lobby Net.Lobby names
// (Net.Room, Net.Create, Net.Quick). What a framework game's flags and
// [net] table ask for, as the driver that connects and a lobby path
// read it.
type Meeting struct {
	// Role is this machine's part.
	Role Role
	// Addr is where a host listens (":7777"), or the host a joiner or
	// spectator reaches ("192.0.2.1:7777"); empty in a lobby.
	Addr string
	// Token is the join token the host printed; a joiner's and a
	// spectator's.
	Token string
	// Net is the match's configuration: its players, the transport's
	// name, the silence timeout, how many it starts with, how long to
	// wait for the others (JoinTimeout), ICE and the lobby keys.
	// Players counts the players: a dedicated host's match holds one peer
	// more.
	Net MatchOptions
	// Identity is what every peer must share.
	Identity Identity
	// Networks are the transports this program links, the first being
	// the one a host offers when Net.Transport names none.
	Networks []Network
}

// Seating says where a match's players sit, as this end sees it.
type Seating struct {
	// Peers is the peer each player plays at: player p at peer p, or at
	// p+1 behind a dedicated host, which plays no seat.
	Peers []int
	// Seatless lists, at a player of a dedicated host's match, the peers
	// with no player (the host, 0); nil otherwise.
	Seatless []int
	// Late lists, at the host, the peers whose players had not joined
	// when the match started (MatchOptions.StartWith); they join during
	// it.
	Late []int
}

// Connected is a match this machine met, as a program seats it.
type Connected struct {
	// Transport carries the match's messages.
	Transport Transport
	// Self is this machine's peer number.
	Self int
	// Seating says where the players sit.
	Seating
	// Rejoining says this machine takes back its player's slot in a
	// match under way; JoinedLate, that its player joins one for the
	// first time (PeerOptions.Rejoining, PeerOptions.JoinedLate).
	Rejoining, JoinedLate bool
}

// PlayOptions is this machine's side of a match as a program's driver
// builds its [Play].
type PlayOptions struct {
	// Connected is the match: its transport, this machine's peer and the
	// seating.
	Connected
	// Spectator makes this machine follow the match instead of playing.
	Spectator bool
	// Bot plays this machine's players with input from this seed (0: off).
	Bot uint64
	// Net is the match's configuration, which every peer shares.
	Net MatchOptions
	// Timing is the session's: its step and its debt cutoff.
	Timing timing.Options
	// Seats are the game's actions per seat ([NewPlayerSide]).
	Seats [][]input.Action
	// Ticks is where the match stops (0: it does not).
	Ticks int64
	// Recorded keeps what a recording of the match needs ([Play].Record).
	Recorded bool
	// Clock is the session's clock; nil is the system's.
	Clock timing.Clock
}

// A Play is this machine's side of a match as its program drives it: a
// player's or a spectator's [Side], with its recording and its end
// lines. Simulation owner.
type Play interface {
	// Update runs one tick of the match ([Side.Update]).
	Update(t *runtime.TickContext) error
	// Events returns what happened to the peers since the last call.
	Events() []Event
	// Ready waits until every peer is ready to start.
	Ready(ctx context.Context) error
	// Stats are the match's figures.
	Stats() PeerStats
	// ConfirmedHash and HashAt are the confirmed timeline's hashes.
	ConfirmedHash() (tick int64, hash uint64, ok bool)
	HashAt(tick int64) (uint64, bool)
	// RecordingHeader adds the match to h; Record starts writing the
	// match's confirmed timeline to w, and RecordTick writes what a tick
	// settled.
	RecordingHeader(h recording.Header) recording.Header
	Record(w *recording.Writer)
	RecordTick(t *runtime.TickContext) error
	// FinalLine is a headless match's last line: the outcome in words
	// when it ended other than finished, else the confirmed line
	// ([ConfirmedLine]); false when there is none.
	FinalLine() (string, bool)
	// NetLine is the "net:" line of the match's traffic per real second.
	NetLine() string
	// Pacing is what the match kept of its pacing; nil for a spectator.
	Pacing() *Pacing
}

// A Replay is the replay of a match's recording (a [Playback]): the
// match with no network. Simulation owner.
type Replay interface {
	// Fill gives the players the tick's recorded inputs.
	Fill(players *Players)
	// Checked keeps a checkpoint the replay has checked.
	Checked(c *recording.Checkpoint)
	Stats() PeerStats
	ConfirmedHash() (tick int64, hash uint64, ok bool)
	HashAt(tick int64) (uint64, bool)
}
