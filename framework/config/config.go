package config

import (
	"maps"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
	"github.com/metronome-go/metronome/window"
)

// Config is a game's whole configuration: the [window], [runtime],
// [render], [timing], [timing.debt], [polling], [audio], [input.bindings]
// and [game] tables of config.toml, as typed values. [Default] returns the embedded defaults;
// the zero Config is not useful.
//
// The timing and polling tables are the owning packages' own option
// structs, so a key and the option it sets are one value with one range:
// the range is checked by [timing.Options.Validate] and
// [input.PollingOptions.Validate], and a message names the key. Change
// fields directly only in tests; [Config.Set] checks what it stores.
//
// A Config also remembers where each key's value came from ([Config.Source])
// and, after [Config.WithGame], holds the game's own settings.
type Config struct {
	Window  Window  `toml:"window"`
	Runtime Runtime `toml:"runtime"`
	Render  Render  `toml:"render"`
	// Timing is the [timing] and [timing.debt] tables. timing.step is
	// FixedStep, timing.debt.coarse_cosmetic_every is Debt.CosmeticEvery
	// and timing.debt.rollback is Rollback (their toml tags); every other
	// key is its field's name in snake_case. Debt.Hook has no key: a networked game sets it in code.
	Timing timing.Options `toml:"timing"`
	// Polling is the [polling] table.
	Polling input.PollingOptions `toml:"polling"`
	// Audio is the [audio] table; [Config.AudioOptions] makes the mixer's
	// options of it.
	Audio Audio `toml:"audio"`
	// Net is the [net] table, a networked match's settings: rollback's
	// own options, with their ranges (rollback.MatchOptions.Validate).
	Net rollback.MatchOptions `toml:"net"`
	// Bindings maps action names to key and button names, or axis
	// bindings for an analog action ([input.bindings]). The game registers
	// the actions; the configuration rebinds them (see
	// [Config.CheckBindings]). Names are checked when they are read.
	Bindings map[string][]string

	// game is the [game] table, nil until WithGame.
	game *gameTable
	// sources holds the origin of every key not at its default.
	sources map[string]Source
}

// Window is the [window] table: the window's own options, whose ranges
// are [window.Options.Validate]'s (a rejection is reported under the key),
// the runtime's FocusPolicy, Headless, and the screen render2d owns.
type Window struct {
	// Options are window.title, window.width, window.height,
	// window.resizable, window.min_size, window.max_size,
	// window.aspect_ratio, window.fullscreen and window.vsync. The game
	// switches fullscreen while running with
	// runtime.GameRuntime.SetFullscreen.
	window.Options
	// FocusPolicy is what the game does while the window is unfocused
	// (runtime.Options.FocusPolicy). A headless window never has focus,
	// so headless runs keep running whatever it says.
	FocusPolicy runtime.FocusPolicy `option:"runtime Options.FocusPolicy"`
	// Headless renders into an invisible window, for tests and servers.
	Headless bool
	// Screen is window.logical_size, window.scaling and
	// window.clear_color
	// (inline: its keys are the [window] table's): the colour of the whole window before anything is
	// drawn and the logical resolution the game draws in. render2d owns
	// their ranges ([render2d.Screen.Validate]); the framework hands the
	// value whole to the ECS app (ecs.App.SetScreen).
	Screen render2d.Screen `toml:",inline"`
}

// Runtime is the [runtime] table. Its rates are frames per second, which
// [Config.RuntimeOptions] turns into the runtime's intervals; the ranges
// are the runtime's intervals expressed as rates. Workers and
// SettleTimeout are the runtime's [work.Options] as they are,
// with its ranges.
type Runtime struct {
	// Mode is runtime.Sequential or runtime.Concurrent.
	Mode runtime.Mode `option:"runtime Options.Mode"`
	// FrameCap limits frames per second (runtime.Options.FrameCap); 0
	// leaves pacing to vsync.
	FrameCap int `option:"runtime Options.FrameCap"`
	// HiddenRate is the frame rate while the window is hidden or minimised
	// (runtime.Options.HiddenInterval).
	HiddenRate int `option:"runtime Options.HiddenInterval"`
	// Workers is the capacity of the worker pool the runtime owns for the
	// session's background jobs (work.Options.Workers): 0 is
	// GOMAXPROCS. A player on a shared machine lowers it.
	Workers int `option:"work Options.Workers"`
	// SettleTimeout bounds how long a shutdown waits for accepted worker
	// jobs (work.Options.SettleTimeout); 0 waits for all of
	// them, so cleanup never frees what a job still uses.
	SettleTimeout time.Duration `option:"work Options.SettleTimeout"`
	// BackgroundWorkers runs the pool's workers at a lower OS priority
	// (work.Options.Background): a long load yields the CPU
	// to the loop and the renderer.
	BackgroundWorkers bool
}

// Render is the [render] table: how frames reach the screen. Like the
// window it belongs to the configuration: the ECS app reads it when the
// framework builds the app.
type Render struct {
	// Interpolation draws every moving sprite between its placements at
	// the start and the end of the latest fixed step, by the time of each
	// present, so motion is smooth whatever the ratio of display rate to
	// tick rate. Off, each frame shows the state of its latest tick (and is
	// presented once). Variable timing needs none: each update already ends
	// at the present.
	Interpolation bool
	// Filter is how the assets library's atlas pages, and so every image,
	// sprite sheet and glyph loaded through it, are sampled: linear (the
	// default) or nearest, for pixel art.
	Filter render2d.Filter `option:"render2d TextureOptions.Filter"`
}

// clone returns a copy of c that shares no map or game value with it, so a
// change to one never shows in the other.
func (c Config) clone() Config {
	b := make(map[string][]string, len(c.Bindings))
	for k, v := range c.Bindings {
		b[k] = append([]string(nil), v...)
	}
	c.Bindings = b
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
