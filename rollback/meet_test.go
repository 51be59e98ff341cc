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
