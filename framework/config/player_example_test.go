package config_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
)

// A settings menu changed the volume and rebound jump; the player's file
// gets both, and keeps what it said before.
func ExampleConfig_WritePlayerFile() {
	dir, _ := os.MkdirTemp("", "player")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "config.toml")
	_ = os.WriteFile(path, []byte("[window]\nwidth = 800\n"), 0o644)

	type Settings struct {
		Volume int `range:"0,10"`
	}
	cfg, _ := config.Build(config.Layers{Game: &Settings{Volume: 5}, File: path})
	actions := input.NewActions()
	jump := actions.MustRegister("jump", input.KeySpace)

	_ = cfg.Set("game.volume=8")              // the menu's slider
	_ = actions.Rebind(jump, input.KeyW)      // the menu's binding row
	err := cfg.WritePlayerFile(path, actions) // the menu's Save
	data, _ := os.ReadFile(path)
	fmt.Print(string(data), err)
	// Output:
	// [game]
	//   volume = 8
	//
	// [input]
	//   [input.bindings]
	//     jump = ["W"]
	//
	// [window]
	//   width = 800
	// <nil>
}
