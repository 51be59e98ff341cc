package rollbacktest

import (
	"fmt"
	"sync"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/timing"
)

// Transport is one peer's [rollback.Transport] over a simulated network:
// a message sent to peer b travels on the network's link from this peer to
// b, and arrives at the instant the link's conditions give it, read from
// clock. The transports of one network share a lock, so that each peer's
// may belong to its own goroutine (each session of a match runs its own
// runtime); the links themselves stay single-threaded behind it.
type Transport struct {
	nw     *netsim.Network
	self   int
	clock  timing.Clock
	mu     *sync.Mutex
	next   int // the link Receive looks at first, so no peer starves
	closed bool
	stats  TransportStats
}

// TransportStats counts one peer's traffic.
type TransportStats struct {
	Sent, Received uint64
	// BytesSent and BytesReceived count payload bytes.
	BytesSent, BytesReceived uint64
	// Oversize counts received messages longer than Receive's buffer,
	// dropped whole as the interface says.
	Oversize uint64
}

// NewTransports returns one transport per peer of nw, on clock.
func NewTransports(nw *netsim.Network, clock timing.Clock) []*Transport {
	mu := new(sync.Mutex)
	ts := make([]*Transport, nw.Peers())
	for i := range ts {
		ts[i] = &Transport{nw: nw, self: i, clock: clock, mu: mu}
	}
	return ts
}

var _ rollback.Transport = (*Transport)(nil)

// Send puts msg on the link to peer.
func (t *Transport) Send(peer int, msg []byte) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.closed:
		return rollback.ErrClosed
	case peer < 0 || peer >= t.nw.Peers() || peer == t.self:
		return fmt.Errorf("rollbacktest: send to peer %d: want another of peers 0 to %d", peer, t.nw.Peers()-1)
	case len(msg) > rollback.MaxMessage:
		return fmt.Errorf("rollbacktest: send of %d bytes: over rollback.MaxMessage (%d)", len(msg), rollback.MaxMessage)
	}
	t.nw.Link(t.self, peer).Send(t.clock.Now(), msg)
	t.stats.Sent++
	t.stats.BytesSent += uint64(len(msg))
	return nil
}

// Receive copies the next message that has arrived by the clock's reading,
// from any peer, into buf.
func (t *Transport) Receive(buf []byte) (n, peer int, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return 0, 0, false
	}
	now := t.clock.Now()
	var tmp [rollback.MaxMessage + 1]byte
	for range t.nw.Peers() {
		p := t.next
		t.next = (t.next + 1) % t.nw.Peers()
		if p == t.self {
			continue
		}
		for {
			k, ok := t.nw.Link(p, t.self).Receive(now, tmp[:])
			if !ok {
				break
			}
			if k > len(buf) {
				t.stats.Oversize++
				continue
			}
			t.stats.Received++
			t.stats.BytesReceived += uint64(k)
			return copy(buf, tmp[:k]), p, true
		}
	}
	return 0, 0, false
}

// Close stops the transport; it is idempotent.
func (t *Transport) Close() error {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	return nil
}

// Stats returns the transport's counts.
func (t *Transport) Stats() TransportStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stats
}
