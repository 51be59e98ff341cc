package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
)

type playerSettings struct {
	Volume int    `range:"0,10"`
	Mode   string `choice:"easy,normal,hard"`
	Music  bool
}

// TestWritePlayerFile saves a changed [game] key and a rebound action into
// an existing player file, keeping its other keys, and reads it back as a
// game would; a file that does not parse is left alone.
func TestWritePlayerFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte("[window]\nwidth = 800\n[input.bindings]\nfire = [\"F\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defaults := playerSettings{Volume: 5, Mode: "normal"}
	cfg, err := config.Build(config.Layers{Game: &defaults, File: path})
	if err != nil {
		t.Fatal(err)
	}
	keys := cfg.GameKeys()
	if len(keys) != 3 || keys[0].Key != "game.volume" || keys[0].Min != 0 || keys[0].Max != 10 || len(keys[1].Choices) != 3 {
		t.Fatalf("GameKeys = %+v", keys)
	}
	if err := cfg.Set("game.volume=7"); err != nil {
		t.Fatal(err)
	}
	actions := input.NewActions()
	jump := actions.MustRegister("jump", input.KeySpace, input.GamepadA)
	fire := actions.MustRegister("fire", input.KeyX)
	actions.MustRegister("duck", input.KeyS)
	if err := actions.Configure(map[string][]string{"fire": {"F"}}); err != nil {
		t.Fatal(err)
	}
	if err := actions.Rebind(jump, input.KeyW, input.GamepadA); err != nil {
		t.Fatal(err)
	}
	if err := actions.Reset(fire); err != nil { // back to its default: its line goes
		t.Fatal(err)
	}
	if err := cfg.WritePlayerFile(path, actions); err != nil {
		t.Fatal(err)
	}
	again, err := config.Build(config.Layers{Game: &defaults, File: path})
	if err != nil {
		t.Fatalf("the written file does not load: %v", err)
	}
	var s playerSettings
	if err := again.DecodeGame(&s); err != nil {
		t.Fatal(err)
	}
	if s.Volume != 7 || s.Mode != "normal" {
		t.Errorf("read back %+v, want volume 7, mode normal", s)
	}
	if again.Window.Width != 800 {
		t.Errorf("window.width %d, want the file's 800 kept", again.Window.Width)
	}
	data, _ := os.ReadFile(path)
	for _, want := range []string{`jump = ["W", "GamepadA"]`, "volume = 7"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("file lacks %s:\n%s", want, data)
		}
	}
	for _, gone := range []string{"fire", "duck", "mode"} {
		if strings.Contains(string(data), gone) {
			t.Errorf("file names %s, which the player did not change:\n%s", gone, data)
		}
	}

	broken := []byte("[window\nwidth = 800\n")
	if err := os.WriteFile(path, broken, 0o644); err != nil {
		t.Fatal(err)
	}
	err = cfg.WritePlayerFile(path, actions)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("WritePlayerFile over a broken file: %v, want an error naming it", err)
	}
	if data, _ := os.ReadFile(path); string(data) != string(broken) {
		t.Error("the broken file was overwritten")
	}
}

// TestPlayerFile: a configuration remembers the file layer it was built
// from, the file a player's changes are saved to, and copies keep it.
func TestPlayerFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mine.toml")
	if err := os.WriteFile(path, []byte("[window]\nwidth = 800\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Build(config.Layers{Embedded: []byte("[window]\nheight = 600\n"), File: path, Sets: []string{"window.width=640"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.PlayerFile(); got != path {
		t.Errorf("PlayerFile() = %q, want %q", got, path)
	}
	if err := cfg.Set("window.width=900"); err != nil || cfg.PlayerFile() != path {
		t.Errorf("after Set: PlayerFile() = %q (%v), want %q", cfg.PlayerFile(), err, path)
	}
	none, err := config.Build(config.Layers{Embedded: []byte("[window]\nheight = 600\n")})
	if err != nil {
		t.Fatal(err)
	}
	if got := none.PlayerFile(); got != "" {
		t.Errorf("without a file: PlayerFile() = %q, want \"\"", got)
	}
}
