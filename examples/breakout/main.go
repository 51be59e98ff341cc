// Command breakout is a complete Breakout made with Metronome: the example to
// copy when starting a game of your own.
//
//	go run ./examples/breakout                  # play (needs a display)
//	go run ./examples/breakout --set game.lives=5
//	go run ./examples/breakout --print-config   # every key, with where it came from
//	go test ./examples/breakout                 # the game's headless tests
//
// Steer the paddle with A/D, the arrow keys or a gamepad's left stick; Space
// (or the gamepad's A button) starts a game and P (or Start) pauses it.
//
// The code is split by concern, each file showing one part of the framework:
// main.go the Game and its settings, game.go the setup (actions, assets,
// states, systems), level.go the bricks, paddle.go the input axis, ball.go
// the swept collisions, powerup.go a timed effect in ticks of play, hud.go the
// text, sounds.go generated sound effects.
package main

import (
	_ "embed"
	"time"

	"github.com/metronome-go/metronome/framework"
)

// configTOML is the game's own configuration, compiled into the binary: the
// window, 120 Hz fixed ticks, the key bindings and the [game] settings. A
// config.toml beside the executable, --config FILE and --set key=value
// override it.
//
//go:embed config.toml
var configTOML []byte

// Settings are the game's own tunables: the [game] table of config.toml.
// The framework checks every value against the range in its tag before the
// window opens, so the game code can trust them.
type Settings struct {
	// Lives is how many balls the player may lose before the game is over.
	Lives int `toml:"lives" range:"1,9"`
	// BallSpeed is the ball's speed in logical pixels per second.
	BallSpeed float64 `toml:"ball_speed" range:"100,6000"`
	// PaddleSpeed is how fast the paddle moves at full deflection.
	PaddleSpeed float64 `toml:"paddle_speed" range:"100,3000"`
	// Rows and Columns size the wall of bricks.
	Rows    int `toml:"rows" range:"1,6"`
	Columns int `toml:"columns" range:"1,12"`
	// ServeDelay is how long the ball rests on the paddle before it leaves.
	ServeDelay time.Duration `toml:"serve_delay" range:"10ms,5s"`
	// PowerUpChance is the chance that a broken brick drops a power-up.
	PowerUpChance float64 `toml:"power_up_chance" range:"0,1"`
	// WideTime is how long the wide paddle lasts.
	WideTime time.Duration `toml:"wide_time" range:"1s,60s"`
	// Demo lets the computer play: the game starts by itself and the paddle
	// follows the ball (an arcade's attract mode, and the screenshot).
	Demo bool `toml:"demo"`
	// Debug draws every collision box and the ball's velocity on top of
	// the game (debug.go: shapes drawn with ctx.Draw).
	Debug bool `toml:"debug"`
}

// defaultSettings are the [game] table's defaults, the layer under the
// embedded config.toml. That file repeats them, for a player to read and
// edit; TestSettingsMatchConfig keeps the two the same.
func defaultSettings() Settings {
	return Settings{
		Lives:         3,
		BallSpeed:     420,
		PaddleSpeed:   720,
		Rows:          6,
		Columns:       12,
		ServeDelay:    time.Second,
		PowerUpChance: 0.15,
		WideTime:      8 * time.Second,
	}
}

// newGame describes Breakout to the framework. Each call has its own
// settings, which the framework fills from the configuration before Setup
// runs, so tests can run several games side by side.
func newGame() framework.Game {
	settings := defaultSettings()
	return framework.Game{
		Title:    "Breakout",
		Seed:     17, // seeds ctx.Rand: which bricks drop power-ups
		Config:   configTOML,
		Settings: &settings,
		Setup:    func(s *framework.Setup) error { return setup(s, &settings) },
	}
}

func main() {
	framework.Main(newGame())
}
