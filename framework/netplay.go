package framework

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
)

// networks returns the transports the game links: Net.Networks. A game
// that lists none links no transport, so a page or a one-machine game
// carries no socket code; --host, --join and --spectate then say what to
// list.
func (n *Net) networks() ([]netplay.Network, error) {
	if len(n.Networks) == 0 {
		return nil, errors.New("this game lists no network to play over (Game.Net.Networks is empty); allowed: one network or more, such as netplay.UDPNetwork() (package rollback/netplay) or quicnet.Network()")
	}
	return n.Networks, nil
}

// checkTransport refuses a net.transport the game does not link, naming
// those it does: a configuration asks for a transport, the game's own
// declaration decides which are in the binary. A game that lists no
// network plays on one machine; its net.transport is checked when a match
// is asked for (connectMatch).
func (n *Net) checkTransport(k rollback.TransportKind) error {
	if len(n.Networks) == 0 {
		return nil
	}
	var names []string
	for i, nw := range n.Networks {
		if nw == nil {
			return fmt.Errorf("Game.Net.Networks[%d] is nil; allowed: a network, such as netplay.UDPNetwork() or quicnet.Network()", i)
		}
		if nw.Name() == string(k) {
			return nil
		}
		names = append(names, strconv.Quote(nw.Name()))
	}
	hint := ""
	if k == rollback.QUIC {
		hint = "; to offer QUIC, list quicnet.Network() (package rollback/netplay/quicnet) there"
	}
	return fmt.Errorf("net.transport is %q, which this game does not link; it links %s (Game.Net.Networks)%s",
		k, strings.Join(names, ", "), hint)
}

// connectMatch turns --host, --join and --spectate into this machine's
// side of a match (netplay.Connect); nil without them. --host listens on
// f.Host, prints the address and the join command with its token to
// stdout and waits (up to net.join_timeout) for every player; --join
// joins the match at f.Join with f.Token. Both sides must play the same
// game, version and match-relevant configuration (see matchIdentity), or
// the join is refused with the reason on both sides.
//
// With --dedicated the host plays no seat: the match has one peer more
// than players, the host (peer 0), which relays and checks it, and every
// player joins (player p plays at peer p+1). A joiner knows a dedicated
// host by that peer count.
func connectMatch(f *Flags, g Game, cfg config.Config, stdout, stderr io.Writer) (*Match, error) {
	if meetsInLobby(f, cfg) {
		return meetInLobby(f, g, cfg, stdout, stderr) // framework/lobby.go
	}
	if f.Host == "" && f.Join == "" && f.Spectate == "" {
		return nil, nil
	}
	if g.Net == nil {
		return nil, errors.New("framework: --host, --join and --spectate need a game that declares its players (Game.Net)")
	}
	n := cfg.Net
	co := netplay.ConnectOptions{Role: netplay.Joining, Addr: f.Join, Token: f.Token, Patience: n.JoinTimeout,
		Options: netplay.Options{Players: n.Players, Transport: n.Transport.String(), Timeout: n.Timeout, Start: n.StartWith, ICE: n.ICE}}
	flag := "--join " + f.Join
	switch {
	case f.Host != "" && f.Dedicated:
		co.Role, co.Addr, flag = netplay.Dedicated, f.Host, "--host "+f.Host
	case f.Host != "":
		co.Role, co.Addr, flag = netplay.Hosting, f.Host, "--host "+f.Host
	case f.Spectate != "":
		co.Role, co.Addr, flag = netplay.Spectating, f.Spectate, "--spectate "+f.Spectate
	}
	var err error
	if co.Options.Networks, err = g.Net.networks(); err != nil {
		return nil, fmt.Errorf("framework: %s: %w", flag, err)
	}
	co.Notify = func(nt netplay.Notice) { printNotice(stdout, nt, n) }
	if co.Identity, err = matchIdentity(g, cfg, stderr); err != nil {
		return nil, err
	}
	m, err := netplay.Connect(context.Background(), co)
	var short *netplay.ShortError
	switch {
	case err == nil:
	case errors.As(err, &short) && errors.Is(err, context.DeadlineExceeded):
		return nil, fmt.Errorf("framework: %s: within %v (net.join_timeout), %w", flag, n.JoinTimeout, err)
	case errors.Is(err, netplay.ErrTransport):
		return nil, fmt.Errorf("framework: %s: net.transport is %q, the host's is another: %w", flag, co.Options.Transport, err)
	default:
		return nil, fmt.Errorf("framework: %s: %w", flag, err)
	}
	seats := m.Seating(n.Players)
	return &Match{Transport: m, Self: m.Self(), Peers: seats.Peers, Seatless: seats.Seatless, Late: seats.Late, Bot: f.Bot,
		Spectator: f.Spectate != "", Rejoining: m.Rejoining(), JoinedLate: m.Late(), netplay: m}, nil
}

// printNotice writes what netplay.Connect says on the way on w: the
// host's join command, and that the match started.
func printNotice(w io.Writer, nt netplay.Notice, n rollback.MatchOptions) {
	switch nt.Kind {
	case netplay.Listening:
		what := fmt.Sprintf("a %d-player match", n.Players)
		if n.StartWith > 0 && n.StartWith < n.Players {
			what += fmt.Sprintf(" (it starts with %d; the others join during it)", n.StartWith)
		}
		if nt.Role == netplay.Dedicated {
			what = fmt.Sprintf("a %d-player match as a dedicated host (no seat here: every player joins)", n.Players)
		}
		fmt.Fprintf(w, "hosting %s on %s over %s; join with:\n  --join %s --token %s\n", what, nt.Addr, nt.Transport, nt.JoinAddr, nt.Token)
	case netplay.Started:
		if nt.Role == netplay.Spectating {
			fmt.Fprintf(w, "watching: %d players, this machine is spectator peer %d\n", n.Players, nt.Self)
		} else {
			fmt.Fprintf(w, "match started: %d players, this machine is peer %d\n", n.Players, nt.Self)
		}
	}
}

// finalLine is what a headless match's last line says: the outcome in
// words when it ended other than finished, else the confirmed line of
// the finished match, or of the last confirmed tick hashed when the
// session was stopped before an end of its own.
func (s *Session) finalLine() (string, bool) {
	if s.side != nil {
		if o, ok := s.side.Outcome(); ok && o.Kind != rollback.Finished {
			return o.String(), true
		} else if ok {
			return ConfirmedLine(o.Tick, o.Hash), o.HasHash
		}
	}
	if tick, hash, ok := s.ConfirmedHash(); ok {
		return ConfirmedLine(tick, hash), true
	}
	return "", false
}
