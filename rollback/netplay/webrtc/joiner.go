//go:build !js

package webrtc

import (
	"fmt"
	"net"

	"github.com/pion/transport/v5/stdnet"
	pion "github.com/pion/webrtc/v4"
)

// joiner is a joining end's ICE stack: natively, like the host's, one
// counted UDP socket for its peer connection.
type joiner struct {
	api     *pion.API
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
	} else if ifs, err := tn.Interfaces(); err == nil {
		// A virtual network: the socket goes on its first address.
		for _, ifc := range ifs {
			if as, err := ifc.Addrs(); err == nil && len(as) > 0 && ifc.Name != "lo0" && ifc.Name != "lo" {
				addr = ipOf(as[0]) + ":0"
				break
			}
		}
	}
	udp, err := tn.ListenPacket("udp4", addr)
	if err != nil {
		return nil, fmt.Errorf("webrtc: joiner socket: %w", err)
	}
	c := newConduit(udp.LocalAddr())
	cu := &counted{PacketConn: udp, w: &c.wire}
	mux := pion.NewICEUDPMux(quiet(), cu)
	return &joiner{api: newAPI(mux, tn), conduit: c, stop: mux.Close}, nil
}

func ipOf(a net.Addr) string {
	if n, ok := a.(*net.IPNet); ok {
		return n.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}
