//go:build !js

package lobbynet_test

import (
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/internal/coturntest"
	"github.com/metronome-go/metronome/lobby/server"
	"github.com/metronome-go/metronome/rollback/netplay/lobbynet"
	"github.com/metronome-go/metronome/rollback/netplay/webrtc"
)

// A match relayed through a real coturn, with TURN credentials the lobby
// signed, ends on the same confirmed hash as a direct one in the same
// run; the test logs the round trip and the bytes each path carried.
func TestRelayedThroughCoturnAsDirect(t *testing.T) {
	const secret = "lobbynet-test-secret"
	turn := coturntest.Start(t, secret)
	url := startLobby(t, server.Options{TURNSecret: []byte(secret), TURNURLs: []string{"turn:" + turn}})
	const ticks = 300
	var hash [2]uint64
	var path [2]webrtc.PeerPath
	for i, relay := range []bool{false, true} {
		ms, ls := meetByCode(t, url, func(int) lobbynet.Options {
			return lobbynet.Options{Config: webrtc.Config{Relay: relay}}
		})
		start := time.Now()
		hash[i] = play(t, ms, ticks)
		secs := time.Since(start).Seconds()
		pp, err := ms[1].Path(ms[1].Peers[0])
		if err != nil {
			t.Fatal(err)
		}
		path[i] = pp
		if pp.Relayed != relay || ms[1].Relayed[0] != relay {
			t.Errorf("relay forced %v, path relayed %v: %s", relay, pp.Relayed, ls[1])
		}
		if relay && !strings.Contains(ls[1].String(), "(relayed, round trip") {
			t.Errorf("the guest's lines %q do not say the path is relayed", ls[1])
		}
		t.Logf("relayed %v: round trip %v, guest sent %d B and received %d B of DTLS/SCTP on the pair (%.0f B/s up) over %.1f s",
			relay, pp.RTT, pp.Sent, pp.Received, float64(pp.Sent)/secs, secs)
		for _, m := range ms {
			m.Close()
		}
	}
	if hash[0] != hash[1] {
		t.Errorf("direct confirmed hash %x, relayed %x", hash[0], hash[1])
	}
	t.Logf("the relay added %v of round trip", path[1].RTT-path[0].RTT)
}
