//go:build js

package webrtc

import (
	"net"
	"net/netip"
)

// joiner is a page's ICE stack: the browser's RTCPeerConnection.
type joiner struct {
	newLink func() (*link, error)
	conduit *Conduit
	stop    func() error
}

// pageAddr is a page's nominal local address: it has no socket of its own.
var pageAddr = &net.UDPAddr{IP: net.IPv4zero}

func newJoiner(cfg Config) (*joiner, error) {
	return &joiner{newLink: func() (*link, error) { return newLink(cfg) }, conduit: newConduit(pageAddr), stop: func() error { return nil }}, nil
}

// A page counts the data channel's messages: the browser's sockets are
// out of its reach.
func (c *Conduit) countRecv(n int, from netip.Addr) { c.wire.Received(n, from) }
func (c *Conduit) countSent(n int, to netip.Addr)   { c.wire.Sent(n, to) }
