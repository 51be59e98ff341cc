package webrtc

import (
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"strings"
	"time"
)

// Signals carries one peer pair's signalling payloads through something
// other than the host's WebSocket: a lobby that relays them between the
// peers of a room (package lobby's Client.Signal and its signal events).
// Send may be called from several goroutines at once; Recv from one.
type Signals interface {
	Send(ctx context.Context, data string) error
	Recv(ctx context.Context) (string, error)
}

// RoomEnd is this end of a match whose peers met in a lobby room: it
// listens on nothing, so a page can hold a room's first seat as well as
// a desktop build, and every peer is connected through [RoomEnd.Connect]
// over the lobby's signals. Its Conduit carries the match.
type RoomEnd struct {
	*Conduit
	newLink func() (*link, error)
	cfg     Config
}

// NewRoomEnd makes an end with cfg's ICE settings (a lobby's TURN
// credentials go in cfg.TURN). Natively it opens one UDP socket on any
// port for all its peers.
func NewRoomEnd(cfg Config) (*RoomEnd, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	j, err := newJoiner(cfg)
	if err != nil {
		return nil, err
	}
	e := &RoomEnd{Conduit: j.conduit, newLink: j.newLink, cfg: cfg}
	e.Conduit.stop = j.stop
	return e, nil
}

// SeatAddr is the address a room's peer is known by in a RoomEnd's
// Conduit: seats have no address of their own, so each gets one of the
// reserved block 240.0.0.0/4 that no real peer has.
func SeatAddr(seat int) netip.AddrPort {
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{240, 0, 0, byte(seat)}), uint16(7000+seat))
}

// Connect makes the peer at addr (its [SeatAddr]) a peer of the
// conduit: the offerer (by convention the lower seat) sends an offer,
// the other answers, candidates trickle both ways through sig, and
// Connect returns once the data channel is open. It fails with a
// *[Refusal] saying why when a payload does not parse, a side refuses,
// or no path opens within Config.Timeout (through the relay too, when
// cfg.TURN is set).
//
// What authenticates the peer is the room: the lobby relays signals only
// between clients that hold a seat in it (by its code, or the host's
// secret). Each side's DTLS fingerprint travels in its SDP through the
// lobby and DTLS checks the certificate against it, so the channel ends
// at the peer the lobby introduced and at no one in between; the game's
// own handshake then decides whether that peer plays.
func (e *RoomEnd) Connect(ctx context.Context, addr netip.AddrPort, sig Signals, offerer bool) error {
	ctx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	l, err := e.newLink()
	if err != nil {
		return err
	}
	s := startSignaller(ctx, &roomPipe{sig: sig}, "signalling through the lobby", func() error {
		return &Refusal{Reason: "no path to the peer in time, not even through the relay (see the [net] STUN and TURN settings, and the lobby's TURN)"}
	})
	p, err := s.meet(l, offerer)
	if err != nil {
		l.close()
		s.refuse(err)
		s.close()
		return err
	}
	s.close()
	e.Conduit.add(addr, p)
	return nil
}

// roomPipe carries a handshake's messages as a lobby's signals between
// two peers of a room: offer, answer, candidate or refuse; no challenge,
// since the room admits the peers.
type roomPipe struct {
	sig Signals
}

func (r *roomPipe) recv(ctx context.Context) (message, error) {
	s, err := r.sig.Recv(ctx)
	if err != nil {
		return message{}, err
	}
	return decodeRoomMsg(s)
}

func (r *roomPipe) send(ctx context.Context, m message) error {
	return r.sig.Send(ctx, m.roomPayload())
}

func (r *roomPipe) refuse(reason string) {
	// The handshake's own deadline may have passed: the refusal gets a
	// second of its own.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	r.sig.Send(ctx, message{Type: msgRefuse, Reason: reason}.roomPayload())
}

// A room's signals need no ending: the lobby carries them, and the
// reader ends with the signaller.
func (r *roomPipe) done()  {}
func (r *roomPipe) close() {}

// decodeRoomMsg checks a payload whole, as [decodeMessage] does, with the
// types a room allows.
func decodeRoomMsg(s string) (message, error) {
	if len(s) > MaxMessage {
		return message{}, fmt.Errorf("%w: %d bytes; allowed: up to %d", errSignal, len(s), MaxMessage)
	}
	var m message
	d := json.NewDecoder(strings.NewReader(s))
	d.DisallowUnknownFields()
	if err := d.Decode(&m); err != nil {
		return message{}, fmt.Errorf("%w: not a signalling object (%v)", errSignal, err)
	}
	if d.More() {
		return message{}, fmt.Errorf("%w: more than one object", errSignal)
	}
	if m.Type == msgChallenge {
		return message{}, fmt.Errorf("%w: type %q; allowed in a room: offer, answer, candidate, refuse", errSignal, m.Type)
	}
	// The checks of the host's messages hold, but an offer carries no
	// proof: the room admitted the peer.
	check := m
	if m.Type == msgOffer {
		check.Type = msgAnswer
	}
	if err := check.check(); err != nil {
		return message{}, err
	}
	return m, nil
}

// roomPayload is m as a lobby signal's text.
func (m message) roomPayload() string { return string(m.encode()) }

// meet is a room's handshake: the offerer sends its offer and takes the
// answer, the other answers; then ICE. Either side's description must
// carry a DTLS fingerprint, which DTLS then holds the peer to.
func (s *signaller) meet(l *link, offerer bool) (*link, error) {
	s.trickle(l)
	if offerer {
		off, err := l.makeOffer()
		if err != nil {
			return nil, err
		}
		if err := s.send(message{Type: msgOffer, SDP: off}); err != nil {
			return nil, s.readErr(err)
		}
		s.opened()
		ans, err := s.next(msgAnswer)
		if err != nil {
			return nil, err
		}
		if _, err := sdpFingerprint(ans.SDP); err != nil {
			return nil, &Refusal{Reason: "the peer's answer: " + err.Error()}
		}
		if err := l.takeAnswer(ans.SDP); err != nil {
			return nil, err
		}
		return s.connect(l)
	}
	off, err := s.next(msgOffer)
	if err != nil {
		return nil, err
	}
	if _, err := sdpFingerprint(off.SDP); err != nil {
		return nil, &Refusal{Reason: "the peer's offer: " + err.Error()}
	}
	ans, err := l.makeAnswer(off.SDP)
	if err != nil {
		return nil, err
	}
	if err := s.send(message{Type: msgAnswer, SDP: ans}); err != nil {
		return nil, s.readErr(err)
	}
	s.opened()
	return s.connect(l)
}
