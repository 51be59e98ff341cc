package framework_test

import (
	"testing"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
)

type identitySettings struct {
	Rounds int           `range:"1,9"`
	Speed  float64       `range:"0,10"`
	Rules  identityRules // the table [game.rules]
}

type identityRules struct {
	Gravity float64 `range:"0,100"`
}

// The identity hashes what decides the simulation, and nothing else: two
// peers whose windows or patience differ play together, two whose step,
// input delay or game rules differ are refused.
func TestConfigHashCoversTheSimulationOnly(t *testing.T) {
	hash := func(sets ...string) uint64 {
		t.Helper()
		g := netGame()
		s := &identitySettings{Rounds: 3, Speed: 2}
		g.Settings = s
		cfg, err := config.Build(config.Layers{Game: s, Sets: append([]string{"timing.mode=fixed"}, sets...)})
		if err != nil {
			t.Fatal(err)
		}
		if err := cfg.DecodeGame(s); err != nil {
			t.Fatal(err)
		}
		return framework.ConfigHash(g, cfg)
	}
	base := hash()
	for _, sets := range [][]string{
		{"window.width=1920", "window.height=1080"},
		{"net.timeout=30s", "net.join_timeout=10m"},
		{"audio.enabled=false", "timing.debt.max_speed_up=1.5"},
	} {
		if got := hash(sets...); got != base {
			t.Errorf("--set %q: hash %#x, want %#x as without (it does not decide the simulation)", sets, got, base)
		}
	}
	for _, sets := range [][]string{
		{"timing.step=20ms"},
		{"net.delay=3"},
		{"net.window=4"},
		{"net.hash_every=30"},
		{"game.rounds=5"},
		{"game.speed=2.5"},
		{"game.rules.gravity=9.8"},
	} {
		if got := hash(sets...); got == base {
			t.Errorf("--set %q: hash %#x, the same as without (it decides the simulation)", sets, got)
		}
	}
}
