package rollback_test

import (
	"strings"
	"testing"

	"github.com/metronome-go/metronome/rollback"
)

// The lobby keys are checked in one place, the keys' owner: a ws:// or
// wss:// URL, one way to meet at most, each problem naming the fields.
func TestMatchOptionsLobbyKeys(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(*rollback.MatchOptions)
		want string // "" is valid
	}{
		{"a lobby by ws", func(o *rollback.MatchOptions) { o.Lobby, o.Create = "ws://127.0.0.1:7000", true }, ""},
		{"a lobby by wss", func(o *rollback.MatchOptions) { o.Lobby, o.Room = "wss://lobby.example", "KXR-4TQ" }, ""},
		{"http", func(o *rollback.MatchOptions) { o.Lobby = "http://127.0.0.1:7000" },
			"rollback: MatchOptions.Lobby http://127.0.0.1:7000 is not a lobby's URL; allowed: the lobby's ws://HOST:PORT or wss://HOST:PORT"},
		{"room and create", func(o *rollback.MatchOptions) { o.Room, o.Create = "KXR-4TQ", true },
			"rollback: MatchOptions.Create is given with MatchOptions.Room: give one way to meet; allowed: one of MatchOptions.Room, MatchOptions.Create and MatchOptions.Quick"},
		{"create and quick", func(o *rollback.MatchOptions) { o.Create, o.Quick = true, true }, "MatchOptions.Quick is given with MatchOptions.Create"},
	} {
		o := rollback.DefaultMatchOptions()
		c.set(&o)
		err := o.Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want nil", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// An identity's names are bounded, each problem named at once.
func TestIdentityValidate(t *testing.T) {
	if err := (rollback.Identity{Game: "duel", Version: "1.0"}).Validate(); err != nil {
		t.Errorf("a short identity: %v", err)
	}
	long := strings.Repeat("x", rollback.MaxIdentityName+1)
	err := rollback.Identity{Game: long, Version: long}.Validate()
	for _, want := range []string{"Identity.Game 65 is too long; allowed: up to 64 bytes", "Identity.Version 65 is too long"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("a long identity: %v, want %q", err, want)
		}
	}
}

// named is a network by name alone.
type named string

func (n named) Name() string { return string(n) }

// The networks a program lists and the transport it asks for are
// checked in one place, in the caller's own names.
func TestCheckNetworks(t *testing.T) {
	three := []rollback.Network{named("udp"), named("quic"), named("webrtc")}
	for _, c := range []struct {
		name      string
		transport rollback.TransportKind
		networks  []rollback.Network
		want      []string // nil is valid
	}{
		{"listed", "quic", three, nil},
		{"none listed", "quic", nil, nil},
		{"no transport", "", three, nil},
		{"not linked", "tcp", three, []string{`game: Net.Transport tcp is not a transport this program links; allowed: "udp", "quic" or "webrtc" (Net.Networks)`}},
		{"two linked", "tcp", three[:2], []string{`allowed: "udp" or "quic" (Net.Networks)`}},
		{"nil, bad and twice", "udp", []rollback.Network{named("udp"), nil, named("UDP!"), named("udp")},
			[]string{"Net.Networks[1] is nil", "Net.Networks[2] UDP! is not a network's name", "Net.Networks[3] udp is listed twice"}},
	} {
		err := rollback.CheckNetworks("game", "Net.Networks", "Net.Transport", c.transport, c.networks)
		if c.want == nil && err != nil {
			t.Errorf("%s: %v, want nil", c.name, err)
		}
		for _, want := range c.want {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want %q", c.name, err, want)
			}
		}
	}
}
