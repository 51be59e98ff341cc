// Command platformer is a small platformer made with Metronome: a level
// drawn in Tiled, a player that runs and jumps against its tiles, coins,
// an exit, particles and sounds. It is the example to copy for a game
// built from content.
//
//	go run ./examples/platformer                  # play (needs a display)
//	go run ./examples/platformer --set game.jump_speed=400
//	go test ./examples/platformer                 # the game's headless tests
//
// Run with A/D, the arrow keys or a gamepad's left stick; jump with Space,
// W, Up or the gamepad's A button (hold it to jump higher). The menus
// take the arrows, Enter and Escape, a gamepad's d-pad, A and B, or the
// mouse.
//
// The code is split by concern, each file showing one part of the
// framework: main.go the Game and its settings, game.go the setup
// (actions, the map, states, systems), level.go the Tiled map (entities,
// collision rectangles, objects), player.go running and jumping against
// the tiles, effects.go particles, menus.go the title and options menus,
// hud.go the cameras and text, sounds.go generated sound effects.
package main

import (
	_ "embed"
	"time"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
)

// configTOML is the game's own configuration, compiled into the binary.
//
//go:embed config.toml
var configTOML []byte

// Settings are the game's tunables: the [game] table of config.toml,
// checked against the ranges in the tags before the window opens. The
// options screen shows each speed as a slider of 20 steps over its range;
// the ranges put every default on a step, so saving the screen untouched
// keeps them exactly.
type Settings struct {
	// RunSpeed is the player's speed at full deflection, in pixels per
	// second.
	RunSpeed float64 `toml:"run_speed" range:"30,630"`
	// JumpSpeed is the upward speed a jump starts with, in pixels per
	// second; with Gravity it sets the jump's height (v²/2g).
	JumpSpeed float64 `toml:"jump_speed" range:"30,1030"`
	// Gravity pulls the player down, in pixels per second squared.
	Gravity float64 `toml:"gravity" range:"100,4100"`
	// MaxFall caps the falling speed, in pixels per second.
	MaxFall float64 `toml:"max_fall" range:"20,1020"`
	// CoyoteTime is how long after running off a ledge a jump still
	// works, and JumpBuffer how long before landing a jump press is kept:
	// the two forgivenesses that make a platformer feel fair.
	CoyoteTime time.Duration `toml:"coyote_time" range:"0s,500ms"`
	JumpBuffer time.Duration `toml:"jump_buffer" range:"0s,500ms"`
	// Title shows the title menu first; false starts playing at once
	// (most tests, and a quick try of a setting).
	Title bool `toml:"title"`
}

// defaultSettings are the [game] table's defaults; config.toml repeats
// them for a player to read, and TestSettingsMatchConfig keeps the two
// the same.
func defaultSettings() Settings {
	return Settings{
		RunSpeed:   120,
		JumpSpeed:  330,
		Gravity:    900,
		MaxFall:    420,
		CoyoteTime: 100 * time.Millisecond,
		JumpBuffer: 100 * time.Millisecond,
		Title:      true,
	}
}

// newGame describes the platformer to the framework, its options menu
// saving to the player's file (see playerFile).
func newGame() framework.Game { return newGameSaving(playerFile) }

// playerFile is where the options menu saves: the file the configuration
// was read from (--config, or the config.toml beside the executable), or
// with neither the config.toml beside the executable. Either way the next
// start, with the same flags, reads what was saved.
func playerFile(cfg config.Config) string {
	if p := cfg.PlayerFile(); p != "" {
		return p
	}
	p, _ := config.FileBesideExecutable("config.toml")
	return p
}

// newGameSaving is newGame with the options menu's Save writing the file
// saveTo names for the configuration the game runs with ("" writes
// nothing). Each call has its own settings, so tests can run several
// games side by side, each with its own file.
func newGameSaving(saveTo func(config.Config) string) framework.Game {
	settings := defaultSettings()
	return framework.Game{
		Title:    "Platformer",
		Seed:     23, // seeds ctx.Rand: the sparkles of a coin
		Config:   configTOML,
		Settings: &settings,
		Setup:    func(s *framework.Setup) error { return setup(s, &settings, saveTo(s.Config)) },
	}
}

func main() {
	framework.Main(newGame())
}
