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
// side of a match (netplay.Driver.Connect, through the driver of a
// network the game lists); nil without them. --host listens on f.Host,
// prints the address and the join command with its token to stdout and
// waits (up to net.join_timeout) for every player; --join joins the
// match at f.Join with f.Token. Both sides must play the same
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
	d, err := g.Net.driver()
	if err != nil {
		return nil, fmt.Errorf("framework: %s: %w", flag, err)
	}
	co.Options.Networks = g.Net.Networks
	if co.Identity, err = matchIdentity(g, cfg, stderr); err != nil {
		return nil, err
	}
	c, err := d.Connect(context.Background(), co, stdout)
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
	return &Match{Transport: c.Transport, Self: c.Self, Peers: c.Peers, Seatless: c.Seatless, Late: c.Late, Bot: f.Bot,
		Spectator: f.Spectate != "", Rejoining: c.Rejoining, JoinedLate: c.JoinedLate, driver: d}, nil
}

// finalLine is what a headless match's last line says
// (netplay.Play.FinalLine), or for a replay of a match's recording the
// confirmed line of its last checkpoint replayed.
func (s *Session) finalLine() (string, bool) {
	if s.play != nil {
		return s.play.FinalLine()
	}
	if tick, hash, ok := s.ConfirmedHash(); ok {
		return rollback.ConfirmedLine(tick, hash), true
	}
	return "", false
}
