//go:build js

package webrtc

import (
	"errors"
	"net/netip"
	"time"
)

// PeerPath is how an end reaches one peer; see the native build.
type PeerPath struct {
	Relayed        bool
	RTT            time.Duration
	Sent, Received uint64
}

// Path fails in a page: the browser keeps the selected candidate pair in
// its statistics, which pion's wrapper does not read.
func (e *RoomEnd) Path(netip.AddrPort) (PeerPath, error) {
	return PeerPath{}, errors.New("webrtc: a page cannot read its path to a peer (the browser's ICE statistics are out of reach)")
}
