package netplay

import (
	"net"
	"net/netip"
	"sync/atomic"
	"time"
)

// A conduit carries datagrams between this end and addresses: a UDP
// socket, or the connections of a QUIC endpoint. The match above it does
// every check; a conduit only moves bytes.
type conduit interface {
	// read waits for a datagram, copies it into buf and returns its
	// length (longer ones are cut to len(buf), which is bigger than any
	// valid packet) and sender; n is connectionGone when the QUIC
	// connection from that address ended (its TLS authenticates the end
	// as a bye). It blocks until a datagram comes or close is called; an
	// error means the conduit is closed.
	read(buf []byte) (n int, from netip.AddrPort, err error)
	// write sends b to an address without blocking; a datagram it cannot
	// queue is lost, not an error.
	write(to netip.AddrPort, b []byte) error
	addr() net.Addr
	// counts returns the socket's wire counts.
	counts() *wire
	close() error
}

const connectionGone = -1

// canonical makes addresses comparable: an IPv4 address seen through a
// dual-stack socket is the IPv4 address.
func canonical(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}

// Header bytes of a UDP datagram on the wire: the IP header and UDP's 8.
const (
	ipv4UDPHeader = 20 + 8
	ipv6UDPHeader = 40 + 8
)

// wire counts the datagrams a socket sends and receives and their bytes
// on the wire, headers included: what a relay or a capture on the path
// counts. Any goroutine may count.
type wire struct {
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

func (w *wire) sent(n int, to netip.Addr) {
	w.sentPackets.Add(1)
	w.sentBytes.Add(uint64(n) + headerBytes(to))
}

func (w *wire) received(n int, from netip.Addr) {
	w.recvPackets.Add(1)
	w.recvBytes.Add(uint64(n) + headerBytes(from))
}

// addrOf is the IP address of a socket address.
func addrOf(a net.Addr) netip.Addr {
	if ua, ok := a.(*net.UDPAddr); ok {
		return ua.AddrPort().Addr()
	}
	return netip.Addr{}
}

// counted is the socket a QUIC endpoint runs on, counting what passes
// through it: QUIC's own packets (handshake, acks, its pings) as well as
// those that carry the match's datagrams. It is a plain net.PacketConn on
// purpose: quic-go would use a *net.UDPConn's batched calls, which pass
// these methods by.
type counted struct {
	c *net.UDPConn
	w *wire
}

func (c counted) ReadFrom(b []byte) (int, net.Addr, error) {
	n, addr, err := c.c.ReadFrom(b)
	if err == nil {
		c.w.received(n, addrOf(addr))
	}
	return n, addr, err
}

func (c counted) WriteTo(b []byte, addr net.Addr) (int, error) {
	n, err := c.c.WriteTo(b, addr)
	if err == nil {
		c.w.sent(n, addrOf(addr))
	}
	return n, err
}

// SetReadBuffer and SetWriteBuffer let quic-go size the socket's buffers
// as it would the bare socket's.
func (c counted) SetReadBuffer(n int) error  { return c.c.SetReadBuffer(n) }
func (c counted) SetWriteBuffer(n int) error { return c.c.SetWriteBuffer(n) }

func (c counted) Close() error                       { return c.c.Close() }
func (c counted) LocalAddr() net.Addr                { return c.c.LocalAddr() }
func (c counted) SetDeadline(t time.Time) error      { return c.c.SetDeadline(t) }
func (c counted) SetReadDeadline(t time.Time) error  { return c.c.SetReadDeadline(t) }
func (c counted) SetWriteDeadline(t time.Time) error { return c.c.SetWriteDeadline(t) }
