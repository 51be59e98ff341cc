package rollback_test

import (
	"strings"
	"testing"

	"github.com/metronome-go/metronome/rollback"
)

// Each bad ICE setting is refused naming its field; the good ones pass.
func TestICEValidate(t *testing.T) {
	relay := []string{"turn:relay.example.org:3478"}
	long := strings.Repeat("x", 257)
	tests := []struct {
		name string
		ice  rollback.ICE
		want []string // substrings of the error, none for valid
	}{
		{"zero", rollback.ICE{}, nil},
		{"stun", rollback.ICE{STUN: []string{"stun:stun.example.org:3478", "stuns:s.example.org:5349"}}, nil},
		{"secret", rollback.ICE{TURN: relay, TURNSecret: "s", Policy: rollback.ICERelay}, nil},
		{"login", rollback.ICE{TURN: append(relay, "turns:b.example.org:5349"), TURNUsername: "u", TURNPassword: "p"}, nil},
		{"stun without scheme", rollback.ICE{STUN: []string{"stun.example.org:3478"}}, []string{"ICE.STUN stun.example.org:3478 is not a STUN server's URL"}},
		{"stun scheme alone", rollback.ICE{STUN: []string{"stun:"}}, []string{"ICE.STUN"}},
		{"turn as stun", rollback.ICE{TURN: []string{"stun:x.example.org:3478"}, TURNSecret: "s"}, []string{"ICE.TURN stun:x.example.org:3478 is not a TURN relay's URL"}},
		{"relay without login", rollback.ICE{TURN: relay}, []string{"ICE.TURN", "without a login"}},
		{"secret and login", rollback.ICE{TURN: relay, TURNSecret: "s", TURNUsername: "u", TURNPassword: "p"}, []string{"ICE.TURNSecret", "with a username or password"}},
		{"username alone", rollback.ICE{TURN: relay, TURNUsername: "u"}, []string{"ICE.TURNUsername", "without its password"}},
		{"password alone", rollback.ICE{TURN: relay, TURNPassword: "p"}, []string{"ICE.TURNUsername", "without its password"}},
		{"secret for no relay", rollback.ICE{TURNSecret: "s"}, []string{"ICE.TURNSecret", "a login for no relay"}},
		{"login for no relay", rollback.ICE{TURNUsername: "u", TURNPassword: "p"}, []string{"ICE.TURNUsername", "a login for no relay"}},
		{"long secret", rollback.ICE{TURN: relay, TURNSecret: long}, []string{"ICE.TURNSecret 257 is too long; allowed: at most 256 bytes"}},
		{"relay policy alone", rollback.ICE{Policy: rollback.ICERelay}, []string{"ICE.Policy relay needs a relay"}},
		{"unknown policy", rollback.ICE{Policy: 7}, []string{"ICE.Policy ICEPolicy(7) is not a policy"}},
		{"all at once", rollback.ICE{STUN: []string{"x"}, TURN: []string{"y"}, Policy: rollback.ICERelay}, []string{"ICE.STUN", "ICE.TURN y is not", "without a login"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.ice.Validate()
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("got %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("got nil, want an error saying %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got %v, want it to say %q", err, w)
				}
			}
		})
	}
}

// The policy reads and writes its two words, and refuses others.
func TestICEPolicyText(t *testing.T) {
	for _, p := range []rollback.ICEPolicy{rollback.ICEAll, rollback.ICERelay} {
		b, _ := p.MarshalText()
		var back rollback.ICEPolicy
		if err := back.UnmarshalText(b); err != nil || back != p {
			t.Errorf("%v: read back %v, %v", p, back, err)
		}
	}
	var p rollback.ICEPolicy
	if err := p.UnmarshalText([]byte("direct")); err == nil || !strings.Contains(err.Error(), `want "all" or "relay"`) {
		t.Errorf("UnmarshalText(direct) = %v, want a refusal naming the words", err)
	}
}

// A match met through a lobby may force relaying with no relay of its
// own: the lobby hands out its relays' credentials. Met by address, it
// still needs one.
func TestRelayPolicyWithALobby(t *testing.T) {
	o := rollback.DefaultMatchOptions()
	o.ICE.Policy = rollback.ICERelay
	if err := o.Validate(); err == nil || !strings.Contains(err.Error(), "ICE.Policy relay needs a relay") {
		t.Errorf("relay with no relay and no lobby: got %v, want the policy refused", err)
	}
	o.Lobby, o.Create = "ws://127.0.0.1:8000", true
	if err := o.Validate(); err != nil {
		t.Errorf("relay through a lobby: got %v, want nil", err)
	}
}
