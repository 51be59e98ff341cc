package framework

import (
	"slices"
	"testing"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/rollback"
)

type settingsGame struct {
	ShipSpeed float64 `range:"0,1000"`
	Title     string
	Rules     struct{ Gravity int }
}

// A match's identity carries, key by key, the values its configuration
// hash covers, so that a host refusing a joiner names what differs.
func TestMatchSettingsNameTheHashedValues(t *testing.T) {
	s := &settingsGame{ShipSpeed: 260, Title: `a "# b"`}
	cfg, err := config.Build(config.Layers{Game: s, Sets: []string{"timing.mode=fixed", "net.delay=3", "window.width=640"}})
	if err != nil {
		t.Fatal(err)
	}
	got := matchSettings(cfg)
	for _, want := range []rollback.Setting{
		{Key: "timing.mode", Value: `"fixed"`},
		{Key: "net.delay", Value: "3"},
		{Key: "net.transport", Value: `"udp"`},
		{Key: "game.ship_speed", Value: "260.0"},
		{Key: "game.title", Value: `"a \"# b\""`},
		{Key: "game.rules.gravity", Value: "0"},
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no %+v in %+v", want, got)
		}
	}
	if slices.ContainsFunc(got, func(s rollback.Setting) bool { return s.Key == "window.width" || s.Key == "net.timeout" }) {
		t.Errorf("settings %+v hold a value the hash does not cover (window.width, net.timeout)", got)
	}
}
