package netplay

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math"
	"net"
	"time"

	"github.com/metronome-go/metronome/rollback"
)

// Lobby is a match being hosted, as [Host] returns it: it listens for
// joiners until the match is full and goes on answering them (a dropped
// player rejoining) for as long as the match lives. (The function is
// Host; Go does not let a type share its name.)
type Lobby struct {
	m   *Match
	tok token
}

// Host validates opts and id, listens on addr (":7777" for every
// interface, "127.0.0.1:0" for an ephemeral loopback port) and starts
// taking joins: a joiner passes [Lobby.Token]. Call [Lobby.Wait] for the
// match, or [Lobby.Close] to give up.
func Host(addr string, opts Options, id rollback.Identity) (*Lobby, error) {
	if err := errors.Join(opts.Validate(), id.Validate()); err != nil {
		return nil, err
	}
	opts = opts.withDefaults()
	var t token
	t.transport = opts.Transport
	if _, err := rand.Read(t.secret[:]); err != nil {
		return nil, fmt.Errorf("netplay: no join secret: %w", err)
	}
	c, pin, err := opts.network(opts.Transport).Listen(addr, opts.conduit())
	if err != nil {
		return nil, fmt.Errorf("netplay: host on %s: %w", addr, err)
	}
	if len(pin) > MaxPin {
		c.Close()
		return nil, fmt.Errorf("netplay: host on %s: the %s network's pin is %d bytes; allowed: up to %d", addr, opts.Transport, len(pin), MaxPin)
	}
	t.pinLen = copy(t.pin[:], pin)
	m := newMatch(c, t.secret[:], opts, id, true)
	m.start()
	return &Lobby{m: m, tok: t}, nil
}

// Addr returns the address the host listens on.
func (h *Lobby) Addr() net.Addr { return h.m.Addr() }

// Token returns the join token to give the joiners (print it): the
// transport, the join secret and, for QUIC, the host certificate's
// fingerprint. Whoever has it can join.
func (h *Lobby) Token() string { return h.tok.String() }

// Stats returns the host's counters, refusals included, before and after
// the match is full.
func (h *Lobby) Stats() Stats { return h.m.Stats() }

// Wait returns the match once Start-1 joiners have joined (Players-1
// unless Options.Start says fewer; at once for a Start of 1), or, when
// ctx ends first, a *ShortError counting who joined (it wraps ctx's
// error). The match keeps the host's socket: closing it closes the host.
func (h *Lobby) Wait(ctx context.Context) (*Match, error) {
	select {
	case <-h.m.fullc:
		return h.m, nil
	case <-h.m.closing:
		return nil, rollback.ErrClosed
	case <-ctx.Done():
	}
	return nil, h.short(ctx.Err())
}

// wait is Wait, giving up once the match has not filled within patience
// on the match's clock (0: only when ctx ends).
func (h *Lobby) wait(ctx context.Context, patience time.Duration) (*Match, error) {
	m := h.m
	w, done := m.newWait(ctx)
	defer done()
	giveUp := time.Duration(math.MaxInt64)
	if patience > 0 {
		giveUp = m.now() + patience
	}
	for {
		select {
		case <-m.fullc:
			return m, nil
		default:
		}
		err := context.DeadlineExceeded
		if m.now() < giveUp {
			if err = m.pause(ctx, w, giveUp); err == nil {
				continue
			}
			if errors.Is(err, rollback.ErrClosed) {
				return nil, err
			}
		}
		return nil, h.short(err)
	}
}

// short counts who joined a match that did not start, ended by err.
func (h *Lobby) short(err error) *ShortError {
	short := &ShortError{Want: h.m.opts.Players - 1, err: err}
	if h.m.opts.Start > 0 {
		short.Want = h.m.opts.Start - 1
	}
	st := h.m.Stats()
	for _, p := range st.Peers[1:] {
		if p.Connected {
			short.Joined++
		}
	}
	return short
}

// ShortError is a hosted match that did not start: fewer players joined
// than it starts with before the host stopped waiting. It says the counts
// alone, so a host's message reads the same whatever ended the wait, and
// unwraps to that (context.DeadlineExceeded, say).
type ShortError struct {
	// Joined is how many players joined; Want how many the match starts
	// with besides the host.
	Joined, Want int
	err          error
}

func (e *ShortError) Error() string {
	return fmt.Sprintf("not enough players joined: %d of the %d the match starts with; it did not start", e.Joined, e.Want)
}

func (e *ShortError) Unwrap() error { return e.err }

// Close stops hosting: it closes the match, if Wait returned one.
func (h *Lobby) Close() error { return h.m.Close() }

// Join joins the match hosted at addr ("192.0.2.1:7777") with the token
// the host printed, and returns the match once it is full. It fails if
// the token does not parse or names another transport than
// opts.Transport (or one not in opts.Networks), if the host refuses (the error wraps [ErrRefused] and
// says why: a wrong token, a full match, another game, version or
// configuration, a taken slot), if the host does not answer within
// opts.Timeout, or with ctx's error. Joining again with opts.Slot set to
// the old peer number takes a dropped player's slot back.
func Join(ctx context.Context, addr, tok string, opts Options, id rollback.Identity) (*Match, error) {
	return join(ctx, addr, tok, opts, id, 0)
}

// join is Join, giving up once the match has not filled within patience
// on opts.Clock (0: only when ctx ends), with a *ShortError.
func join(ctx context.Context, addr, tok string, opts Options, id rollback.Identity, patience time.Duration) (*Match, error) {
	if err := errors.Join(opts.Validate(), id.Validate()); err != nil {
		return nil, err
	}
	opts = opts.withDefaults()
	t, err := parseToken(tok)
	if err != nil {
		return nil, err
	}
	if t.transport != opts.Transport {
		if opts.network(t.transport) == nil {
			return nil, fmt.Errorf("%w: the token is for a %s host; this program links %s (Options.Networks)", ErrTransport, t.transport, opts.linked())
		}
		return nil, fmt.Errorf("%w: the token is for a %s host; Options.Transport is %q (set it to %q)", ErrTransport, t.transport, opts.Transport, t.transport)
	}
	c, hostAddr, err := opts.network(opts.Transport).Dial(ctx, addr, t.pin[:t.pinLen], opts.conduit())
	if err != nil {
		return nil, fmt.Errorf("netplay: join %s: %w", addr, err)
	}
	m := newMatch(c, t.secret[:], opts, id, false)
	m.peers[0].addr, m.peers[0].joined = hostAddr, true
	m.start()
	fail := func(err error) (*Match, error) {
		m.Close()
		return nil, err
	}
	w, done := m.newWait(ctx)
	defer done()
	answerBy := opts.Timeout // until the host's first answer; then until the match is full
	giveUp := time.Duration(math.MaxInt64)
	if patience > 0 {
		giveUp = m.now() + patience
	}
	for {
		// In this order: an accept into a full match answers and fills at
		// once, and a refusal is an answer too.
		select {
		case <-m.fullc:
			return m, nil
		default:
		}
		select {
		case <-m.refusedc:
			m.mu.Lock()
			err := m.refusal
			m.mu.Unlock()
			return fail(err)
		default:
		}
		select {
		case <-m.answered:
			answerBy = math.MaxInt64
		default:
			if m.now() >= answerBy {
				return fail(fmt.Errorf("netplay: join %s: no answer from the host within %v (Options.Timeout)", addr, opts.Timeout))
			}
		}
		if m.now() >= giveUp {
			return fail(fmt.Errorf("netplay: join %s: the match did not start within %v: %w", addr, patience, context.DeadlineExceeded))
		}
		if err := m.pause(ctx, w, min(answerBy, giveUp)); err != nil {
			return fail(err)
		}
	}
}

// ErrTransport is wrapped by Join's error when the token names another
// transport than Options.Transport.
var ErrTransport = errors.New("netplay: another transport")
