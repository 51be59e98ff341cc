package demo_test

import (
	"strings"
	"testing"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/ecs"
)

// TestOverlayNamesBoundKeys: the overlay's keys line comes from the
// bindings in force, the registered ones or a player's overrides, so the
// keys are written once (issue 28).
func TestOverlayNamesBoundKeys(t *testing.T) {
	for _, tt := range []struct {
		name string
		sets []string
		want string
	}{
		{"registered", nil, "keys: WASD move, Space dash, F fire, Equal/Minus bunnies, 1/2/3 stall, 4 suspend, 5 slow update, 6 slow render, H hide, F11 fullscreen, F5 save"},
		{"rebound", []string{"input.bindings.dash=E", "input.bindings.save=F6"}, "keys: WASD move, E dash, F fire, Equal/Minus bunnies, 1/2/3 stall, 4 suspend, 5 slow update, 6 slow render, H hide, F11 fullscreen, F6 save"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, sim := newSim(t, demo.Options{Sprites: 5, Seed: 6}, tt.sets...)
			if err := sim.RunTicks(60); err != nil {
				t.Fatal(err)
			}
			var lines []string
			q := ecs.NewFilter1[ecs.Text](sim.App.World()).Query()
			for q.Next() {
				for _, l := range strings.Split(q.Get().Content, "\n") {
					if strings.HasPrefix(l, "keys: ") {
						lines = append(lines, l)
					}
				}
			}
			if len(lines) != 1 || lines[0] != tt.want {
				t.Errorf("keys lines %q, want one: %q", lines, tt.want)
			}
		})
	}
}
