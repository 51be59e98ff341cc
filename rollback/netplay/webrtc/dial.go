package webrtc

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"

	"github.com/coder/websocket"
)

// Path is where a host serves signalling: ws://ADDR/metronome/webrtc.
const Path = "/metronome/webrtc"

// Dial joins the host whose signalling is at addr ("192.0.2.1:7777", or
// a ws:// URL) with the pin its token carries, and returns a Conduit
// whose one peer is the host, known by the address [Dial] returns. It
// fails with a *[Refusal] saying why when either side refuses (a wrong
// token, a fingerprint not the pin's, a handshake past Config.Timeout),
// or with ctx's error.
func Dial(ctx context.Context, addr string, pin Pin, cfg Config) (*Conduit, netip.AddrPort, error) {
	if err := cfg.Validate(); err != nil {
		return nil, netip.AddrPort{}, err
	}
	cfg = cfg.withDefaults()
	url, hostKey, err := signalURL(addr)
	if err != nil {
		return nil, netip.AddrPort{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	ws, resp, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		if resp != nil && resp.StatusCode == 503 {
			return nil, hostKey, &Refusal{Reason: "the host is busy with other joins; try again", Remote: true}
		}
		return nil, hostKey, fmt.Errorf("webrtc: signalling at %s: %w", url, err)
	}
	ws.SetReadLimit(MaxMessage)
	s := newSignaller(ctx, ws)
	defer s.close()
	j, err := newJoiner(cfg)
	if err != nil {
		s.refuse(err)
		return nil, hostKey, err
	}
	l, err := j.newLink()
	if err != nil {
		j.stop()
		s.refuse(err)
		return nil, hostKey, err
	}
	p, err := s.offer(l, pin)
	if err != nil {
		l.close()
		j.stop()
		s.refuse(err)
		return nil, hostKey, err
	}
	s.done()
	c := j.conduit
	c.stop = j.stop
	c.add(hostKey, p)
	return c, hostKey, nil
}

// signalURL is the WebSocket URL of a host address and the address its
// datagrams are known by.
func signalURL(addr string) (string, netip.AddrPort, error) {
	hostport := addr
	url := addr
	if rest, ok := strings.CutPrefix(addr, "ws://"); ok {
		hostport, _, _ = strings.Cut(rest, "/")
	} else if rest, ok := strings.CutPrefix(addr, "wss://"); ok {
		hostport, _, _ = strings.Cut(rest, "/")
	} else {
		url = "ws://" + addr + Path
	}
	ap, err := netip.ParseAddrPort(hostport)
	if err != nil {
		ta, rerr := net.ResolveTCPAddr("tcp", hostport)
		if rerr != nil {
			return "", netip.AddrPort{}, fmt.Errorf("webrtc: join %q: needs a host address with a port, such as 192.0.2.1:7777 (%v)", addr, rerr)
		}
		ap = ta.AddrPort()
	}
	if ap.Port() == 0 {
		return "", netip.AddrPort{}, fmt.Errorf("webrtc: join %q: needs a host address with a port, such as 192.0.2.1:7777", addr)
	}
	return url, netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), nil
}
