package server

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/metronome-go/metronome/lobby"
)

// A signal is relayed as a NATS request that the instance holding the
// peer answers once the signal is queued for the peer's socket. When no
// instance answers (the peer's instance died, or the peer is between two
// connections), the signal is kept in the peer's mailbox record,
// s.<client id>, and handed over, after the room event, by the instance
// that takes the peer next: at its resume, or, when an instance already
// holds the peer, as soon as that instance sees the record change. So a
// signal is delivered or kept; it may arrive twice (an answer that came
// too late), never not at all while the peer comes back within the
// bucket's lifetime. A connection sends each signal once however it came;
// only a client that moved to another connection in the meantime may see
// one twice.

// headerSignal carries a relayed signal's id, so that one that reaches a
// connection both late and from the mailbox is sent to it once.
const headerSignal = "Lobby-Signal"

// firstSight reports whether the signal id is new to this connection,
// remembering it among the last len(c.seen).
func (c *conn) firstSight(id string) bool {
	if id == "" {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if slices.Contains(c.seen[:], id) {
		return false
	}
	c.seen[c.seenNext] = id
	c.seenNext = (c.seenNext + 1) % len(c.seen)
	return true
}

// replyKeep answers a relayed signal that the sender should keep in the
// mailbox now, rather than wait for signalWait to pass.
const replyKeep = "keep"

// signalWait bounds the wait for the peer's instance to take a signal.
const signalWait = 2 * time.Second

// maxHeld is how many signals a mailbox keeps; past it the sender is
// refused, the peer having been away for that long.
const maxHeld = 16

// mailbox is the signals kept for a client nobody held when they came.
type mailbox struct {
	Signals []held `json:"s"`
}

type held struct {
	ID   string `json:"i"`
	From string `json:"f"`
	Data string `json:"d"`
}

func mailboxKey(id string) string { return "s." + id }

// relay hands a signal from the client to peer: to the instance holding
// the peer, or into the peer's mailbox.
func (c *conn) relay(ctx context.Context, peer, data string) error {
	m := lobby.Message{Type: lobby.TypeSignal, Peer: c.id, Data: data}
	id := lobby.NewID()[:16]
	req := nats.NewMsg(subjectClient + peer)
	req.Data = m.Encode()
	req.Header.Set(headerSignal, id)
	wait := signalWait
	if c.s.hooks.signalWait != 0 {
		wait = c.s.hooks.signalWait
	}
	rctx, cancel := context.WithTimeout(ctx, wait)
	reply, err := c.s.o.NATS.RequestMsgWithContext(rctx, req)
	cancel()
	switch {
	case err == nil && string(reply.Data) != replyKeep:
		return nil
	case err == nil: // the peer's connection has not heard of its room yet
	case !errors.Is(err, nats.ErrNoResponders) && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, nats.ErrTimeout):
		return err // this instance lost NATS: the sender is told to try again
	}
	_, err = update(ctx, c.s.st.kv, mailboxKey(peer), func(mb *mailbox, _ bool) error {
		if len(mb.Signals) >= maxHeld {
			return refuse(lobby.ReasonBusy, "", "peer %s has been away for %d signals: try again once it is back", peer, maxHeld)
		}
		mb.Signals = append(mb.Signals, held{ID: id, From: c.id, Data: data})
		return nil
	})
	if h := c.s.hooks.kept; h != nil && err == nil {
		h()
	}
	return err
}

// drain sends the client the signals kept for it, each once: they are
// taken from the store before they are sent. The caller holds evmu and
// has told the client of its room.
func (c *conn) drain(ctx context.Context) error {
	kv := c.s.st.kv
	for range casTries {
		mb, rev, found, err := get[mailbox](ctx, kv, mailboxKey(c.id))
		if err != nil || !found {
			return err
		}
		err = kv.Delete(ctx, mailboxKey(c.id), jetstream.LastRevision(rev))
		if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			continue // another drain, or a new signal: read again
		}
		if err != nil {
			return err
		}
		for _, h := range mb.Signals {
			if c.firstSight(h.ID) {
				c.event(lobby.Message{Type: lobby.TypeSignal, Peer: h.From, Data: h.Data})
			}
		}
		return nil
	}
	return errors.New("lobby: mailbox " + c.id + ": too many writers in a row")
}

// watchMailboxes drains the mailbox of a client this instance holds in a
// room whenever a signal is kept for it: the signal came while the
// instance did not answer (its NATS connection was moving to another
// server, or the client was between its old and new connection here).
// It runs until ctx ends; Server owns it.
func (s *Server) watchMailboxes(ctx context.Context, w jetstream.KeyWatcher) {
	defer w.Stop()
	for {
		var e jetstream.KeyValueEntry
		var ok bool
		select {
		case <-ctx.Done():
			return
		case e, ok = <-w.Updates():
		}
		if !ok {
			// The watch ended with the instance's NATS connection (or a
			// context it was made with): kept signals now wait for their
			// client's next room event.
			if ctx.Err() == nil {
				s.o.Log.Warn("lobby: the mailbox watch ended")
				if h := s.hooks.watchEnded; h != nil {
					h()
				}
			}
			return
		}
		if e == nil || e.Operation() != jetstream.KeyValuePut {
			continue
		}
		s.mu.Lock()
		c := s.byID[strings.TrimPrefix(e.Key(), "s.")]
		s.mu.Unlock()
		if c == nil {
			continue
		}
		c.evmu.Lock()
		if room, _ := c.state(); room == "" {
			c.held = true // the room event, when it comes, hands it over
		} else {
			dctx, cancel := context.WithTimeout(ctx, storeTimeout)
			if err := c.drain(dctx); err != nil {
				s.o.Log.Warn("lobby: handing over kept signals", "err", err)
			}
			cancel()
		}
		c.evmu.Unlock()
		if h := s.hooks.drained; h != nil {
			h()
		}
	}
}
