package webrtc

import (
	"errors"
	"net"
	"net/netip"
	"sync"

	"github.com/metronome-go/metronome/rollback/netplay"
)

const (
	rxLen = 256 // datagrams received from every peer, waiting for the match
	// maxBuffered is how many bytes may wait in a data channel before a
	// datagram is dropped instead: a datagram that would wait behind
	// hundreds of others is too late to be of use, as on a full socket.
	maxBuffered = 64 << 10
	label       = "metronome"
)

// ErrClosed is returned by [Conduit.ReadFrom] and [Conduit.WriteTo] once
// the conduit is closed.
var ErrClosed = errors.New("webrtc: conduit closed")

type datagram struct {
	from netip.AddrPort
	b    []byte // nil: the peer's connection is gone
}

// A Conduit is a [netplay.Conduit] that carries datagrams between this end and its peers, one
// unordered data channel each with no retransmission, so that a datagram
// arrives once, late or not at all, as over UDP. Peers are known by an
// address: a joiner's is the address its signalling connection came
// from, the host's the address the joiner dialled. Any goroutine may call
// its methods.
type Conduit struct {
	rx     chan datagram
	closed chan struct{}
	once   sync.Once
	local  net.Addr
	wire   netplay.Wire

	mu    sync.Mutex
	peers map[netip.AddrPort]*link

	stop func() error // the host's or joiner's own resources, after the peers
}

func newConduit(local net.Addr) *Conduit {
	return &Conduit{rx: make(chan datagram, rxLen), closed: make(chan struct{}), local: local, peers: map[netip.AddrPort]*link{}}
}

// add makes a peer of an open data channel, replacing a peer of the same
// address (the same end, joining again).
func (c *Conduit) add(addr netip.AddrPort, p *link) {
	c.mu.Lock()
	select {
	case <-c.closed: // closed during the handshake
		c.mu.Unlock()
		p.close()
		return
	default:
	}
	old := c.peers[addr]
	c.peers[addr] = p
	c.mu.Unlock()
	if old != nil {
		old.close()
	}
	p.onMessage(func(b []byte) {
		c.countRecv(len(b), addr.Addr())
		select {
		case c.rx <- datagram{from: addr, b: b}:
		default: // the match is behind: lost, as on a full socket
		}
	})
	gone := func() {
		c.mu.Lock()
		mine := c.peers[addr] == p
		if mine {
			delete(c.peers, addr)
		}
		c.mu.Unlock()
		if mine {
			p.close()
			select {
			case c.rx <- datagram{from: addr}:
			case <-c.closed:
			}
		}
	}
	p.onClose(func() { go gone() })
	p.onEnd(func(bool) { go gone() })
}

// ReadFrom waits for a datagram, copies it into buf and returns its
// length (a longer one is cut to len(buf)) and sender. The error is
// [netplay.ErrPeerGone], with from set, when the connection to that peer
// has ended (DTLS authenticates the end, so the match may take it as a
// bye). It blocks until a datagram comes or Close is called; then it
// returns ErrClosed.
func (c *Conduit) ReadFrom(buf []byte) (n int, from netip.AddrPort, err error) {
	select {
	case d := <-c.rx:
		if d.b == nil {
			return 0, d.from, netplay.ErrPeerGone
		}
		return copy(buf, d.b), d.from, nil
	case <-c.closed:
		return 0, netip.AddrPort{}, ErrClosed
	}
}

// WriteTo sends b to a peer without blocking. A datagram to an unknown
// peer, or one that would wait behind more than 64 KiB in its channel, is
// lost, not an error; the error is ErrClosed once the conduit is closed.
func (c *Conduit) WriteTo(b []byte, to netip.AddrPort) error {
	select {
	case <-c.closed:
		return ErrClosed
	default:
	}
	c.mu.Lock()
	p := c.peers[to]
	c.mu.Unlock()
	if p == nil || p.buffered() > maxBuffered {
		return nil
	}
	if p.send(b) == nil {
		c.countSent(len(b), to.Addr())
	}
	return nil
}

// LocalAddr is the local address: the host's UDP socket, a joiner's
// socket natively, the page's nominal address in a browser.
func (c *Conduit) LocalAddr() net.Addr { return c.local }

// Wire returns the conduit's counts. Natively they are the datagrams on
// the UDP socket every peer connection of the end shares (ICE, DTLS and
// SCTP included, with their IP and UDP headers); relayed traffic runs on
// the TURN client's own sockets and is not counted. In a page they are
// the data channel's messages with a UDP header each: the browser's
// sockets are out of reach.
func (c *Conduit) Wire() *netplay.Wire { return &c.wire }

// Close closes every peer connection and what the conduit listens on,
// and waits for the conduit's goroutines. It may be called more than
// once.
func (c *Conduit) Close() error {
	var err error
	c.once.Do(func() {
		close(c.closed)
		c.mu.Lock()
		peers := c.peers
		c.peers = map[netip.AddrPort]*link{}
		c.mu.Unlock()
		var errs []error
		for _, p := range peers {
			errs = append(errs, p.close())
		}
		if c.stop != nil {
			errs = append(errs, c.stop())
		}
		err = errors.Join(errs...)
	})
	return err
}
