package rollback

import (
	"context"
	"errors"
	"strconv"
	"time"
)

// Transport carries a match's messages between its peers: the messages of
// [Session.AppendMessage] and whatever else the match layer above a
// session sends (joins, snapshots, pings). Delivery is best effort, as
// over UDP: a message may be lost, duplicated or reordered, never
// corrupted (a transport drops what fails its checks and counts it), and
// never larger than [MaxMessage]. Peers are numbered as in
// [Options.Players]'s Peer fields; a transport knows which address or
// connection is which peer once the match layer has said so.
//
// Send and Receive never block: a transport buffers what arrives and
// Receive returns it at the next call. A Transport belongs to one
// goroutine (the simulation's) unless the implementation says otherwise.
type Transport interface {
	// Send sends msg to peer. It does not keep msg after it returns.
	// An error means the message was not sent (an unknown peer, a closed
	// transport, a message over MaxMessage); a lost message is not an
	// error.
	Send(peer int, msg []byte) error
	// Receive copies the next message that has arrived into buf and
	// returns its length and sender; ok is false when none is waiting.
	// A message longer than buf is dropped and counted, not cut.
	Receive(buf []byte) (n, peer int, ok bool)
	// Close stops the transport and releases its sockets; Send and
	// Receive fail or return nothing after it. Close is idempotent.
	Close() error
}

// MaxMessage is the largest message a Transport carries: it fits one UDP
// datagram on every path a game is likely to meet (1200 bytes is QUIC's
// minimum datagram path size, less its overhead).
const MaxMessage = 1100

// ErrClosed is returned by a Transport's Send after Close.
var ErrClosed = errors.New("rollback: transport closed")

// PeerEventKind says what happened to a peer's connection.
type PeerEventKind uint8

const (
	// PeerDisconnected: nothing authenticated came from the peer for the
	// transport's timeout. Its slot stays its: it may come back.
	PeerDisconnected PeerEventKind = iota + 1
	// PeerLeft: the peer closed its match (it said goodbye) and will not
	// come back.
	PeerLeft
	// PeerReconnected: a disconnected peer is heard again, on its old
	// address or by joining again.
	PeerReconnected
	// PeerJoined: a spectator joined, or a player took a slot no one had
	// played in a match that started without it.
	PeerJoined
)

func (k PeerEventKind) String() string {
	switch k {
	case PeerDisconnected:
		return "disconnected"
	case PeerLeft:
		return "left"
	case PeerReconnected:
		return "reconnected"
	case PeerJoined:
		return "joined"
	}
	return "PeerEventKind(" + strconv.Itoa(int(k)) + ")"
}

// PeerEvent is a change in a peer's connection. A spectator's events
// (Spectator set) are Joined, then Disconnected or Left, after which its
// peer number is free for another spectator.
type PeerEvent struct {
	Peer      int
	Kind      PeerEventKind
	Spectator bool
}

// PeerWatcher is what a [Transport] that watches its peers' connections
// offers besides carrying messages. The match layer asks for it with a
// type assertion; a transport without it (an in-process pipe, a test
// double) has peers that never disconnect and no measured round trip.
type PeerWatcher interface {
	Transport
	// Event returns the next connection change, oldest first; ok is false
	// when none is waiting.
	Event() (ev PeerEvent, ok bool)
	// RTT returns the latest round trip measured to peer, 0 when none has
	// been measured (or for the caller's own peer number).
	RTT(peer int) time.Duration
}

// Starter is what a [Transport] that starts its peers together offers: a
// match's clocks start when every peer is ready, not when each process
// happened to get there ([Peer.Ready]).
type Starter interface {
	Transport
	// Ready tells the other peers this one is ready to run its first
	// tick and waits until all of them are, or ctx ends.
	Ready(ctx context.Context) error
}
