package config

import (
	"maps"
	"math"
	"slices"
	"time"

	"github.com/metronome-go/metronome/audio"
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
	// file is the path of the file layer Build read ([Config.PlayerFile]).
	file string
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
	// session's background jobs (runtime.Options.Execution). Pool has no
	// key; set in code, the session borrows that pool instead.
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

// Audio is the [audio] table: whether the game opens an audio device, and
// the mixer's options a player may want to change. The option tags name
// the mixer's fields, whose ranges are the audio package's; every value is
// checked whether or not audio is enabled, so a file that is wrong is
// wrong everywhere.
type Audio struct {
	// Enabled opens the audio device. Off (or with no device), the game
	// runs silently: sounds are requested and go nowhere.
	Enabled   bool
	Latency   time.Duration `option:"audio Options.Latency"`
	Tolerance time.Duration `option:"audio Options.Tolerance"`
	MaxVoices int           `option:"audio Options.MaxVoices"`
	// Master, Music, Effects and UI are the buses' volumes at start, linear
	// gains.
	Master  float64 `toml:"master_volume" option:"audio Options.Volumes[Master]"`
	Music   float64 `toml:"music_volume" option:"audio Options.Volumes[Music]"`
	Effects float64 `toml:"effects_volume" option:"audio Options.Volumes[Effects]"`
	UI      float64 `toml:"ui_volume" option:"audio Options.Volumes[UI]"`
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

// RuntimeOptions turns the [runtime], [timing], [timing.debt] and [polling]
// tables into runtime options, starting from [runtime.DefaultOptions]. The
// timing and polling options are c's own; the [runtime] table's rates
// become intervals. It validates c first ([Config.Validate] with source),
// whose check includes the runtime's Validate of what it returns.
func (c *Config) RuntimeOptions(source string) (runtime.Options, error) {
	if err := c.Validate(source); err != nil {
		return runtime.Options{}, err
	}
	return c.runtimeOptions(), nil
}

// runtimeOptions builds the runtime's options from c without checking them.
func (c *Config) runtimeOptions() runtime.Options {
	o := runtime.DefaultOptions()
	o.Mode = c.Runtime.Mode
	o.FrameCap = perSecond(c.Runtime.FrameCap)
	o.HiddenInterval = perSecond(c.Runtime.HiddenRate)
	o.Execution = c.Runtime.Options
	o.Timing = c.Timing
	// An interval the configuration sets applies as set; the default one
	// gives way to the presentation cadence.
	o.FollowPresentation = !c.IntervalSet()
	o.Polling = c.Polling
	o.FocusPolicy = c.Window.FocusPolicy
	if c.Window.Headless {
		o.FocusPolicy = runtime.FocusRun // an invisible window never has focus
	}
	return o
}

// AudioOptions turns the [audio] table into mixer options, starting from
// [audio.DefaultOptions] (the rate, stream and queue sizes keep their
// defaults). It does not check them: [Config.Validate] already has, with
// the audio package's Validate, and [audio.NewMixer] checks again.
// Whether to open a device at all is c.Audio.Enabled.
func (c *Config) AudioOptions() audio.Options {
	o := audio.DefaultOptions()
	o.Latency = c.Audio.Latency
	o.Tolerance = c.Audio.Tolerance
	o.MaxVoices = c.Audio.MaxVoices
	o.Volumes[audio.Master] = gain(c.Audio.Master)
	o.Volumes[audio.Music] = gain(c.Audio.Music)
	o.Volumes[audio.Effects] = gain(c.Audio.Effects)
	o.Volumes[audio.UI] = gain(c.Audio.UI)
	return o
}

// gain narrows a volume to the mixer's float32 without moving a value
// outside [0, audio.MaxVolume] inside it (4.000000000000001 rounds to 4
// in float32), so such a value is reported rather than silently accepted.
func gain(v float64) float32 {
	f := float32(v)
	switch {
	case v > audio.MaxVolume && f <= audio.MaxVolume:
		return math.Nextafter32(audio.MaxVolume, math.MaxFloat32)
	case v < 0 && f >= 0:
		return math.Nextafter32(0, -1)
	}
	return f
}
