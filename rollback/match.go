package rollback

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/metronome-go/metronome/option"
)

// MatchOptions are a networked match's settings, the same on every peer:
// the [net] table of a framework game's configuration. The zero value is
// not useful; DefaultMatchOptions returns the defaults.
type MatchOptions struct {
	// Players is the number of players of a match, 2 to 16.
	Players int
	// Delay is every player's input delay in ticks, 0 to 16 ([Player.Delay]).
	Delay int
	// Window is the prediction window, 0 to 64 ticks ([Options.Window]).
	// Zero is lockstep: no prediction and no rollback, every tick waits
	// for every player's input, so the round trip shows as input lag
	// (or as held ticks past the input delay). Choose it for a game whose
	// ticks are too costly to run again, or whose players are on a
	// fast local network; otherwise prediction hides the latency.
	Window int
	// HashEvery is the hash interval in confirmed ticks, 0 to 3600; 0
	// detects no desync ([Options.HashEvery]).
	HashEvery int `toml:"hash_every"`
	// Timeout is how long a peer may stay silent before it counts as
	// disconnected, 1s to 5m.
	Timeout time.Duration
	// JoinTimeout is how long a host waits for its players, a joining
	// peer for the host's answer, and a match for a disconnected peer to
	// come back (a player whose process ended rejoins), 1s to 1h.
	JoinTimeout time.Duration `toml:"join_timeout"`
	// Transport is the transport a match's messages travel over.
	Transport TransportKind
	// SpectatorDelay is how many confirmed ticks a host holds back from
	// its spectators, 0 to 600 ([Session.NewFeed]): a buffer that lets a
	// spectator follow at an even pace over a jittery link. Only the
	// host's counts; it is not part of what the peers must share.
	SpectatorDelay int `toml:"spectator_delay"`
	// StartWith is how many players a host starts the match with, its
	// own included (a dedicated host's: the players that joined), 1 to
	// Players; 0 waits for every player. The others join during the
	// match, each catching up first as a player who rejoins does; until
	// one does, the host plays its player with neutral input. Only the
	// host's counts.
	StartWith int `toml:"start_with"`
	// ICE is how this machine's end finds a path to the others over a
	// transport with ICE (WebRTC): its STUN and TURN servers and its
	// policy. Each machine's own; its keys are the table's own
	// (net.stun, net.ice_policy).
	ICE ICE `toml:",inline"`
	// Lobby is the URL of a lobby (cmd/lobby) to meet the other players
	// in instead of by address and token, "ws://HOST:PORT" or
	// "wss://..."; empty meets none. With it, exactly one of Room,
	// Create and Quick says how. Each player's own: not part of what
	// the peers must share.
	Lobby string
	// Room is the code of a room to enter, such as "KXR-4TQ".
	Room string
	// Create makes a room of Players seats, whose code the game prints
	// for the others.
	Create bool
	// Quick waits for a quick match: a room of Players seats with the
	// other players of the same game and configuration.
	Quick bool
}

// matchPlayers is a match's number of players: those of [Options], but
// a match has two at least.
var matchPlayers = span{2, playersRange.max, "2 to 16 players"}

// DefaultSpectatorDelay is MatchOptions.SpectatorDelay's default: 10
// ticks, a sixth of a second at 60 Hz.
const DefaultSpectatorDelay = 10

// TransportKind names the transport a match's messages travel over: a
// network of package rollback/netplay by its name ("udp", "quic", or one
// of another package). Which names a program can use is the program's
// choice (a framework game lists its networks in framework.Net); this
// type only checks the spelling.
type TransportKind string

const (
	// UDP is plain UDP datagrams, each with an HMAC keyed by the join
	// secret.
	UDP TransportKind = "udp"
	// QUIC is QUIC datagrams (RFC 9221), linked by a program that lists
	// package rollback/netplay/quicnet's network.
	QUIC TransportKind = "quic"
)

// String returns the name.
func (k TransportKind) String() string { return string(k) }

// MarshalText implements encoding.TextMarshaler.
func (k TransportKind) MarshalText() ([]byte, error) { return []byte(k), nil }

// UnmarshalText reads a transport's name: 1 to 16 of a-z, 0-9 and '-'.
func (k *TransportKind) UnmarshalText(b []byte) error {
	if !TransportKind(b).valid() {
		return fmt.Errorf("rollback: transport %q: want a network's name, 1 to 16 of a-z, 0-9 and '-', such as \"udp\" or \"quic\"", b)
	}
	*k = TransportKind(b)
	return nil
}

// valid reports whether k is spelled as a network's name.
func (k TransportKind) valid() bool {
	if len(k) == 0 || len(k) > 16 {
		return false
	}
	for _, r := range k {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}

// DefaultMatchOptions returns the defaults: 2 players, an input delay of 2
// ticks, a window of 8, a hash every 60 ticks, a 5 s disconnect timeout, a
// minute to join, over UDP, spectators 10 ticks behind.
func DefaultMatchOptions() MatchOptions {
	return MatchOptions{Players: 2, Delay: DefaultDelay, Window: DefaultWindow, HashEvery: DefaultHashEvery,
		Timeout: 5 * time.Second, JoinTimeout: time.Minute, Transport: UDP, SpectatorDelay: DefaultSpectatorDelay}
}

// Validate reports every invalid field at once, each as an *option.Error.
func (o MatchOptions) Validate() error {
	var errs []error
	bad := func(field string, v any, allowed string) {
		errs = append(errs, &option.Error{Pkg: "rollback", Field: "MatchOptions." + field, Value: v, Problem: "is out of range", Allowed: allowed})
	}
	for _, c := range []struct {
		r     span
		field string
		v     int
	}{{matchPlayers, "Players", o.Players}, {delayRange, "Delay", o.Delay}, {windowRange, "Window", o.Window},
		{hashEveryRange, "HashEvery", o.HashEvery}, {spectatorDelay, "SpectatorDelay", o.SpectatorDelay}} {
		if err := c.r.check("MatchOptions."+c.field, c.v); err != nil {
			errs = append(errs, err)
		}
	}
	if o.Timeout < time.Second || o.Timeout > 5*time.Minute {
		bad("Timeout", o.Timeout, "1s to 5m")
	}
	if o.JoinTimeout < time.Second || o.JoinTimeout > time.Hour {
		bad("JoinTimeout", o.JoinTimeout, "1s to 1h")
	}
	if o.StartWith < 0 || o.StartWith > o.Players {
		errs = append(errs, &option.Error{Pkg: "rollback", Field: "MatchOptions.StartWith", Value: o.StartWith, Problem: "is out of range",
			Allowed: "0 (every player) or 1 to MatchOptions.Players", Names: []string{"MatchOptions.Players"}, Relative: o.StartWith > 0})
	}
	if err := o.ICE.validate(o.Lobby != ""); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, o.checkLobby()...)
	if !o.Transport.valid() {
		errs = append(errs, &option.Error{Pkg: "rollback", Field: "MatchOptions.Transport", Value: o.Transport, Problem: "is not a transport's name", Allowed: `1 to 16 of a-z, 0-9 and '-', such as "udp" or "quic" (which ones a game links: framework.Net.Networks)`})
	}
	return errors.Join(errs...)
}

// checkLobby checks the lobby keys, the one statement of their rules
// (framework's --lobby, --room, --create and --quick set them): a
// ws:// or wss:// URL and a room code of bounded length, and one way to
// meet at most. Whether a lobby goes with a way to meet, and a way with
// a lobby, is the meeting's check (framework's connectMatch), since a
// configuration may name a lobby that a flag to meet by address
// overrides.
func (o MatchOptions) checkLobby() []error {
	var errs []error
	lobby := func(field string, v any, problem, allowed string) {
		errs = append(errs, &option.Error{Pkg: "rollback", Field: "MatchOptions." + field, Value: v, Problem: problem, Allowed: allowed})
	}
	if len(o.Lobby) > maxLobbyURL {
		lobby("Lobby", o.Lobby, "is too long", fmt.Sprintf("at most %d bytes", maxLobbyURL))
	} else if o.Lobby != "" && !strings.HasPrefix(o.Lobby, "ws://") && !strings.HasPrefix(o.Lobby, "wss://") {
		lobby("Lobby", o.Lobby, "is not a lobby's URL", "the lobby's ws://HOST:PORT or wss://HOST:PORT")
	}
	if len(o.Room) > maxRoomCode {
		lobby("Room", o.Room, "is too long", fmt.Sprintf("at most %d bytes, such as \"KXR-4TQ\"", maxRoomCode))
	}
	ways := []string{"MatchOptions.Room", "MatchOptions.Create", "MatchOptions.Quick"}
	var given []string
	for i, on := range []bool{o.Room != "", o.Create, o.Quick} {
		if on {
			given = append(given, ways[i])
		}
	}
	if len(given) > 1 {
		errs = append(errs, &option.Error{Pkg: "rollback", Field: given[1], Problem: "is given with " + given[0] + ": give one way to meet",
			Allowed: "one of " + ways[0] + ", " + ways[1] + " and " + ways[2], Names: ways, Relative: true})
	}
	return errs
}

// Bounds of the lobby keys: a URL as long as a TURN server's, and a room
// code with room to spare (codes are 7 characters).
const (
	maxLobbyURL = 256
	maxRoomCode = 16
)
