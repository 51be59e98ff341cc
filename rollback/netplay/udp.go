package netplay

import (
	"context"
	"errors"
	"net"
	"net/netip"
)

// UDPNetwork returns the plain UDP transport, named [UDP]: each packet in
// one datagram, nothing added on the wire, no handshake, no pin. List it
// in [Options.Networks] to play over UDP; a program that does not links
// no UDP socket code.
func UDPNetwork() Network { return udpNetwork{} }

// udpNetwork carries the [Driver], so a program that lists UDP links the
// code that plays a match.
type udpNetwork struct{ Driver }

func (udpNetwork) Name() string { return UDP }

func (udpNetwork) Listen(addr string, _ ConduitOptions) (Conduit, []byte, error) {
	c, err := listenUDP(addr)
	return c, nil, err
}

func (udpNetwork) Dial(_ context.Context, addr string, _ []byte, _ ConduitOptions) (Conduit, netip.AddrPort, error) {
	host, err := ResolveHost(addr)
	if err != nil {
		return nil, host, err
	}
	c, err := listenUDP(udpAny(host))
	return c, host, err
}

// udpConduit is a plain UDP socket.
type udpConduit struct {
	c    *net.UDPConn
	wire Wire
}

func listenUDP(addr string) (*udpConduit, error) {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, err
	}
	c, err := net.ListenUDP("udp", ua)
	if err != nil {
		return nil, err
	}
	return &udpConduit{c: c}, nil
}

func (u *udpConduit) ReadFrom(buf []byte) (int, netip.AddrPort, error) {
	for {
		n, from, err := u.c.ReadFromUDPAddrPort(buf)
		if err == nil {
			u.wire.Received(n, from.Addr())
			return n, Canonical(from), nil
		}
		if errors.Is(err, net.ErrClosed) {
			return 0, netip.AddrPort{}, err
		}
		// An ICMP error from an earlier send (a closed port on the other
		// side, reported on Linux as a read error): the socket is fine.
	}
}

func (u *udpConduit) WriteTo(b []byte, to netip.AddrPort) error {
	_, err := u.c.WriteToUDPAddrPort(b, to)
	if err == nil {
		u.wire.Sent(len(b), to.Addr())
	}
	if err != nil && !errors.Is(err, net.ErrClosed) {
		return nil // a full buffer or an unreachable peer: lost, as UDP is
	}
	return err
}

func (u *udpConduit) LocalAddr() net.Addr { return u.c.LocalAddr() }
func (u *udpConduit) Wire() *Wire         { return &u.wire }
func (u *udpConduit) Close() error        { return u.c.Close() }
