package webrtc_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback/netplay/webrtc"
)

func TestTURNCredentialsAreCoturns(t *testing.T) {
	// The password computed apart, by Python's hmac module.
	user, pass := webrtc.TURNCredentials("north-secret", "alice", time.Unix(1700000000, 0))
	if user != "1700000000:alice" || pass != "g+jb180fcj+xlpA/2mP60OdIgU0=" {
		t.Fatalf("credentials %q, %q; want %q, %q", user, pass, "1700000000:alice", "g+jb180fcj+xlpA/2mP60OdIgU0=")
	}
}

func TestConfigValidateNamesEveryField(t *testing.T) {
	err := webrtc.Config{
		STUN:       []string{"stun.example.org:3478"},
		TURN:       []webrtc.TURN{{URL: "relay.example.org"}},
		Timeout:    time.Millisecond,
		Handshakes: 100,
	}.Validate()
	for _, want := range []string{"Config.STUN[0]", "Config.TURN[0].URL", "Config.TURN[0]", "Config.Timeout", "Config.Handshakes"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v; want %s named", err, want)
		}
	}
	if err := (webrtc.Config{Relay: true}).Validate(); err == nil || !strings.Contains(err.Error(), "without a TURN server") {
		t.Errorf("Relay without TURN: error %v; want it refused", err)
	}
	if err := (webrtc.Config{}).Validate(); err != nil {
		t.Errorf("zero Config: %v", err)
	}
}

func ExampleTURNCredentials() {
	user, pass := webrtc.TURNCredentials("north-secret", "alice", time.Unix(1700000000, 0))
	fmt.Println(user, pass)
	// Output: 1700000000:alice g+jb180fcj+xlpA/2mP60OdIgU0=
}
