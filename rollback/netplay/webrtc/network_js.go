//go:build js

package webrtc

import "github.com/metronome-go/metronome/rollback/netplay"

func (network) Listen(string, netplay.ConduitOptions) (netplay.Conduit, []byte, error) {
	return nil, nil, ErrNoHost
}
