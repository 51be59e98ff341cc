package netplay

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/timing"
)

// Names of the transports a match can run over: UDP's network is
// [UDPNetwork], QUIC's is package rollback/netplay/quicnet's.
const (
	UDP  = "udp"
	QUIC = "quic"
)

// Defaults of the zero Options.
const (
	DefaultPlayers    = 2
	DefaultTimeout    = 5 * time.Second
	DefaultSpectators = 16
)

// MaxPlayers is the most players a match holds.
const MaxPlayers = 4

// MaxSpectators bounds Options.Spectators.
const MaxSpectators = 64

// Options configures a host or a joiner. Every zero field but Networks
// is its default; Networks names the transports, so a program links only
// those it plays over.
type Options struct {
	// Players is the number of players in the match, 2 to 4, the host's
	// included; zero is 2. Only the host's counts: a joiner learns it when
	// accepted, and its own is checked only for range.
	Players int
	// Transport is the name of the network a host listens on, one of
	// Networks'; zero is the first of Networks. A joiner's must be the
	// transport its token names.
	Transport string
	// Networks are the transports this program links: UDP
	// ([UDPNetwork]), QUIC (quicnet.Network), or a network of another
	// package; at least one. Only the listed are linked: a program that
	// lists UDP alone links no TLS and no QUIC, and one that never builds
	// an Options links no socket code at all.
	Networks []Network
	// Timeout is how long a peer may stay silent before it is
	// disconnected, 100ms to 10 minutes; zero is 5 seconds. It also
	// bounds how long Join waits for the host's first answer. Pings go
	// out ten times per Timeout (at most once every 10ms, at least once a
	// second), so a live peer is never silent that long.
	Timeout time.Duration
	// Slot is, for a joiner, the peer number it asks for: zero takes any
	// free slot; 1 to Players-1 takes that slot, or takes it back after
	// this joiner was dropped (a reconnection). A host ignores it.
	Slot int
	// Start is, for a host, how many peers the match starts with, its
	// own included, 1 to Players; zero is Players. The players who have
	// not joined by then may join during the match: each takes a free
	// slot as a dropped player takes its own back ([Match.Rejoining]),
	// catching up first. A joiner ignores it.
	Start int
	// Spectators is, for a host, how many spectators may watch at once,
	// 1 to 64; zero is 16. A spectator past it is refused, as a joiner of
	// a full match is. A joiner ignores it.
	Spectators int
	// Spectate makes a joiner a spectator: it takes no player's slot but
	// a peer number from Players up (see [Match.Spectator]), exchanges
	// messages with the host only, and may join at any time during the
	// match. Slot must be zero with it.
	Spectate bool
	// Clock is the time a match reads (pings, round trips, silence, the
	// start, how long Join waits) and waits on; nil is the real clock,
	// timing.SystemClock. A test passes a timing.ManualClock and moves it:
	// the match then notices silence, pings and gives up exactly when the
	// clock says, however long the machine takes to carry a packet.
	Clock timing.Clock
	// Log receives the host's refusals and each disconnect and
	// reconnection; nil logs nothing (they are counted in Stats either
	// way).
	Log *slog.Logger
	// ICE is this end's STUN and TURN servers and ICE policy (the [net]
	// table's keys), which the match hands its network in
	// ConduitOptions: a network that finds paths with ICE (WebRTC) uses
	// them, the others ignore them, so a program that links no such
	// network links nothing for them. The zero ICE uses no server.
	ICE rollback.ICE
}

// Validate reports every invalid field at once, each as an *option.Error.
func (o Options) Validate() error {
	var errs []error
	bad := func(field string, v any, allowed string) {
		errs = append(errs, &option.Error{Pkg: "netplay", Field: "Options." + field, Value: v, Problem: "is out of range", Allowed: allowed})
	}
	if o.Players != 0 && (o.Players < 2 || o.Players > MaxPlayers) {
		bad("Players", o.Players, fmt.Sprintf("2 to %d (0 is %d)", MaxPlayers, DefaultPlayers))
	}
	if len(o.Networks) == 0 {
		errs = append(errs, &option.Error{Pkg: "netplay", Field: "Options.Networks", Value: "none", Problem: "is empty", Allowed: "one network or more, such as netplay.UDPNetwork()"})
	}
	networks := make([]rollback.Network, len(o.Networks))
	for i, n := range o.Networks {
		networks[i] = n // a nil Network stays nil
	}
	errs = append(errs, rollback.CheckNetworks("netplay", "Options.Networks", "Options.Transport", rollback.TransportKind(o.Transport), networks))
	if o.Timeout != 0 && (o.Timeout < 100*time.Millisecond || o.Timeout > 10*time.Minute) {
		bad("Timeout", o.Timeout, "100ms to 10m (0 is 5s)")
	}
	if o.Slot < 0 || o.Slot > MaxPlayers-1 {
		bad("Slot", o.Slot, fmt.Sprintf("0 (any) to %d", MaxPlayers-1))
	}
	if players := cmp.Or(o.Players, DefaultPlayers); o.Start < 0 || o.Start > players {
		bad("Start", o.Start, fmt.Sprintf("1 to %d (Players); 0 is Players", players))
	}
	if o.Spectators < 0 || o.Spectators > MaxSpectators {
		bad("Spectators", o.Spectators, fmt.Sprintf("1 to %d (0 is %d)", MaxSpectators, DefaultSpectators))
	}
	if err := o.ICE.Validate(); err != nil {
		errs = append(errs, err)
	}
	if o.Spectate && o.Slot != 0 {
		errs = append(errs, &option.Error{Pkg: "netplay", Field: "Options.Slot", Value: o.Slot, Problem: "is set with Options.Spectate", Allowed: "0: a spectator takes no player's slot"})
	}
	return errors.Join(errs...)
}

// withDefaults returns o with its zero fields set to their defaults.
func (o Options) withDefaults() Options {
	if o.Players == 0 {
		o.Players = DefaultPlayers
	}
	if o.Transport == "" && len(o.Networks) > 0 {
		o.Transport = o.Networks[0].Name()
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Spectators == 0 {
		o.Spectators = DefaultSpectators
	}
	if o.Start == 0 {
		o.Start = o.Players
	}
	if o.Clock == nil {
		o.Clock = timing.SystemClock{}
	}
	return o
}

// network returns the network of Networks named name, nil if none.
func (o Options) network(name string) Network {
	for _, n := range o.Networks {
		if n != nil && n.Name() == name {
			return n
		}
	}
	return nil
}

// linked names the transports of Networks, quoted: `"udp" or "quic"`.
func (o Options) linked() string {
	if len(o.Networks) == 0 {
		return "none"
	}
	var b strings.Builder
	for i, n := range o.Networks {
		if n == nil {
			continue
		}
		if i > 0 {
			if i == len(o.Networks)-1 {
				b.WriteString(" or ")
			} else {
				b.WriteString(", ")
			}
		}
		fmt.Fprintf(&b, "%q", n.Name())
	}
	return b.String()
}

// conduit is what the match tells its network.
func (o Options) conduit() ConduitOptions {
	return ConduitOptions{Timeout: o.Timeout, PingEvery: o.pingEvery(), Clock: o.Clock, ICE: o.ICE}
}

// pingEvery is how often a peer is pinged: ten times per timeout, between
// 10ms and a second.
func (o Options) pingEvery() time.Duration {
	return min(max(o.Timeout/10, 10*time.Millisecond), time.Second)
}

// Identity names the game a match plays.
//
// Deprecated: use rollback.Identity, which moved there so that a program
// can name it without linking this package's sockets.
//
//go:fix inline
type Identity = rollback.Identity

const (
	maxName = rollback.MaxIdentityName
	// settingsBudget bounds the bytes of settings a join carries, so that
	// a join fits one datagram with room to spare.
	settingsBudget = 800
	maxSettings    = 128
)
