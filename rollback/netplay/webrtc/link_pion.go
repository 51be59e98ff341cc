//go:build !js

package webrtc

import (
	"fmt"

	pion "github.com/pion/webrtc/v4"
)

// link is one peer connection and its data channel: pion's natively,
// the browser's in a page (link_js.go), with the same methods.
type link struct {
	pc *pion.PeerConnection
	dc *pion.DataChannel
}

func newLink(api *pion.API, cfg pion.Configuration) (*link, error) {
	pc, err := api.NewPeerConnection(cfg)
	if err != nil {
		return nil, fmt.Errorf("webrtc: peer connection: %w", err)
	}
	ordered, retransmits, negotiated, id := false, uint16(0), true, uint16(channelID)
	dc, err := pc.CreateDataChannel(label, &pion.DataChannelInit{Ordered: &ordered, MaxRetransmits: &retransmits, Negotiated: &negotiated, ID: &id})
	if err != nil {
		pc.Close()
		return nil, fmt.Errorf("webrtc: data channel: %w", err)
	}
	return &link{pc: pc, dc: dc}, nil
}

func (l *link) onCandidate(f func(candidate, mid string)) {
	l.pc.OnICECandidate(func(c *pion.ICECandidate) {
		if c == nil {
			return
		}
		init := c.ToJSON()
		mid := ""
		if init.SDPMid != nil {
			mid = *init.SDPMid
		}
		f(init.Candidate, mid)
	})
}

// onEnd calls f when the connection fails or closes.
func (l *link) onEnd(f func(failed bool)) {
	l.pc.OnConnectionStateChange(func(s pion.PeerConnectionState) {
		if s == pion.PeerConnectionStateFailed || s == pion.PeerConnectionStateClosed {
			f(s == pion.PeerConnectionStateFailed)
		}
	})
}

func (l *link) onOpen(f func())  { l.dc.OnOpen(f) }
func (l *link) onClose(f func()) { l.dc.OnClose(f) }
func (l *link) onMessage(f func([]byte)) {
	l.dc.OnMessage(func(m pion.DataChannelMessage) { f(m.Data) })
}

func (l *link) makeOffer() (string, error) {
	off, err := l.pc.CreateOffer(nil)
	if err == nil {
		err = l.pc.SetLocalDescription(off)
	}
	if err != nil {
		return "", fmt.Errorf("webrtc: offer: %w", err)
	}
	return off.SDP, nil
}

func (l *link) makeAnswer(offer string) (string, error) {
	if err := l.pc.SetRemoteDescription(pion.SessionDescription{Type: pion.SDPTypeOffer, SDP: offer}); err != nil {
		return "", &Refusal{Reason: "an offer that does not parse: " + clip(err.Error())}
	}
	ans, err := l.pc.CreateAnswer(nil)
	if err != nil {
		return "", &Refusal{Reason: "no answer to the offer: " + clip(err.Error())}
	}
	if err := l.pc.SetLocalDescription(ans); err != nil {
		return "", fmt.Errorf("webrtc: answer: %w", err)
	}
	return ans.SDP, nil
}

func (l *link) takeAnswer(sdp string) error {
	if err := l.pc.SetRemoteDescription(pion.SessionDescription{Type: pion.SDPTypeAnswer, SDP: sdp}); err != nil {
		return &Refusal{Reason: "an answer that does not parse: " + clip(err.Error())}
	}
	return nil
}

func (l *link) addCandidate(candidate, mid string) error {
	return l.pc.AddICECandidate(pion.ICECandidateInit{Candidate: candidate, SDPMid: &mid})
}

func (l *link) send(b []byte) error { return l.dc.Send(b) }
func (l *link) buffered() uint64    { return l.dc.BufferedAmount() }
func (l *link) close() error        { return l.pc.Close() }

// iceConfig is the peer connection configuration of Config's servers and
// policy.
func iceConfig(cfg Config) pion.Configuration {
	var pc pion.Configuration
	if len(cfg.STUN) > 0 {
		pc.ICEServers = append(pc.ICEServers, pion.ICEServer{URLs: cfg.STUN})
	}
	for _, t := range cfg.TURN {
		pc.ICEServers = append(pc.ICEServers, pion.ICEServer{URLs: []string{t.URL}, Username: t.Username, Credential: t.Credential})
	}
	if cfg.Relay {
		pc.ICETransportPolicy = pion.ICETransportPolicyRelay
	}
	return pc
}
