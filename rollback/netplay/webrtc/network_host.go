//go:build !js

package webrtc

import "github.com/metronome-go/metronome/rollback/netplay"

// Listen hosts on addr; the pin goes in the join token.
func (n network) Listen(addr string, _ netplay.ConduitOptions) (netplay.Conduit, []byte, error) {
	h, err := Listen(addr, n.cfg)
	if err != nil {
		return nil, nil, err
	}
	return h, h.Pin().Bytes(), nil
}
