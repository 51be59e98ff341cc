// Package config reads a Metronome game's configuration: embedded defaults,
// then config.toml, then command-line overrides.
//
// # Keys
//
// The file has the tables [window], [runtime], [timing], [timing.debt],
// [polling] and [input.bindings]; [DefaultsTOML] returns every key with its
// default and a comment. Durations are strings with a unit ("16ms"), exact
// tick rates are integers or fraction strings ("30000/1001").
//
// # Errors
//
// Nothing starts with a half-valid configuration: [Parse] reports every
// problem at once, each a [*Error] naming the file, the key, the value as
// written and what is allowed. An unknown key suggests the nearest real one:
//
//	config: game.toml: timing.recovry: unknown key (did you mean timing.recovery?)
//	config: game.toml: timing.max_fixed_updates = 0: out of range; allowed: an integer from 1 to 1000
//
// # Overrides
//
// [Config.Set] takes "key=value" with the same keys, which is how the
// framework's --set flag and the demo's timing flags reach the
// configuration; call [Config.Validate] after the last override.
//
//	c, err := config.Load("config.toml")
//	if err != nil {
//		log.Fatal(err)
//	}
//	if err := c.Set("timing.mode=fixed"); err != nil {
//		log.Fatal(err)
//	}
package config
