package webrtc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync"
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
	rs := newRoomSignaller(ctx, sig)
	p, err := rs.handshake(l, offerer)
	rs.stop()
	if err != nil {
		l.close()
		var r *Refusal
		if !errors.As(err, &r) || !r.Remote {
			rs.send(roomMsg{Type: msgRefuse, Reason: clip(err.Error())})
		}
		return err
	}
	e.Conduit.add(addr, p)
	return nil
}

// roomMsg is one payload through the lobby: offer, answer, candidate or
// refuse; no challenge, since the room admits the peers.
type roomMsg struct {
	Type      string `json:"t"`
	SDP       string `json:"sdp,omitempty"`
	Candidate string `json:"c,omitempty"`
	Mid       string `json:"mid,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// decodeRoomMsg checks a payload whole, as [decodeMessage] does.
func decodeRoomMsg(s string) (roomMsg, error) {
	var m roomMsg
	if len(s) > MaxMessage {
		return m, fmt.Errorf("%w: %d bytes; allowed: up to %d", errSignal, len(s), MaxMessage)
	}
	d := json.NewDecoder(bytes.NewReader([]byte(s)))
	d.DisallowUnknownFields()
	if err := d.Decode(&m); err != nil {
		return roomMsg{}, fmt.Errorf("%w: not a signalling object (%v)", errSignal, err)
	}
	if d.More() {
		return roomMsg{}, fmt.Errorf("%w: more than one object", errSignal)
	}
	if m.Type == msgChallenge {
		return roomMsg{}, fmt.Errorf("%w: type %q; allowed in a room: offer, answer, candidate, refuse", errSignal, m.Type)
	}
	// The checks of the host's messages hold, but an offer carries no
	// proof: the room admitted the peer.
	check := message{Type: m.Type, SDP: m.SDP, Candidate: m.Candidate, Mid: m.Mid, Reason: m.Reason}
	if m.Type == msgOffer {
		check.Type = msgAnswer
	}
	if err := check.check(); err != nil {
		return roomMsg{}, err
	}
	return m, nil
}

func (m roomMsg) encode() string {
	b, err := json.Marshal(m)
	if err != nil {
		panic("webrtc: " + err.Error()) // strings always marshal
	}
	return string(b)
}

type roomSignaller struct {
	ctx    context.Context
	cancel context.CancelFunc
	sig    Signals
	in     chan roomMsg
	errc   chan error
	wg     sync.WaitGroup

	mu      sync.Mutex
	open    bool
	pending []roomMsg
}

func newRoomSignaller(ctx context.Context, sig Signals) *roomSignaller {
	rs := &roomSignaller{sig: sig, in: make(chan roomMsg, 4), errc: make(chan error, 1)}
	rs.ctx, rs.cancel = context.WithCancel(ctx)
	rs.wg.Add(1)
	go rs.read()
	return rs
}

func (rs *roomSignaller) read() {
	defer rs.wg.Done()
	for {
		s, err := rs.sig.Recv(rs.ctx)
		if err == nil {
			var m roomMsg
			if m, err = decodeRoomMsg(s); err == nil && m.Type == msgRefuse {
				err = &Refusal{Reason: m.Reason, Remote: true}
			}
			if err == nil {
				select {
				case rs.in <- m:
					continue
				case <-rs.ctx.Done():
					return
				}
			}
		}
		select {
		case rs.errc <- err:
		default:
		}
		return
	}
}

// stop ends the reader; sends still work until ctx's deadline.
func (rs *roomSignaller) stop() {
	rs.cancel()
	rs.wg.Wait()
}

func (rs *roomSignaller) send(m roomMsg) error {
	ctx := rs.ctx
	if ctx.Err() != nil {
		// A refusal after the handshake's end still goes out, briefly.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.Background(), time.Second)
		defer cancel()
	}
	return rs.sig.Send(ctx, m.encode())
}

func (rs *roomSignaller) trickle(l *link) {
	l.onCandidate(func(candidate, mid string) {
		m := roomMsg{Type: msgCandidate, Candidate: candidate, Mid: mid}
		rs.mu.Lock()
		if !rs.open {
			rs.pending = append(rs.pending, m)
			rs.mu.Unlock()
			return
		}
		rs.mu.Unlock()
		rs.send(m) // a lost candidate fails the handshake by its deadline
	})
}

func (rs *roomSignaller) opened() {
	rs.mu.Lock()
	pending := rs.pending
	rs.open, rs.pending = true, nil
	rs.mu.Unlock()
	for _, m := range pending {
		rs.send(m)
	}
}

func (rs *roomSignaller) late() error {
	return &Refusal{Reason: "no path to the peer in time, not even through the relay (see the [net] STUN and TURN settings, and the lobby's TURN)"}
}

// next waits for a message of type want. Both sides hold their
// candidates until their description went, and the lobby keeps one
// peer's signals in order, so anything else is refused.
func (rs *roomSignaller) next(want string) (roomMsg, error) {
	select {
	case m := <-rs.in:
		if m.Type != want {
			return m, &Refusal{Reason: fmt.Sprintf("message %q where %q was due", m.Type, want)}
		}
		return m, nil
	case err := <-rs.errc:
		return roomMsg{}, rs.readErr(err)
	case <-rs.ctx.Done():
		return roomMsg{}, rs.late()
	}
}

func (rs *roomSignaller) readErr(err error) error {
	var r *Refusal
	if errors.As(err, &r) {
		return r
	}
	if errors.Is(err, errSignal) {
		return &Refusal{Reason: err.Error()}
	}
	if rs.ctx.Err() != nil {
		return rs.late()
	}
	return fmt.Errorf("webrtc: signalling through the lobby: %w", err)
}

func (rs *roomSignaller) handshake(l *link, offerer bool) (*link, error) {
	rs.trickle(l)
	if offerer {
		off, err := l.makeOffer()
		if err != nil {
			return nil, err
		}
		if err := rs.send(roomMsg{Type: msgOffer, SDP: off}); err != nil {
			return nil, rs.readErr(err)
		}
		rs.opened()
		ans, err := rs.next(msgAnswer)
		if err != nil {
			return nil, err
		}
		if _, err := sdpFingerprint(ans.SDP); err != nil {
			return nil, &Refusal{Reason: "the peer's answer: " + err.Error()}
		}
		if err := l.takeAnswer(ans.SDP); err != nil {
			return nil, err
		}
	} else {
		off, err := rs.next(msgOffer)
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
		if err := rs.send(roomMsg{Type: msgAnswer, SDP: ans}); err != nil {
			return nil, rs.readErr(err)
		}
		rs.opened()
	}
	return rs.connect(l)
}

func (rs *roomSignaller) connect(l *link) (*link, error) {
	openc := make(chan struct{})
	var once sync.Once
	l.onOpen(func() { once.Do(func() { close(openc) }) })
	failed := make(chan struct{})
	var fonce sync.Once
	l.onEnd(func(bool) { fonce.Do(func() { close(failed) }) })
	n := 0
	for {
		select {
		case <-openc:
			return l, nil
		case <-failed:
			return nil, &Refusal{Reason: "ICE or DTLS failed: no path to the peer, or a certificate other than its SDP's"}
		case m := <-rs.in:
			if m.Type != msgCandidate {
				return nil, &Refusal{Reason: fmt.Sprintf("a %q message during ICE; allowed: candidate", m.Type)}
			}
			if n++; n > MaxCandidates {
				return nil, &Refusal{Reason: fmt.Sprintf("more than %d candidates", MaxCandidates)}
			}
			if err := l.addCandidate(m.Candidate, m.Mid); err != nil {
				return nil, &Refusal{Reason: "a candidate that does not parse: " + clip(strings.TrimSpace(err.Error()))}
			}
		case err := <-rs.errc:
			return nil, rs.readErr(err)
		case <-rs.ctx.Done():
			return nil, rs.late()
		}
	}
}
