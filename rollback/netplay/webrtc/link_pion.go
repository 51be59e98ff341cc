//go:build !js

package webrtc

import (
	"fmt"
	"sync"
	"sync/atomic"

	pion "github.com/pion/webrtc/v4"
)

// link is one peer connection and its data channel: pion's natively,
// the browser's in a page (link_js.go), with the same methods.
//
// The offerer opens the channel in band (DCEP) and the answerer takes it
// as it arrives: pion applies a channel's ordering and retransmission
// settings to its SCTP stream only on the in-band open, so a negotiated
// channel (id agreed out of band) would be ordered and reliable natively
// whatever it asked for, and every lost packet would hold the messages
// behind it until retransmitted.
type link struct {
	pc *pion.PeerConnection
	dc atomic.Pointer[pion.DataChannel] // nil until offered or accepted

	mu      sync.Mutex // what to call on the channel, once it is there
	open    func()
	closed  func()
	message func([]byte)
}

func newLink(api *pion.API, cfg pion.Configuration) (*link, error) {
	pc, err := api.NewPeerConnection(cfg)
	if err != nil {
		return nil, fmt.Errorf("webrtc: peer connection: %w", err)
	}
	return &link{pc: pc}, nil
}

// attach makes dc the link's channel and hands it the callbacks set so
// far. Only the first channel counts: the answerer closes any other the
// offerer opens.
func (l *link) attach(dc *pion.DataChannel) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.dc.CompareAndSwap(nil, dc) {
		dc.Close()
		return
	}
	if l.open != nil {
		dc.OnOpen(l.open)
	}
	if l.closed != nil {
		dc.OnClose(l.closed)
	}
	if l.message != nil {
		f := l.message
		dc.OnMessage(func(m pion.DataChannelMessage) { f(m.Data) })
	}
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

func (l *link) onOpen(f func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open = f
	if dc := l.dc.Load(); dc != nil {
		dc.OnOpen(f)
	}
}

func (l *link) onClose(f func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = f
	if dc := l.dc.Load(); dc != nil {
		dc.OnClose(f)
	}
}

func (l *link) onMessage(f func([]byte)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.message = f
	if dc := l.dc.Load(); dc != nil {
		dc.OnMessage(func(m pion.DataChannelMessage) { f(m.Data) })
	}
}

// makeOffer opens the channel, unordered and never retransmitted, and
// offers it.
func (l *link) makeOffer() (string, error) {
	ordered, retransmits := false, uint16(0)
	dc, err := l.pc.CreateDataChannel(label, &pion.DataChannelInit{Ordered: &ordered, MaxRetransmits: &retransmits})
	if err != nil {
		return "", fmt.Errorf("webrtc: data channel: %w", err)
	}
	l.attach(dc)
	off, err := l.pc.CreateOffer(nil)
	if err == nil {
		err = l.pc.SetLocalDescription(off)
	}
	if err != nil {
		return "", fmt.Errorf("webrtc: offer: %w", err)
	}
	return off.SDP, nil
}

// makeAnswer answers an offer, taking the offerer's channel when it
// opens (with the settings it asked for: both ends are this package,
// natively or in a page). A channel of another label is closed.
func (l *link) makeAnswer(offer string) (string, error) {
	l.pc.OnDataChannel(func(dc *pion.DataChannel) {
		if dc.Label() != label {
			dc.Close()
			return
		}
		l.attach(dc)
	})
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

// send and buffered are for an open link, whose channel is there.
func (l *link) send(b []byte) error { return l.dc.Load().Send(b) }
func (l *link) buffered() uint64    { return l.dc.Load().BufferedAmount() }
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
