package netplay

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/timing"
)

// A Network is a transport a match can run over, by name: [UDPNetwork]
// here, QUIC in package rollback/netplay/quicnet, others in their own
// packages. A game links only the networks it names in
// [Options.Networks], so one that plays over UDP alone links no TLS and
// no QUIC. Its methods may be called from any goroutine.
type Network interface {
	// Name is the transport's name as a join token and a configuration
	// spell it ("udp", "quic"): 1 to 16 lower-case letters, digits or
	// '-'.
	Name() string
	// Listen opens the host's end on addr (":7777", "127.0.0.1:0"). pin
	// is what a joiner needs to trust this host and no other (QUIC: the
	// SHA-256 fingerprint of the session's certificate; UDP: nothing),
	// at most MaxPin bytes; it travels in the join token.
	Listen(addr string, o ConduitOptions) (c Conduit, pin []byte, err error)
	// Dial opens a joiner's end towards the host at addr, as the user
	// gave it to [Join] ("192.0.2.1:7777"), trusting only a host that
	// proves pin, the token's. host is the address the host's datagrams
	// come from and go to through c. Dial gives up with ctx or after
	// o.Timeout without an answer, when it waits for one at all.
	Dial(ctx context.Context, addr string, pin []byte, o ConduitOptions) (c Conduit, host netip.AddrPort, err error)
}

// MaxPin bounds the pin a [Network] puts in a join token.
const MaxPin = 64

// ConduitOptions is what a match tells its [Network] when it opens a
// [Conduit]: a network with its own timers (handshakes, keep-alives)
// sets them from these.
type ConduitOptions struct {
	// Timeout is [Options.Timeout]: how long a peer may stay silent.
	Timeout time.Duration
	// PingEvery is how often the match pings every peer.
	PingEvery time.Duration
	// Clock is [Options.Clock], never nil: a conduit that waits reads it.
	Clock timing.Clock
	// ICE is [Options.ICE], for a network that finds its paths with ICE.
	ICE rollback.ICE
}

// A Conduit carries datagrams between this end and addresses: a UDP
// socket, or the connections of a QUIC endpoint. The match above it does
// every check (authentication, replays, sizes); a conduit only moves
// bytes. ReadFrom is called by one goroutine at a time; WriteTo, LocalAddr
// and Wire by any goroutine, concurrently; Close once, from any goroutine.
type Conduit interface {
	// ReadFrom waits for a datagram, copies it into buf and returns its
	// length (a longer one is cut to len(buf), which is bigger than any
	// valid packet) and its sender, canonical ([Canonical]). It blocks
	// until a datagram comes or Close is called. err is [ErrPeerGone],
	// with from set, when the conduit knows the peer at from has gone (a
	// QUIC connection ended; its TLS authenticates the end, so the match
	// takes it as a bye); any other error means the conduit is closed.
	ReadFrom(buf []byte) (n int, from netip.AddrPort, err error)
	// WriteTo sends b to an address without blocking and without keeping
	// b; a datagram it cannot queue is lost, not an error. An error means
	// the conduit is closed, or b cannot be sent at all.
	WriteTo(b []byte, to netip.AddrPort) error
	// LocalAddr is the address this end listens on.
	LocalAddr() net.Addr
	// Wire is the conduit's wire counts, which the match's Stats report.
	Wire() *Wire
	// Close stops the conduit and frees its port; a blocked ReadFrom
	// returns.
	Close() error
}

// ErrPeerGone is what [Conduit.ReadFrom] returns when the peer at the
// address it returns has gone.
var ErrPeerGone = errors.New("netplay: peer gone")

// Canonical makes addresses comparable: an IPv4 address seen through a
// dual-stack socket is the IPv4 address. A conduit returns its senders
// in this form, and the match writes to them in it.
func Canonical(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}

// Header bytes of a UDP datagram on the wire: the IP header and UDP's 8.
const (
	ipv4UDPHeader = 20 + 8
	ipv6UDPHeader = 40 + 8
)

// Wire counts the datagrams a conduit sends and receives and their bytes
// on the wire, IP and UDP headers included: what a relay or a capture on
// the path counts. A conduit counts every datagram it puts on its socket,
// its own protocol's (handshakes, acks, keep-alives) as well as the
// match's. Any goroutine may count. The zero Wire counts nothing yet.
type Wire struct {
	sentPackets, sentBytes, recvPackets, recvBytes atomic.Uint64
}

// headerBytes is the IP and UDP header of a datagram to or from a, by a's
// family (an IPv4 address seen through a dual-stack socket is IPv4).
func headerBytes(a netip.Addr) uint64 {
	if a.Unmap().Is4() {
		return ipv4UDPHeader
	}
	return ipv6UDPHeader
}

// Sent counts a datagram of n bytes of UDP payload sent to an address.
func (w *Wire) Sent(n int, to netip.Addr) {
	w.sentPackets.Add(1)
	w.sentBytes.Add(uint64(n) + headerBytes(to))
}

// Received counts a datagram of n bytes of UDP payload received from an
// address.
func (w *Wire) Received(n int, from netip.Addr) {
	w.recvPackets.Add(1)
	w.recvBytes.Add(uint64(n) + headerBytes(from))
}

// Counts returns what was sent and received so far.
func (w *Wire) Counts() (sent, received Traffic) {
	return Traffic{w.sentPackets.Load(), w.sentBytes.Load()}, Traffic{w.recvPackets.Load(), w.recvBytes.Load()}
}

// networkName reports whether s is a valid [Network.Name].
func networkName(s string) bool {
	if len(s) == 0 || len(s) > 16 {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}

// udpAny is the wildcard address of the host address's family, port 0:
// where a joiner's socket listens.
func udpAny(host netip.AddrPort) string {
	if host.Addr().Is4() {
		return "0.0.0.0:0"
	}
	return "[::]:0"
}

// ResolveHost resolves a host address given to [Join] ("192.0.2.1:7777",
// "example.org:7777") to the canonical address of its UDP port, with a
// clear error when it names none: the first step of a [Network.Dial] over
// UDP.
func ResolveHost(addr string) (netip.AddrPort, error) {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return netip.AddrPort{}, err
	}
	host := Canonical(ua.AddrPort())
	if !host.IsValid() || host.Port() == 0 {
		return netip.AddrPort{}, errors.New("needs a host address with a port, such as 192.0.2.1:7777")
	}
	return host, nil
}
