package framework

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/rollback"
)

// checkTransport refuses a net.transport the game does not link, naming
// those it does (rollback.CheckNetworks, which states the rule): a
// configuration asks for a transport, the game's own declaration decides
// which are in the binary. A game that lists no network plays on one
// machine; its net.transport is checked when a match is asked for
// (connectMatch).
func (n *Net) checkTransport(k rollback.TransportKind) error {
	err := rollback.CheckNetworks("", "Game.Net.Networks", "net.transport", k, n.Networks)
	if err != nil && k == rollback.QUIC {
		err = fmt.Errorf("%w; to offer QUIC, list quicnet.Network() (package rollback/netplay/quicnet) in Game.Net.Networks", err)
	}
	return err
}

// connectMatch turns --host, --join, --spectate and --lobby (the [net]
// table's lobby keys) into this machine's side of a match; nil without
// them. By address the driver of a network the game lists meets it
// (netplay.Driver.Connect): --host listens on f.Host, prints the address
// and the join command with its token to stdout and waits (up to
// net.join_timeout) for every player; --join joins the match at f.Join
// with f.Token. Through a lobby the game's [Lobby] meets it, printing
// each step a player should see. Every peer must play the same game,
// code and match-relevant configuration (see matchIdentity), or the join
// is refused with the reason on both sides.
//
// With --dedicated the host plays no seat: the match has one peer more
// than players, the host (peer 0), which relays and checks it, and every
// player joins (player p plays at peer p+1). A joiner knows a dedicated
// host by that peer count.
func connectMatch(f *Flags, g Game, cfg config.Config, stdout, stderr io.Writer) (*Match, error) {
	n := cfg.Net
	lobby := meetsInLobby(f, cfg)
	m := rollback.Meeting{Role: rollback.Joining, Addr: f.Join, Token: f.Token, Net: n}
	flag := "--join " + f.Join
	switch {
	case lobby && f.Dedicated:
		m.Role, m.Addr, flag = rollback.Dedicated, "", "--dedicated --lobby "+n.Lobby
	case lobby:
		m.Addr, flag = "", "--lobby "+n.Lobby
	case f.Host != "" && f.Dedicated:
		m.Role, m.Addr, flag = rollback.Dedicated, f.Host, "--host "+f.Host
	case f.Host != "":
		m.Role, m.Addr, flag = rollback.Hosting, f.Host, "--host "+f.Host
	case f.Spectate != "":
		m.Role, m.Addr, flag = rollback.Spectating, f.Spectate, "--spectate "+f.Spectate
	case f.Join == "":
		return nil, nil
	}
	if err := checkMeeting(g, n, lobby, f.Dedicated); err != nil {
		return nil, err
	}
	d, err := g.Net.driver()
	if err != nil {
		return nil, fmt.Errorf("framework: %s: %w", flag, err)
	}
	m.Networks = g.Net.Networks
	if m.Identity, err = matchIdentity(g, cfg, d, stderr); err != nil {
		return nil, err
	}
	var c rollback.Connected
	if lobby {
		ctx, cancel := context.WithTimeout(context.Background(), n.JoinTimeout)
		defer cancel()
		c, err = g.Net.Lobby.Meet(ctx, m, func(line string) { fmt.Fprintln(stdout, line) })
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("within %v (net.join_timeout): %w", n.JoinTimeout, err)
		} else if err == nil {
			fmt.Fprintf(stdout, "match started: %d players, this machine is peer %d%s\n", n.Players, c.Self, dedicatedNote(m.Role))
		}
	} else {
		c, err = d.Connect(context.Background(), m, stdout)
	}
	if err != nil {
		return nil, fmt.Errorf("framework: %s: %w", flag, err)
	}
	return &Match{Transport: c.Transport, Self: c.Self, Peers: c.Peers, Seatless: c.Seatless, Late: c.Late, Bot: f.Bot,
		Spectator: m.Role == rollback.Spectating, Rejoining: c.Rejoining, JoinedLate: c.JoinedLate, driver: d}, nil
}

// dedicatedNote is what the line that starts a match adds for role.
func dedicatedNote(role rollback.Role) string {
	if role == rollback.Dedicated {
		return ", a dedicated host"
	}
	return ""
}

// finalLine is what a headless match's last line says
// (rollback.Play.FinalLine), or for a replay of a match's recording the
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
