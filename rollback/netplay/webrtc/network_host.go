//go:build !js

package webrtc

import (
	"time"

	"github.com/metronome-go/metronome/rollback/netplay"
)

// Listen hosts on addr, adding the match's ICE settings to cfg's; the
// pin goes in the join token.
func (n network) Listen(addr string, o netplay.ConduitOptions) (netplay.Conduit, []byte, error) {
	h, err := Listen(addr, n.cfg.WithICE(o.ICE, time.Now()))
	if err != nil {
		return nil, nil, err
	}
	return h, h.Pin().Bytes(), nil
}
