package config

import (
	"maps"
	"slices"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/work"
	"github.com/metronome-go/metronome/timing"
	"github.com/metronome-go/metronome/window"
)

// Config is a game's whole configuration: the tables of config.toml as
// typed values (see the package doc). [Default] returns the embedded
// defaults; the zero Config is not useful. Most tables are the owning
// packages' own option structs, so a key and the option it sets are one
// value with one range, the owner's. Change fields directly only in tests;
// [Config.Set] checks what it stores.
//
// A Config also remembers where each key's value came from ([Config.Source])
// and, after [Config.WithGame], holds the game's own settings.
type Config struct {
	Window  Window  `toml:"window"`
	Runtime Runtime `toml:"runtime"`
	Render  Render  `toml:"render"`
	// Timing is the [timing] and [timing.debt] tables, whose keys its
	// fields' toml tags name (timing.debt.rollback is Rollback). Debt.Hook
	// has no key: a networked game sets it in code.
	Timing  timing.Options       `toml:"timing"`
	Polling input.PollingOptions `toml:"polling"`
	// Audio is the [audio] table; [Config.AudioOptions] makes the mixer's
	// options of it.
	Audio Audio `toml:"audio"`
	// Net is the [net] table, a networked match's settings.
	Net rollback.MatchOptions `toml:"net"`
	// Bindings maps action names to key and button names, or axis
	// bindings for an analog action ([input.bindings]). Names are checked
	// when they are read; the actions when the game has registered them
	// ([Config.CheckBindings]).
	Bindings map[string][]string

	// game is the [game] table, nil until WithGame.
	game *gameTable
	// sources holds the origin of every key not at its default.
	sources map[string]Source
}

// Window is the [window] table: the window's own options, the runtime's
// focus policy, Headless, and the screen render2d owns.
type Window struct {
	// Options are the window's size, title and modes. The game switches
	// fullscreen while running with runtime.GameRuntime.SetFullscreen.
	window.Options
	// FocusPolicy is what the game does while the window is unfocused. A
	// headless window never has focus, so headless runs keep running
	// whatever it says.
	FocusPolicy runtime.FocusPolicy `option:"runtime Options.FocusPolicy"`
	// Headless renders into an invisible window, for tests and servers.
	Headless bool
	// Screen is window.logical_size, window.scaling and window.clear_color
	// (inline: its keys are the [window] table's). The framework hands it
	// whole to the ECS app (ecs.App.SetScreen).
	Screen render2d.Screen `toml:",inline"`
}

// Runtime is the [runtime] table. Its rates are frames per second, which
// [Config.RuntimeOptions] turns into the runtime's intervals.
type Runtime struct {
	// Mode is runtime.Sequential or runtime.Concurrent.
	Mode runtime.Mode `option:"runtime Options.Mode"`
	// FrameCap limits frames per second (runtime.Options.FrameCap); 0
	// leaves pacing to vsync.
	FrameCap int `option:"runtime Options.FrameCap"`
	// HiddenRate is the frame rate while the window is hidden or minimised
	// (runtime.Options.HiddenInterval).
	HiddenRate int `option:"runtime Options.HiddenInterval"`
	// Options are runtime.workers, runtime.settle_timeout and
	// runtime.background_workers: the worker pool the runtime owns for the
	// session's background jobs (runtime.Options.Execution).
	work.Options
}

// Render is the [render] table: how frames reach the screen, read by the
// ECS app when the framework builds it.
type Render struct {
	// Interpolation draws every moving sprite between its placements at
	// the start and the end of the latest fixed step, by the time of each
	// present, so motion is smooth whatever the ratio of display rate to
	// tick rate. Off, each frame shows the state of its latest tick.
	// Variable timing needs none: each update already ends at the present.
	Interpolation bool
	// Filter is how every image, sprite sheet and glyph loaded through the
	// assets library is sampled: linear (the default) or nearest, for
	// pixel art.
	Filter render2d.Filter `option:"render2d TextureOptions.Filter"`
}

// clone returns a copy of c that shares no map or game value with it, so a
// change to one never shows in the other.
func (c Config) clone() Config {
	c.Bindings = maps.Clone(c.Bindings)
	for k, v := range c.Bindings {
		c.Bindings[k] = slices.Clone(v)
	}
	c.sources = maps.Clone(c.sources)
	if c.game != nil {
		c.game = c.game.clone()
	}
	return c
}

// intervalKey is the key of the variable pacing interval.
const intervalKey = "timing.interval"

// IntervalSet reports whether a source set timing.interval (the game's
// embedded file, a file, the command line). Only then does variable timing
// use it as set; otherwise it follows the presentation cadence
// (runtime.Options.FollowPresentation).
func (c Config) IntervalSet() bool { return c.Source(intervalKey).Origin != FromDefaults }
