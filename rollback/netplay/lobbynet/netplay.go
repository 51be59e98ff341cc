package lobbynet

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/metronome-go/metronome/lobby"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/rollback/netplay/webrtc"
)

// Netplay meets a netplay match through a lobby: what a framework game
// lists as framework.Net.Lobby, so that --lobby, --room, --create and
// --quick work in it. A game that lists none links no lobby client.
type Netplay struct {
	cfg webrtc.Config
}

// NewNetplay returns a lobby path whose ends connect with cfg's ICE
// settings (the lobby's TURN credentials are added to them).
func NewNetplay(cfg webrtc.Config) *Netplay { return &Netplay{cfg: cfg} }

// Meet meets the match m describes in the lobby at m.Net.Lobby, connects
// to every other seat over WebRTC and starts a netplay match over those
// channels: seat 0 hosts it (netplay.Host) and the others join it
// (netplay.Join), so the match is the same as one met by address and
// token, with the token carried through the lobby instead of by the
// players. m.Net.Room names a room to enter; m.Net.Quick waits for a
// quick match of m.Net.Players; m.Net.Create makes a room of
// m.Net.Players seats, whose code status reports. A dedicated host
// (m.Role rollback.Dedicated) waits for a full quick match of
// m.Net.Players and hosts that room's match with no seat, as peer 0 of
// m.Net.Players+1. The match's transport is the room's channels, whose
// ICE settings m.Net.ICE joins; m.Networks are not used. It reports each
// step as a line through status and fails with an *[Error] saying why.
// Any goroutine; it blocks.
func (n *Netplay) Meet(ctx context.Context, m rollback.Meeting, status func(line string)) (rollback.Connected, error) {
	var nm *netplay.Match
	var err error
	players := cmp.Or(m.Net.Players, netplay.DefaultPlayers)
	opts := netplay.Options{Players: players, Timeout: m.Net.Timeout, Start: m.Net.StartWith, ICE: m.Net.ICE}
	if m.Role == rollback.Dedicated {
		nm, err = n.serve(ctx, m.Net.Lobby, players, opts, m.Identity, status)
	} else {
		quick := 0
		if m.Net.Quick {
			quick = players
		}
		nm, err = n.meet(ctx, m.Net.Lobby, m.Net.Room, quick, opts, m.Identity, status)
	}
	if err != nil {
		return rollback.Connected{}, err
	}
	return nm.Seated(players), nil
}

// meet takes a seat in the lobby at url: in the room of code room, in
// quick match for a room of quick players, or, with neither, in a new
// room of opts.Players seats.
func (n *Netplay) meet(ctx context.Context, url, room string, quick int, opts netplay.Options, id rollback.Identity, status func(line string)) (*netplay.Match, error) {
	players := opts.Players
	o := Options{Lobby: url, Game: GameKey(id), Room: room, Quick: quick, Create: room == "" && quick == 0, Players: players, Config: n.config(opts)}
	var errs []error
	if players > netplay.MaxPlayers {
		errs = append(errs, fmt.Errorf("net.players %d: a netplay match holds 2 to %d", players, netplay.MaxPlayers))
	}
	return n.play(ctx, o, opts, id, status, errs)
}

// serve waits in the lobby at url as a dedicated host for a quick match
// of players (opts.Players becomes players+1, this end being peer 0
// with no seat, as a host given --dedicated): the lobby hands it the
// next such room to fill, and it hosts that room's match as seat 0 does
// in meet.
func (n *Netplay) serve(ctx context.Context, url string, players int, opts netplay.Options, id rollback.Identity, status func(line string)) (*netplay.Match, error) {
	o := Options{Lobby: url, Game: GameKey(id), Dedicated: true, Players: players, Config: n.config(opts)}
	var errs []error
	if players+1 > netplay.MaxPlayers {
		errs = append(errs, fmt.Errorf("net.players %d: a dedicated host serves up to %d players (a netplay match holds %d peers, the host's included)", players, netplay.MaxPlayers-1, netplay.MaxPlayers))
	}
	opts.Players = players + 1
	if opts.Start > 0 {
		opts.Start++ // the players who joined, and the host
	}
	return n.play(ctx, o, opts, id, status, errs)
}

// config is the path's ICE settings with the match's own added (the
// [net] table's stun, turn and ice_policy keys, opts.ICE), as the
// WebRTC network adds them when it meets by address; the lobby's TURN
// credentials join them in meet.
func (n *Netplay) config(opts netplay.Options) webrtc.Config {
	return n.cfg.WithICE(opts.ICE, time.Now())
}

// play meets as o says and plays the room's netplay match; errs are the
// caller's own checks of its options.
func (n *Netplay) play(ctx context.Context, o Options, opts netplay.Options, id rollback.Identity, status func(line string), errs []error) (*netplay.Match, error) {
	if status == nil {
		status = func(string) {}
	}
	if err := o.check(); err != nil {
		errs = append([]error{err}, errs...)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, &Error{ReasonBadOptions, err}
	}
	c, err := lobby.Dial(ctx, o.Lobby)
	if err != nil {
		return nil, &Error{ReasonUnreachable, err}
	}
	m, r, err := meet(ctx, c, o, status)
	if err != nil {
		c.Close()
		return nil, err
	}
	defer func() {
		r.stop()
		c.Close() // the match needs the lobby no more
	}()
	opts.Networks = []netplay.Network{roomNetwork{m}}
	opts.ICE = rollback.ICE{} // in the room's channels already (config)
	opts.Transport = roomName
	opts.Slot = 0
	var nm *netplay.Match
	if m.Seat == 0 {
		nm, err = hostRoom(ctx, c, m, opts, id)
	} else {
		nm, err = joinRoom(ctx, r, m, opts, id)
	}
	if err != nil {
		m.RoomEnd.Close()
		var le *Error
		if errors.As(err, &le) {
			return nil, err
		}
		return nil, &Error{ReasonRefused, err}
	}
	status(fmt.Sprintf("room %s: match started, this end is seat %d", m.Code, m.Seat))
	return nm, nil
}

// hostRoom hosts the match on seat 0's channels and hands its join token
// to every other seat through the lobby, which relays it only to the
// room's clients.
func hostRoom(ctx context.Context, c *lobby.Client, m *Match, opts netplay.Options, id rollback.Identity) (*netplay.Match, error) {
	h, err := netplay.Host("", opts, id)
	if err != nil {
		return nil, err
	}
	for s, peer := range m.ids {
		if s == m.Seat {
			continue
		}
		if err := c.Signal(ctx, peer, tokenPrefix+h.Token()); err != nil {
			h.Close()
			return nil, lobbyErr(err)
		}
	}
	nm, err := h.Wait(ctx)
	if err != nil {
		h.Close()
		return nil, err
	}
	return nm, nil
}

// joinRoom waits for seat 0's token and joins its match over the
// channel to seat 0.
func joinRoom(ctx context.Context, r *router, m *Match, opts netplay.Options, id rollback.Identity) (*netplay.Match, error) {
	var tok string
	for tok == "" {
		select {
		case t := <-r.tokens:
			if t.Peer == m.ids[0] {
				tok = strings.TrimPrefix(t.Data, tokenPrefix)
			}
		case err := <-r.errc:
			r.errc <- err
			return nil, lobbyErr(err)
		case <-ctx.Done():
			return nil, &Error{ReasonUnreachable, fmt.Errorf("waiting for seat 0's match token: %w", ctx.Err())}
		}
	}
	return netplay.Join(ctx, "seat 0 of room "+m.Code, tok, opts, id)
}

// tokenPrefix marks the signal that carries seat 0's netplay token,
// apart from the WebRTC handshake's signals.
const tokenPrefix = "netplay-token "

// roomName is the room's channels as a netplay network, in the token.
const roomName = "lobby-room"

// roomNetwork is a room's channels, already open, as netplay's network:
// seat 0 hosts on them, the others reach seat 0 through them.
type roomNetwork struct{ m *Match }

func (roomNetwork) Name() string { return roomName }

func (n roomNetwork) Listen(string, netplay.ConduitOptions) (netplay.Conduit, []byte, error) {
	return n.m.Conduit, nil, nil
}

func (n roomNetwork) Dial(context.Context, string, []byte, netplay.ConduitOptions) (netplay.Conduit, netip.AddrPort, error) {
	return n.m.Conduit, n.m.Peers[0], nil
}

// GameKey is the name under which a game meets in the lobby: its title,
// cut to printable ASCII, and a digest of its version and the
// configuration every peer must share, so that only ends whose netplay
// handshake would accept each other share a room or a quick match.
func GameKey(id rollback.Identity) string {
	h := sha256.New()
	fmt.Fprintf(h, "%q %q %016x", id.Game, id.Version, id.Config)
	var b strings.Builder
	for _, r := range id.Game {
		if b.Len() >= 64 {
			break
		}
		if r < ' ' || r > '~' {
			r = '_'
		}
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		b.WriteString("game")
	}
	return b.String() + "#" + hex.EncodeToString(h.Sum(nil)[:12])
}
