// Package config reads a Metronome game's configuration: the framework's
// embedded defaults, then the game's own embedded config.toml, then the
// file beside the game (or --config), then command-line overrides.
//
// # Keys
//
// The file has the tables [window], [runtime], [render], [timing],
// [timing.debt], [polling], [audio], [net], [input.bindings] and, for the
// game's own settings, [game]; [DefaultsTOML] returns every framework key
// with its default, what it does and the range it allows. Durations are
// strings with a unit ("16ms"), exact tick rates are whole numbers or
// fraction strings ("30000/1001").
//
// # One range, stated once
//
// The tables are the owning packages' option structs ([Config.Timing] is a
// [timing.Options], [Window] embeds a [window.Options]): a key is its
// field's toml tag, or its name in snake_case, and a value has its field's
// type, whose package reads and writes its text (a [timing.Rate], an
// [input.Size]). The ranges are the owners': the config asks each owner's
// Validate and reports its *option.Error values under the key, with the
// keys of the other options they name and what the owner allows. A value
// is checked when it is read, whatever other keys say. A problem the owner
// marks relative, wrong only against another option (a prefix above the
// update limit), is checked once all layers are in, so keys and --set
// overrides may come in any order.
//
// # Errors
//
// Nothing starts with a half-valid configuration: [Parse], [Build] and
// [Config.Override] report every problem at once (the first [MaxProblems],
// then a count of the rest), each a [*Error] naming the file, the key, the
// value as written and what is allowed. Before anything is parsed, a
// document is limited to [MaxFileSize] bytes and [MaxDepth] levels of
// nesting, and a file must be a regular file: a FIFO or a device is
// refused unopened. An unknown key suggests the nearest real one. For this
// game.toml:
//
//	[timing]
//	recovry = "repay-debt"
//	max_fixed_updates = 0
//	rate = 120.5
//
// Parse reports:
//
//	config: game.toml: timing.max_fixed_updates = 0: out of range; allowed: 1 to 64
//	config: game.toml: timing.rate = 120.5: a rate is exact, so it is a whole number of Hz or a fraction string "N/D": write 120.5 Hz as "241/2"
//	config: game.toml: timing.recovry: unknown key (did you mean timing.recovery?)
//
// # Layers and sources
//
// [Build] takes the layers of [Layers] in order; every key remembers which
// one set it ([Config.Source]), and [Config.EffectiveTOML] prints the
// configuration in force with each value's source, for --print-config.
// [Config.Set] takes "key=value" with the same keys, which is how --set and
// the demo's timing flags reach the configuration.
//
// One key's source changes what it means: timing.interval applies as set
// only when a layer sets it ([Config.IntervalSet]); left at its default,
// variable timing follows the presentation instead
// (runtime.Options.FollowPresentation), and --print-config says which.
//
//	cfg, err := config.Build(config.Layers{
//		Game:     &settings,  // the [game] table
//		Embedded: gameTOML,   // //go:embed config.toml
//		File:     path,       // beside the executable, or --config
//		Sets:     sets,       // --set key=value
//	})
//
// # The game's settings
//
// [Config.WithGame] turns a struct into the [game] table, with ranges and
// choices in struct tags; its keys are as strict as the framework's.
// [Config.DecodeGame] reads the result back.
//
// A settings menu lists the table with [Config.GameKeys] (each key's
// value, range and choices), applies a player's changes with
// [Config.Set], and saves them with [Config.WritePlayerFile]: the changed
// [game] keys and rebound actions go into the player's file, other keys
// kept, and nothing is written unless the result passes the checks
// loading it makes (package ui's options screen does all three). The
// player's file is the one the configuration was read from,
// [Config.PlayerFile] (--config, or the config.toml beside the game), so
// the next start with the same flags reads the changes.
//
// # Bindings
//
// [input.bindings] maps action names to key and button names, or for an
// analog action to axis bindings ("GamepadLeftX", "A/D"). Every name is
// checked when the file is read, before any window opens; the actions, and
// whether each text suits its action, once the game has registered them
// ([Config.CheckBindings]).
//
// A game writes each key once: the bindings it registers an action with
// are the action's defaults. A player's config.toml or --set may rebind
// any action, while the game's own embedded config.toml binds only actions
// registered without keys ([Config.CheckOwnBindings] reports a second
// copy, which would win over the registration and make a key changed in
// the code do nothing).
//
// # Replays
//
// A replay runs with the configuration it was recorded with. A player's
// file and --set for a replay go through [Config.Override], which accepts
// a key they leave at its recorded value and the [PresentationKeys] (the
// window, the texture filter, audio on or off, the volumes) and refuses
// any other key, naming it: it may change what the game simulates.
//
// # Goroutines
//
// A Config is a value: copies share nothing, and one copy is used by one
// goroutine at a time. [Default] may be called from any goroutine.
package config
