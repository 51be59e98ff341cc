//go:build !js

package webrtc

import (
	"fmt"
	"net/netip"
	"time"

	pion "github.com/pion/webrtc/v4"
)

// PeerPath is how an end reaches one peer: what a player is shown
// ("relayed, 42 ms") and what a test compares between paths.
type PeerPath struct {
	// Relayed says the selected candidate pair runs through a TURN relay
	// at either end.
	Relayed bool
	// RTT is ICE's latest round trip on the pair; zero until measured.
	RTT time.Duration
	// Sent and Received are the pair's bytes of DTLS and SCTP, without
	// IP, UDP or TURN framing: equal work on any path.
	Sent, Received uint64
}

// Path reports the path to the peer at addr, once connected.
func (e *RoomEnd) Path(addr netip.AddrPort) (PeerPath, error) {
	e.Conduit.mu.Lock()
	p := e.Conduit.peers[addr]
	e.Conduit.mu.Unlock()
	if p == nil {
		return PeerPath{}, fmt.Errorf("webrtc: no peer %v: connected peers only", addr)
	}
	ice := p.pc.SCTP().Transport().ICETransport()
	pair, err := ice.GetSelectedCandidatePair()
	if err != nil || pair == nil {
		return PeerPath{}, fmt.Errorf("webrtc: peer %v has no selected path yet (%v)", addr, err)
	}
	var pp PeerPath
	pp.Relayed = pair.Local.Typ == pion.ICECandidateTypeRelay || pair.Remote.Typ == pion.ICECandidateTypeRelay
	if st, ok := ice.GetSelectedCandidatePairStats(); ok {
		pp.RTT = time.Duration(st.CurrentRoundTripTime * float64(time.Second))
		pp.Sent, pp.Received = st.BytesSent, st.BytesReceived
	}
	return pp, nil
}
