package config_test

import (
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework/config"
)

// TestOverride: a replay's --set may change the presentation keys and
// leave the others at their recorded values; a [game] key or a binding it
// changes is refused, naming the key and the recorded value.
func TestOverride(t *testing.T) {
	rec := withGame(t)
	got, err := rec.Override("", []string{"window.width=640", "audio.enabled=false", "render.filter=nearest", "game.lives=3"})
	if err != nil {
		t.Fatalf("Override with presentation keys and a recorded value: %v", err)
	}
	if got.Window.Width != 640 || got.Audio.Enabled || got.Source("window.width").Origin != config.FromCommandLine {
		t.Errorf("Override: width %d, audio %v, source %v; want 640, off, the command line", got.Window.Width, got.Audio.Enabled, got.Source("window.width"))
	}
	if rec.Window.Width == 640 || !rec.Audio.Enabled {
		t.Error("Override changed the recorded configuration")
	}
	for _, tt := range []struct{ set, want string }{
		{"game.lives=5", `game.lives = 5: a replay runs with the recorded configuration (3)`},
		{"input.bindings.jump=Space", `input.bindings.jump = ["Space"]: a replay runs with the recorded configuration (none)`},
		{"window.logical_size=320x200", `window.logical_size = "320x200"`},
		{"window.focus_policy=pause", `window.focus_policy = "pause"`},
	} {
		if _, err := rec.Override("", []string{tt.set}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Override(--set %s): got %v, want %q", tt.set, err, tt.want)
		}
	}
}
