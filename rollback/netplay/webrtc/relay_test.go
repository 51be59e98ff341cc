//go:build !js

package webrtc_test

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback/netplay/webrtc"
	"github.com/pion/transport/v5/stdnet"
	"github.com/pion/turn/v5"
)

// relay starts pion's TURN server on loopback, checking credentials as
// coturn's REST API does (use-auth-secret), and returns its URL.
func relay(t *testing.T, secret string) (string, *turn.Server) {
	t.Helper()
	udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tn, err := stdnet.NewNet()
	if err != nil {
		t.Fatal(err)
	}
	s, err := turn.NewServer(turn.ServerConfig{
		Realm:         "metronome.test",
		AuthHandler:   turn.LongTermTURNRESTAuthHandler(secret, quietLogs().NewLogger("turn")),
		LoggerFactory: quietLogs(),
		PacketConnConfigs: []turn.PacketConnConfig{{
			PacketConn:            udp,
			RelayAddressGenerator: &turn.RelayAddressGeneratorStatic{RelayAddress: net.IPv4(127, 0, 0, 1), Address: "127.0.0.1", Net: tn},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return "turn:" + udp.LocalAddr().String(), s
}

// With Relay, both ends reach each other only through the TURN relay,
// logged in with TURNCredentials' time-limited credentials.
func TestRelayOnlyGoesThroughTURN(t *testing.T) {
	url, server := relay(t, "north-secret")
	user, pass := webrtc.TURNCredentials("north-secret", "player", time.Now().Add(time.Hour))
	cfg := webrtc.Config{TURN: []webrtc.TURN{{URL: url, Username: user, Credential: pass}}, Relay: true}
	h := listen(t, cfg)
	hostRx := reader(t, h.Conduit)
	j, hostKey, err := webrtc.Dial(context.Background(), h.SignalAddr().String(), h.Pin(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	joinRx := reader(t, j)
	g := exchange(t, j, hostKey, []byte("relayed"), hostRx)
	exchange(t, h.Conduit, g.from, []byte("relayed back"), joinRx)
	if n := server.AllocationCount(); n < 2 {
		t.Errorf("the relay holds %d allocations; want one for each end", n)
	}
}

// Credentials signed with another secret get no relay, so a relay-only
// join finds no path and is refused at its deadline.
func TestRelayRefusesOtherCredentials(t *testing.T) {
	url, server := relay(t, "north-secret")
	user, pass := webrtc.TURNCredentials("south-secret", "player", time.Now().Add(time.Hour))
	cfg := webrtc.Config{TURN: []webrtc.TURN{{URL: url, Username: user, Credential: pass}}, Relay: true, Timeout: 2 * time.Second}
	h := listen(t, cfg)
	_, _, err := webrtc.Dial(context.Background(), h.SignalAddr().String(), h.Pin(), cfg)
	if err == nil {
		t.Fatal("a relay-only join with bad credentials connected")
	}
	refused(t, err, false, "did not finish in time")
	if n := server.AllocationCount(); n != 0 {
		t.Errorf("the relay holds %d allocations for bad credentials", n)
	}
}
