package webrtc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// Pin is what a join token carries for a WebRTC host: the SHA-256
// fingerprint of the DTLS certificate the host answers with, so a joiner
// accepts no other end, and the key that proves to the host that the
// joiner holds the token, before the host spends an ICE agent on it.
type Pin struct {
	Fingerprint [printLen]byte
	Key         [keyLen]byte
}

// PinLen is the length of [Pin.Bytes].
const PinLen = printLen + keyLen

// Bytes returns the pin as the token carries it: fingerprint, then key.
func (p Pin) Bytes() []byte {
	return append(append(make([]byte, 0, PinLen), p.Fingerprint[:]...), p.Key[:]...)
}

// ParsePin reads [Pin.Bytes].
func ParsePin(b []byte) (Pin, error) {
	var p Pin
	if len(b) != PinLen {
		return p, fmt.Errorf("webrtc: a pin of %d bytes; want %d (a certificate fingerprint and a key)", len(b), PinLen)
	}
	copy(p.Fingerprint[:], b)
	copy(p.Key[:], b[printLen:])
	return p, nil
}

// Refusal is the error of a handshake one side refused, with its reason;
// Remote says the other side refused.
type Refusal struct {
	Reason string
	Remote bool
}

func (r *Refusal) Error() string {
	if r.Remote {
		return "webrtc: refused by the other side: " + r.Reason
	}
	return "webrtc: refused: " + r.Reason
}

// errJoined is the reader's when the other side's data channel opened
// first and it closed signalling: this side waits for its own.
var errJoined = errors.New("webrtc: the other side has joined and closed signalling")

// A pipe carries one handshake's signalling messages: the host's
// WebSocket (wsPipe), or a lobby's signals between two peers of a room
// (roomPipe, room.go). The signaller above it does the handshake's
// ordering, candidates and refusals the same way over either.
type pipe interface {
	// recv waits for the next message, checked whole. The other side's
	// refusal comes as a message of type refuse; an error ends the pipe.
	recv(ctx context.Context) (message, error)
	// send writes m; calls are serialised by the signaller.
	send(ctx context.Context, m message) error
	// refuse tells the other side reason, even after the handshake's
	// deadline, and ends the pipe.
	refuse(reason string)
	// done ends signalling once the data channel is open.
	done()
	// close frees the pipe at once.
	close()
}

// signaller is one side of a handshake's signalling: a reader goroutine
// it owns and joins in close, a serialised writer, and the count of
// candidates taken.
type signaller struct {
	ctx context.Context // the handshake's deadline
	p   pipe
	// late is the refusal when the deadline passes; what names the
	// signalling in wrapped errors.
	late func() error
	what string
	// rctx is the reader's: a WebSocket closes a connection whose Read
	// outlives its context, and a refusal must still go out after the
	// deadline.
	rctx    context.Context
	rcancel context.CancelFunc
	in      chan message
	errc    chan error
	wg      sync.WaitGroup

	wmu       sync.Mutex
	open      bool      // descriptions sent: local candidates may follow
	pending   []message // local candidates found before that
	remoteCan int
}

func newSignaller(ctx context.Context, ws *websocket.Conn) *signaller {
	return startSignaller(ctx, wsPipe{ws}, "signalling", func() error {
		return &Refusal{Reason: "the handshake did not finish in time (no ICE path between the ends? see the [net] STUN and TURN settings)"}
	})
}

func startSignaller(ctx context.Context, p pipe, what string, late func() error) *signaller {
	s := &signaller{ctx: ctx, p: p, what: what, late: late, in: make(chan message, 4), errc: make(chan error, 1)}
	s.rctx, s.rcancel = context.WithCancel(context.Background())
	s.wg.Add(1)
	go s.read()
	return s
}

func (s *signaller) read() {
	defer s.wg.Done()
	for {
		m, err := s.p.recv(s.rctx)
		if err == nil && m.Type == msgRefuse {
			err = &Refusal{Reason: m.Reason, Remote: true}
		}
		if err != nil {
			s.errc <- err
			return
		}
		select {
		case s.in <- m:
		case <-s.rctx.Done():
			return
		}
	}
}

func (s *signaller) send(m message) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return s.p.send(s.ctx, m)
}

// wsPipe is the host's signalling WebSocket.
type wsPipe struct{ ws *websocket.Conn }

func (w wsPipe) recv(ctx context.Context) (message, error) {
	typ, b, err := w.ws.Read(ctx)
	if err != nil {
		var ce websocket.CloseError
		if errors.As(err, &ce) {
			if ce.Code == websocket.StatusNormalClosure {
				err = errJoined
			} else {
				err = &Refusal{Reason: ce.Reason, Remote: true}
			}
		}
		return message{}, err
	}
	if typ != websocket.MessageText {
		return message{}, fmt.Errorf("%w: a binary message; signalling is JSON text", errSignal)
	}
	return decodeMessage(b)
}

func (w wsPipe) send(ctx context.Context, m message) error {
	return w.ws.Write(ctx, websocket.MessageText, m.encode())
}

func (w wsPipe) refuse(reason string) {
	// The handshake's own deadline may have passed: the refusal gets a
	// second of its own.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	w.ws.Write(ctx, websocket.MessageText, message{Type: msgRefuse, Reason: reason}.encode())
	code := reason
	if len(code) > 120 { // a close frame's reason is at most 123 bytes
		code = code[:120]
	}
	w.ws.Close(websocket.StatusPolicyViolation, strings.ToValidUTF8(code, ""))
}

func (w wsPipe) done()  { w.ws.Close(websocket.StatusNormalClosure, "joined") }
func (w wsPipe) close() { w.ws.CloseNow() }

// trickle sends l's local candidates as they are found, holding those
// found before [signaller.opened] so that none precedes the description.
func (s *signaller) trickle(l *link) {
	l.onCandidate(func(candidate, mid string) {
		m := message{Type: msgCandidate, Candidate: candidate, Mid: mid}
		s.wmu.Lock()
		if !s.open {
			s.pending = append(s.pending, m)
			s.wmu.Unlock()
			return
		}
		s.wmu.Unlock()
		s.send(m) // a failed send fails the handshake by its deadline
	})
}

// opened sends the candidates held so far and lets the rest through.
func (s *signaller) opened() {
	s.wmu.Lock()
	pending := s.pending
	s.open, s.pending = true, nil
	s.wmu.Unlock()
	for _, m := range pending {
		s.send(m)
	}
}

// next waits for a message of type want.
func (s *signaller) next(want string) (message, error) {
	select {
	case m := <-s.in:
		if m.Type != want {
			return m, &Refusal{Reason: fmt.Sprintf("message %q where %q was due", m.Type, want)}
		}
		return m, nil
	case err := <-s.errc:
		return message{}, s.readErr(err)
	case <-s.ctx.Done():
		return message{}, s.late()
	}
}

func (s *signaller) readErr(err error) error {
	var r *Refusal
	if errors.As(err, &r) {
		return r
	}
	if errors.Is(err, errSignal) {
		return &Refusal{Reason: err.Error()}
	}
	if s.ctx.Err() != nil {
		return s.late()
	}
	return fmt.Errorf("webrtc: %s: %w", s.what, err)
}

// connect waits, taking the other side's candidates, until the data
// channel opens.
func (s *signaller) connect(l *link) (*link, error) {
	openc := make(chan struct{})
	var once sync.Once
	l.onOpen(func() { once.Do(func() { close(openc) }) })
	failed := make(chan struct{})
	var fonce sync.Once
	l.onEnd(func(bool) { fonce.Do(func() { close(failed) }) })
	errc := s.errc
	for {
		select {
		case <-openc:
			return l, nil
		case <-failed:
			return nil, &Refusal{Reason: "ICE or DTLS failed: no path between the ends, or a certificate other than the SDP's"}
		case m := <-s.in:
			if m.Type != msgCandidate {
				return nil, &Refusal{Reason: fmt.Sprintf("a %q message during ICE; allowed: candidate", m.Type)}
			}
			if s.remoteCan++; s.remoteCan > MaxCandidates {
				return nil, &Refusal{Reason: fmt.Sprintf("more than %d candidates", MaxCandidates)}
			}
			if err := l.addCandidate(m.Candidate, m.Mid); err != nil {
				return nil, &Refusal{Reason: "a candidate that does not parse: " + clip(strings.TrimSpace(err.Error()))}
			}
		case err := <-errc:
			var r *Refusal
			if errors.As(err, &r) || errors.Is(err, errSignal) {
				return nil, s.readErr(err)
			}
			// Signalling ended without a refusal: the other side's
			// channel opened first and it closed (a page sees the close
			// as an error, not as its code). ICE goes on without more
			// candidates, bounded by the deadline.
			errc = nil
		case <-s.ctx.Done():
			return nil, s.late()
		}
	}
}

// offer is the joiner's half: the challenge in, the offer and proof out,
// the answer in (its fingerprint the pin's), then ICE.
func (s *signaller) offer(l *link, pin Pin) (*link, error) {
	ch, err := s.next(msgChallenge)
	if err != nil {
		return nil, err
	}
	s.trickle(l)
	off, err := l.makeOffer()
	if err != nil {
		return nil, err
	}
	if err := s.send(message{Type: msgOffer, Proof: proof(pin.Key, ch.Nonce), SDP: off}); err != nil {
		return nil, s.readErr(err)
	}
	s.opened()
	ans, err := s.next(msgAnswer)
	if err != nil {
		return nil, err
	}
	fp, err := sdpFingerprint(ans.SDP)
	if err != nil {
		return nil, &Refusal{Reason: "the host's answer: " + err.Error()}
	}
	if fp != pin.Fingerprint {
		return nil, &Refusal{Reason: "the host's DTLS fingerprint " + formatFingerprint(fp)[:23] + "… is not the token's " + formatFingerprint(pin.Fingerprint)[:23] + "… (another host, or someone in between)"}
	}
	if err := l.takeAnswer(ans.SDP); err != nil {
		return nil, err
	}
	return s.connect(l)
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120]
	}
	return s
}

// refuse tells the other side why, unless it refused first, and closes.
func (s *signaller) refuse(err error) {
	reason := err.Error()
	var r *Refusal
	if errors.As(err, &r) {
		if r.Remote {
			s.p.close()
			return
		}
		reason = r.Reason
	}
	if len(reason) > maxReason {
		reason = reason[:maxReason]
	}
	s.wmu.Lock()
	s.p.refuse(reason)
	s.wmu.Unlock()
}

// done ends signalling once the data channel is open.
func (s *signaller) done() { s.p.done() }

// close frees the pipe and joins the reader.
func (s *signaller) close() {
	s.p.close()
	s.rcancel()
	s.wg.Wait()
}
