package config_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
)

// A game's config.toml overlays the embedded defaults; command-line
// overrides come last.
func Example() {
	file := []byte(`
[timing]
mode = "fixed"
rate = 60
max_fixed_updates = 2
recovery = "repay-debt"
`)
	cfg, err := config.Parse("config.toml", file, config.Default())
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := cfg.Set("timing.debt.max_speed_up=1.1"); err != nil {
		fmt.Println(err)
		return
	}
	opts, err := cfg.RuntimeOptions("config.toml")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(opts.Timing.Mode, opts.Timing.Rate, opts.Timing.Recovery, opts.Timing.Debt.MaxSpeedUp)
	// Output: fixed 60/1 Hz repay-debt 1.1
}

// Every problem is reported at once, each naming the file, the key, the
// value and what the owning package allows.
func Example_errors() {
	file := []byte(`
[timing]
recovry = "repay-debt"
max_fixed_updates = 0
[timing.debt]
gain = 0
`)
	_, err := config.Parse("config.toml", file, config.Default())
	fmt.Println(err)
	// Output:
	// config: config.toml: timing.debt.gain = 0: out of range; allowed: above 0 up to 10
	// config: config.toml: timing.max_fixed_updates = 0: out of range; allowed: 1 to 64
	// config: config.toml: timing.recovry: unknown key (did you mean timing.recovery?)
}

// A game declares its own settings as a struct; they become the [game]
// table, with ranges and choices from the struct tags and defaults from the
// struct's values.
func ExampleConfig_WithGame() {
	type Settings struct {
		Lives      int           `toml:"lives" range:"1,9"`
		Difficulty string        `toml:"difficulty" choice:"easy,normal,hard"`
		Respawn    time.Duration `toml:"respawn" range:"0s,10s"`
	}
	settings := Settings{Lives: 3, Difficulty: "normal", Respawn: time.Second}
	cfg, err := config.Default().WithGame(&settings)
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg, err = config.Parse("config.toml", []byte("[game]\nlives = 5\nrespawn = \"2.5s\"\n"), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cfg.Set("game.difficulty=hrad"))
	if err := cfg.DecodeGame(&settings); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%+v\n", settings)
	// Output:
	// config: command line: game.difficulty = hrad: unknown value (did you mean "hard"?); allowed: "easy", "normal", "hard"
	// {Lives:5 Difficulty:normal Respawn:2.5s}
}

// Build stacks a game's layers: defaults, the game's embedded file, the
// file beside the game, then --set. Every key remembers its source, and
// EffectiveTOML prints them (--print-config).
func ExampleBuild() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "config.toml")
	_ = os.WriteFile(path, []byte("[timing]\nmax_fixed_updates = 4\n"), 0o644)

	embedded := []byte("[timing]\nmode = \"fixed\"\nmax_fixed_updates = 2\n[window]\ntitle = \"Breakout\"\n")
	cfg, err := config.Build(config.Layers{Embedded: embedded, File: path, Sets: []string{"timing.rate=120"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(string(cfg.EffectiveTOML()), "\n") {
		if strings.HasPrefix(line, "title =") || strings.HasPrefix(line, "mode = \"fixed\"") ||
			strings.HasPrefix(line, "rate =") || strings.HasPrefix(line, "max_fixed_updates =") {
			fmt.Println(strings.ReplaceAll(line, dir, "DIR"))
		}
	}
	// Output:
	// title = "Breakout"                   # embedded config.toml
	// mode = "fixed"                       # embedded config.toml
	// rate = 120                           # command line
	// max_fixed_updates = 4                # DIR/config.toml
}

// Bindings for actions the game never registered are errors, checked once
// the game has registered its actions.
func ExampleConfig_CheckBindings() {
	cfg, err := config.Parse("config.toml", []byte("[input.bindings]\nlanch = [\"Space\"]\n"), config.Default())
	if err != nil {
		fmt.Println(err)
		return
	}
	actions := input.NewActions()
	actions.MustRegister("launch", input.KeyEnter)
	actions.MustRegisterAxis("move", input.ButtonAxis(input.KeyLeft, input.KeyRight))
	fmt.Println(cfg.CheckBindings(actions))
	// Output:
	// config: config.toml: input.bindings.lanch = ["Space"]: the game registers no action "lanch" (did you mean "launch"?); allowed: an action the game registers: "launch", "move"
}
