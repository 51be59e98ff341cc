//go:build !js

package webrtc_test

import (
	"context"
	"net"
	"reflect"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/rollback/netplay/webrtc"
	"github.com/metronome-go/metronome/timing"
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
	// The host waits longer, so that the joiner's own deadline ends the
	// handshake (with one deadline each side's came first by turns on a
	// loaded machine).
	hostCfg := cfg
	hostCfg.Timeout = 6 * time.Second
	h := listen(t, hostCfg)
	_, _, err := webrtc.Dial(context.Background(), h.SignalAddr().String(), h.Pin(), cfg)
	if err == nil {
		t.Fatal("a relay-only join with bad credentials connected")
	}
	refused(t, err, false, "did not finish in time")
	if n := server.AllocationCount(); n != 0 {
		t.Errorf("the relay holds %d allocations for bad credentials", n)
	}
}

// A match's ICE settings (the [net] table's keys, netplay.Options.ICE)
// reach the network through ConduitOptions: with ice_policy "relay" and
// a relay's shared secret, a host and a joiner whose webrtc.Config names
// no server connect through the relay only, each logged in with
// credentials made from the secret.
func TestTheMatchsICESettingsRelay(t *testing.T) {
	url, server := relay(t, "north-secret")
	nw := webrtc.Network(webrtc.Config{})
	o := netplay.ConduitOptions{Timeout: 5 * time.Second, PingEvery: 100 * time.Millisecond, Clock: timing.SystemClock{},
		ICE: rollback.ICE{TURN: []string{url}, TURNSecret: "north-secret", Policy: rollback.ICERelay}}
	hc, pin, err := nw.Listen("127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hc.Close() })
	h := hc.(*webrtc.Host)
	hostRx := reader(t, h.Conduit)
	jc, hostKey, err := nw.Dial(context.Background(), h.SignalAddr().String(), pin, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { jc.Close() })
	j := jc.(*webrtc.Conduit)
	joinRx := reader(t, j)
	g := exchange(t, j, hostKey, []byte("relayed"), hostRx)
	exchange(t, h.Conduit, g.from, []byte("relayed back"), joinRx)
	if n := server.AllocationCount(); n < 2 {
		t.Errorf("the relay holds %d allocations; want one for each end", n)
	}
}

// WithICE adds a match's settings to a Config: STUN servers after the
// Config's own, each relay with the table's login or credentials made
// from its secret, and relaying only under policy "relay".
func TestWithICE(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	base := webrtc.Config{STUN: []string{"stun:own.example.org:3478"}}
	got := base.WithICE(rollback.ICE{STUN: []string{"stun:net.example.org:3478"}, TURN: []string{"turn:a.example.org:3478", "turns:b.example.org:5349"}, TURNSecret: "s"}, now)
	user, pass := webrtc.TURNCredentials("s", "metronome", now.Add(24*time.Hour))
	want := webrtc.Config{STUN: []string{"stun:own.example.org:3478", "stun:net.example.org:3478"},
		TURN: []webrtc.TURN{{URL: "turn:a.example.org:3478", Username: user, Credential: pass}, {URL: "turns:b.example.org:5349", Username: user, Credential: pass}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with a secret:\n got %+v\nwant %+v", got, want)
	}
	if len(base.STUN) != 1 {
		t.Errorf("WithICE changed the Config it was called on: %q", base.STUN)
	}
	got = webrtc.Config{}.WithICE(rollback.ICE{TURN: []string{"turn:a.example.org:3478"}, TURNUsername: "u", TURNPassword: "p", Policy: rollback.ICERelay}, now)
	want = webrtc.Config{TURN: []webrtc.TURN{{URL: "turn:a.example.org:3478", Username: "u", Credential: "p"}}, Relay: true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with a login and relay:\n got %+v\nwant %+v", got, want)
	}
	if got := (webrtc.Config{}).WithICE(rollback.ICE{}, now); !reflect.DeepEqual(got, webrtc.Config{}) {
		t.Errorf("the zero ICE: got %+v, want the zero Config", got)
	}
}
