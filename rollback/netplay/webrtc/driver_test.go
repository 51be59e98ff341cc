package webrtc

import (
	"testing"

	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/rollback"
)

// TestNetworkCarriesTheDriver: a game that lists WebRTC alone (a page
// that only joins) has its matches played, as one listing UDP or QUIC
// does: framework finds the driver on the listed network.
func TestNetworkCarriesTheDriver(t *testing.T) {
	type replayer interface {
		Replay(r *recording.Reader, players, actions int) (rollback.Replay, error)
	}
	if _, ok := Network(Config{}).(replayer); !ok {
		t.Fatal("webrtc.Network carries no netplay.Driver: a game listing WebRTC alone cannot play a match")
	}
}
