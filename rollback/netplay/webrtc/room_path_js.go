//go:build js

package webrtc

import (
	"fmt"
	"net/netip"
	"time"
)

// PeerPath is how an end reaches one peer; see the native build.
type PeerPath struct {
	Relayed        bool
	RTT            time.Duration
	Sent, Received uint64
}

// Path reports the path to the peer at addr, once connected, from the
// browser's statistics of the selected candidate pair.
func (e *RoomEnd) Path(addr netip.AddrPort) (PeerPath, error) {
	e.Conduit.mu.Lock()
	p := e.Conduit.peers[addr]
	e.Conduit.mu.Unlock()
	if p == nil {
		return PeerPath{}, fmt.Errorf("webrtc: no peer %v: connected peers only", addr)
	}
	pp, err := p.path()
	if err != nil {
		return PeerPath{}, fmt.Errorf("webrtc: peer %v: %w", addr, err)
	}
	return pp, nil
}
