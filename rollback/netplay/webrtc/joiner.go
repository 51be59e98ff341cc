//go:build !js

package webrtc

import (
	"fmt"
	"net"

	"github.com/pion/transport/v5"
	"github.com/pion/transport/v5/stdnet"
	pion "github.com/pion/webrtc/v4"
)

// joiner is a joining end's ICE stack: natively, like the host's, one
// counted UDP socket for its peer connection.
type joiner struct {
	newLink func() (*link, error)
	conduit *Conduit
	stop    func() error
}

func newJoiner(cfg Config) (*joiner, error) {
	tn := cfg.Net
	addr := "127.0.0.1:0"
	if tn == nil {
		var err error
		if tn, err = stdnet.NewNet(); err != nil {
			return nil, fmt.Errorf("webrtc: %w", err)
		}
		addr = "0.0.0.0:0"
	} else if ip := firstAddr(tn); ip != "" {
		addr = ip + ":0" // a virtual network: its first address not loopback
	}
	udp, err := tn.ListenPacket("udp4", addr)
	if err != nil {
		return nil, fmt.Errorf("webrtc: joiner socket: %w", err)
	}
	c := newConduit(udp.LocalAddr())
	cu := &counted{PacketConn: udp, w: &c.wire}
	mux := pion.NewICEUDPMux(quiet(), cu)
	api, pcfg := newAPI(mux, tn), iceConfig(cfg)
	return &joiner{newLink: func() (*link, error) { return newLink(api, pcfg) }, conduit: c, stop: mux.Close}, nil
}

// firstAddr is a network's first IPv4 address that is not loopback.
func firstAddr(tn transport.Net) string {
	ifs, err := tn.Interfaces()
	if err != nil {
		return ""
	}
	for _, ifc := range ifs {
		as, err := ifc.Addrs()
		if err != nil {
			continue
		}
		for _, a := range as {
			if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
				return n.IP.String()
			}
		}
	}
	return ""
}
