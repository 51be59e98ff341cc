package netplay

import (
	"errors"
	"net"
	"net/netip"
)

// udpConduit is a plain UDP socket.
type udpConduit struct {
	c    *net.UDPConn
	wire *wire
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
	return &udpConduit{c: c, wire: new(wire)}, nil
}

func (u *udpConduit) read(buf []byte) (int, netip.AddrPort, error) {
	for {
		n, from, err := u.c.ReadFromUDPAddrPort(buf)
		if err == nil {
			u.wire.received(n, from.Addr())
			return n, canonical(from), nil
		}
		if errors.Is(err, net.ErrClosed) {
			return 0, netip.AddrPort{}, err
		}
		// An ICMP error from an earlier send (a closed port on the other
		// side, reported on Linux as a read error): the socket is fine.
	}
}

func (u *udpConduit) write(to netip.AddrPort, b []byte) error {
	_, err := u.c.WriteToUDPAddrPort(b, to)
	if err == nil {
		u.wire.sent(len(b), to.Addr())
	}
	if err != nil && !errors.Is(err, net.ErrClosed) {
		return nil // a full buffer or an unreachable peer: lost, as UDP is
	}
	return err
}

func (u *udpConduit) addr() net.Addr { return u.c.LocalAddr() }
func (u *udpConduit) counts() *wire  { return u.wire }
func (u *udpConduit) close() error   { return u.c.Close() }
