package rollback_test

import (
	"errors"
	"testing"

	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/rollback"
)

// allowed returns what the *option.Error in err allows, "" without one.
func allowed(err error) string {
	var fe *option.Error
	if !errors.As(err, &fe) {
		return ""
	}
	return fe.Allowed
}

// Each range is stated once, in Options.Validate: MatchOptions, NewApp
// and NewFollower refuse a value out of it with the same words, as an
// *option.Error naming their own field.
func TestEachRangeIsStatedOnce(t *testing.T) {
	one := []rollback.Player{{}}
	opts := func(o rollback.Options) error {
		if o.Players == nil {
			o.Players = one
		}
		if o.Actions == 0 {
			o.Actions = 1
		}
		return o.Validate()
	}
	match := func(f func(*rollback.MatchOptions)) error {
		o := rollback.DefaultMatchOptions()
		f(&o)
		return o.Validate()
	}
	follower := func(players, actions, hashEvery int) error {
		_, err := rollback.NewFollower(nil, players, actions, hashEvery, 0, nil)
		return err
	}
	app := func(window int) error {
		_, err := rollback.NewApp(paddleGame(t, 2), window)
		return err
	}
	for _, c := range []struct {
		name  string
		owner error
		other []error
	}{
		{"window", opts(rollback.Options{Window: 65}), []error{match(func(o *rollback.MatchOptions) { o.Window = -1 }), app(65)}},
		{"hash interval", opts(rollback.Options{HashEvery: 3601}), []error{match(func(o *rollback.MatchOptions) { o.HashEvery = 3601 }), follower(1, 1, -1)}},
		{"actions", opts(rollback.Options{Actions: 65}), []error{follower(1, 0, 0)}},
		{"players", opts(rollback.Options{Players: make([]rollback.Player, 17)}), []error{follower(17, 1, 0)}},
		{"delay", opts(rollback.Options{Players: []rollback.Player{{Delay: 17}}}), []error{match(func(o *rollback.MatchOptions) { o.Delay = 17 })}},
	} {
		want := allowed(c.owner)
		if want == "" {
			t.Fatalf("%s: Options.Validate = %v, want an *option.Error", c.name, c.owner)
		}
		for i, err := range c.other {
			if got := allowed(err); got != want {
				t.Errorf("%s: caller %d allows %q (%v), Options %q: want the same words", c.name, i, got, err, want)
			}
		}
	}
}
