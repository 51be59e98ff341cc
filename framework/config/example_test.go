package config_test

import (
	"fmt"

	"github.com/metronome-go/metronome/framework/config"
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
// value and what is allowed.
func Example_errors() {
	file := []byte(`
[timing]
recovry = "repay-debt"
max_fixed_updates = 0
`)
	_, err := config.Parse("config.toml", file, config.Default())
	fmt.Println(err)
	// Output:
	// config: config.toml: timing.max_fixed_updates = 0: out of range; allowed: an integer from 1 to 64
	// config: config.toml: timing.recovry: unknown key (did you mean timing.recovery?)
}
