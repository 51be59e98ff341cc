package netplay

import (
	"net"
	"net/netip"
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
	close() error
}

const connectionGone = -1

// canonical makes addresses comparable: an IPv4 address seen through a
// dual-stack socket is the IPv4 address.
func canonical(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}
