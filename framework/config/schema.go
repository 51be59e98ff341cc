package config

import (
	"encoding"
	"fmt"
	"strings"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// field is one framework key: its TOML path, type and where it lives in
// Config. The same table serves files, command-line overrides, messages
// and the printed configuration.
//
// A key either belongs to an owning package (owner and goFields set): its
// range is whatever that package's Validate accepts, and a rejection is
// reported under the key with the package's own statement of what is
// allowed. Or it belongs to the configuration (own set), as the window does.
type field struct {
	key   string
	kind  kind
	words []string // the allowed words of kindEnum, from the owning package
	// owner is "timing", "input", "runtime" or "render2d"; goFields are the
	// FieldError.Field names of the options this key sets.
	owner    string
	goFields []string
	// allowed, when set, replaces the owner's statement: for a key whose
	// unit differs from the option's (frames per second for an interval).
	allowed string
	// own checks a range that belongs to the configuration; nil for none.
	own func(v any) error
	// ownAllowed states that range.
	ownAllowed string
	get        func(c *Config) any
	set        func(c *Config, v any)
}

func boolField(key, owner, goField string, p func(*Config) *bool) field {
	return field{key: key, kind: kindBool, owner: owner, goFields: goFields(owner, goField),
		get: func(c *Config) any { return *p(c) },
		set: func(c *Config, v any) { *p(c) = v.(bool) }}
}

func intField(key, owner, goField string, p func(*Config) *int) field {
	return field{key: key, kind: kindInt, owner: owner, goFields: goFields(owner, goField),
		get: func(c *Config) any { return int64(*p(c)) },
		set: func(c *Config, v any) { *p(c) = clampInt(v.(int64)) }}
}

func floatField(key, owner, goField string, p func(*Config) *float64) field {
	return field{key: key, kind: kindFloat, owner: owner, goFields: goFields(owner, goField),
		get: func(c *Config) any { return *p(c) },
		set: func(c *Config, v any) { *p(c) = v.(float64) }}
}

func durationField(key, owner, goField string, p func(*Config) *time.Duration) field {
	return field{key: key, kind: kindDuration, owner: owner, goFields: goFields(owner, goField),
		get: func(c *Config) any { return *p(c) },
		set: func(c *Config, v any) { *p(c) = v.(time.Duration) }}
}

// enumField is a key whose words are the owning package's names for T:
// every value whose String form its parse function reads back.
// word parses an owner's enumeration word through its UnmarshalText, the
// one parser of each word.
func word[T any, PT interface {
	*T
	encoding.TextUnmarshaler
}](s string) (T, error) {
	var v T
	err := PT(&v).UnmarshalText([]byte(s))
	return v, err
}

func enumField[T interface {
	~uint8
	fmt.Stringer
}](key, owner, goField string, parse func(string) (T, error), p func(*Config) *T) field {
	var words []string
	for i := range 256 {
		v := T(i)
		got, err := parse(v.String())
		if err != nil || got != v {
			break
		}
		words = append(words, v.String())
	}
	return field{key: key, kind: kindEnum, words: words, owner: owner, goFields: goFields(owner, goField),
		get: func(c *Config) any { return (*p(c)).String() },
		set: func(c *Config, v any) {
			t, err := parse(v.(string))
			if err != nil {
				panic("config: " + key + ": a word the owner listed does not parse: " + err.Error())
			}
			*p(c) = t
		}}
}

func goFields(owner string, names ...string) []string {
	if owner == "" {
		return nil
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = owner + "." + n
	}
	return out
}

// clampInt keeps an int64 from wrapping on a 32-bit int: a clamped value is
// still out of every range, so it is reported rather than misread.
func clampInt(n int64) int {
	const maxInt, minInt = int64(^uint(0) >> 1), -int64(^uint(0)>>1) - 1
	return int(min(max(n, minInt), maxInt))
}

// Ranges that belong to the configuration itself.
const (
	maxTitle  = 256
	minWindow = 64
	maxWindow = 16384
)

func windowSize(key string, p func(*Config) *int) field {
	f := intField(key, "", "", p)
	f.ownAllowed = fmt.Sprintf("%d to %d", minWindow, maxWindow)
	f.own = func(v any) error {
		if n := v.(int64); n < minWindow || n > maxWindow {
			return errOutOfRange
		}
		return nil
	}
	return f
}

var errOutOfRange = fmt.Errorf("out of range")

// pairField is a key holding two whole numbers, "WxH" or "W:H".
func pairField(key string, k kind, p func(*Config) *input.Size) field {
	return field{key: key, kind: k,
		get: func(c *Config) any { return *p(c) },
		set: func(c *Config, v any) { *p(c) = v.(input.Size) }}
}

// sizeBound is a window size limit: each side within the window's range,
// or 0 for no bound on that side.
func sizeBound(key string, p func(*Config) *input.Size) field {
	f := pairField(key, kindSize, p)
	f.ownAllowed = fmt.Sprintf("each side %d to %d, or 0 (no bound on that side)", minWindow, maxWindow)
	f.own = func(v any) error {
		s := v.(input.Size)
		for _, n := range []int{s.Width, s.Height} {
			if n != 0 && (n < minWindow || n > maxWindow) {
				return errOutOfRange
			}
		}
		return nil
	}
	return f
}

// perSecond turns a rate in Hz into the runtime's interval. Zero stays zero
// (no cap), and a rate too fast for a nanosecond interval becomes -1 so the
// runtime rejects it rather than reading "no cap".
func perSecond(hz int) time.Duration {
	if hz == 0 {
		return 0
	}
	d := time.Second / time.Duration(hz)
	if d == 0 {
		return -1
	}
	return d
}

// rateRange states an interval range of the runtime as frames per second.
func rateRange(minInterval, maxInterval time.Duration) (lo, hi int) {
	lo = int((time.Second + maxInterval - 1) / maxInterval)
	hi = int(time.Second / minInterval)
	return lo, hi
}

// fields lists the framework's keys in file order ([audio] is in audio.go).
var fields = append([]field{
	func() field {
		f := field{key: "window.title", kind: kindString, ownAllowed: fmt.Sprintf("at most %d bytes", maxTitle),
			get: func(c *Config) any { return c.Window.Title },
			set: func(c *Config, v any) { c.Window.Title = v.(string) }}
		f.own = func(v any) error {
			if len(v.(string)) > maxTitle {
				return fmt.Errorf("too long (%d bytes)", len(v.(string)))
			}
			return nil
		}
		return f
	}(),
	windowSize("window.width", func(c *Config) *int { return &c.Window.Width }),
	windowSize("window.height", func(c *Config) *int { return &c.Window.Height }),
	boolField("window.resizable", "", "", func(c *Config) *bool { return &c.Window.Resizable }),
	sizeBound("window.min_size", func(c *Config) *input.Size { return &c.Window.MinSize }),
	sizeBound("window.max_size", func(c *Config) *input.Size { return &c.Window.MaxSize }),
	func() field {
		f := pairField("window.aspect_ratio", kindRatio, func(c *Config) *input.Size { return &c.Window.AspectRatio })
		f.ownAllowed = fmt.Sprintf(`each side 1 to %d, or "0:0" (free)`, maxWindow)
		f.own = func(v any) error {
			s := v.(input.Size)
			if s == (input.Size{}) {
				return nil
			}
			if s.Width < 1 || s.Width > maxWindow || s.Height < 1 || s.Height > maxWindow {
				return errOutOfRange
			}
			return nil
		}
		return f
	}(),
	boolField("window.fullscreen", "", "", func(c *Config) *bool { return &c.Window.Fullscreen }),
	enumField("window.focus_policy", "runtime", "Options.FocusPolicy", word[runtime.FocusPolicy], func(c *Config) *runtime.FocusPolicy { return &c.Window.FocusPolicy }),
	boolField("window.vsync", "", "", func(c *Config) *bool { return &c.Window.VSync }),
	boolField("window.headless", "", "", func(c *Config) *bool { return &c.Window.Headless }),
	{key: "window.clear_color", kind: kindColor, owner: "render2d", goFields: goFields("render2d", "Screen.ClearColor"),
		get: func(c *Config) any { return c.Window.Screen.ClearColor },
		set: func(c *Config, v any) { c.Window.Screen.ClearColor = v.(render2d.Color) }},
	{key: "window.logical_size", kind: kindSize, owner: "render2d", goFields: goFields("render2d", "Screen.Width", "Screen.Height"),
		get: func(c *Config) any { return input.Size{Width: c.Window.Screen.Width, Height: c.Window.Screen.Height} },
		set: func(c *Config, v any) {
			s := v.(input.Size)
			c.Window.Screen.Width, c.Window.Screen.Height = s.Width, s.Height
		},
		allowed: fmt.Sprintf(`each side 1 to %d, or "0x0" (no logical resolution)`, render2d.MaxScreenSize)},
	enumField("window.scaling", "render2d", "Screen.Scaling", render2d.ParseScaling, func(c *Config) *render2d.Scaling { return &c.Window.Screen.Scaling }),

	enumField("runtime.mode", "runtime", "Options.Mode", word[runtime.Mode], func(c *Config) *runtime.Mode { return &c.Runtime.Mode }),
	func() field {
		f := intField("runtime.frame_cap", "runtime", "Options.FrameCap", func(c *Config) *int { return &c.Runtime.FrameCap })
		lo, hi := rateRange(time.Nanosecond, runtime.MaxFrameCap)
		f.allowed = fmt.Sprintf("0 (no cap) or %d to %d frames per second", lo, hi)
		return f
	}(),
	func() field {
		f := intField("runtime.hidden_rate", "runtime", "Options.HiddenInterval", func(c *Config) *int { return &c.Runtime.HiddenRate })
		lo, hi := rateRange(runtime.MinIdleInterval, runtime.MaxIdleInterval)
		f.allowed = fmt.Sprintf("%d to %d frames per second", lo, hi)
		return f
	}(),
	intField("runtime.workers", "work", "Options.Workers", func(c *Config) *int { return &c.Runtime.Workers }),
	durationField("runtime.settle_timeout", "work", "Options.SettleTimeout", func(c *Config) *time.Duration { return &c.Runtime.SettleTimeout }),
	boolField("runtime.background_workers", "", "", func(c *Config) *bool { return &c.Runtime.BackgroundWorkers }),

	boolField("render.interpolation", "", "", func(c *Config) *bool { return &c.Render.Interpolation }),
	enumField("render.filter", "render2d", "TextureOptions.Filter", render2d.ParseFilter, func(c *Config) *render2d.Filter { return &c.Render.Filter }),

	enumField("timing.mode", "timing", "Options.Mode", word[timing.Mode], func(c *Config) *timing.Mode { return &c.Timing.Mode }),
	durationField("timing.interval", "timing", "Options.Interval", func(c *Config) *time.Duration { return &c.Timing.Interval }),
	durationField("timing.step", "timing", "Options.FixedStep", func(c *Config) *time.Duration { return &c.Timing.FixedStep }),
	{key: "timing.rate", kind: kindRate, owner: "timing", goFields: goFields("timing", "Options.Rate", "Options.Rate.Num", "Options.Rate.Den"),
		get: func(c *Config) any { return c.Timing.Rate },
		set: func(c *Config, v any) { c.Timing.Rate = v.(timing.Rate) }},
	intField("timing.max_fixed_updates", "timing", "Options.MaxFixedUpdates", func(c *Config) *int { return &c.Timing.MaxFixedUpdates }),
	enumField("timing.recovery", "timing", "Options.Recovery", word[timing.Recovery], func(c *Config) *timing.Recovery { return &c.Timing.Recovery }),
	intField("timing.recovery_prefix", "timing", "Options.RecoveryPrefix", func(c *Config) *int { return &c.Timing.RecoveryPrefix }),
	durationField("timing.recovery_cap", "timing", "Options.RecoveryCap", func(c *Config) *time.Duration { return &c.Timing.RecoveryCap }),

	boolField("timing.debt.pacing", "timing", "DebtOptions.Pacing", func(c *Config) *bool { return &c.Timing.Debt.Pacing }),
	floatField("timing.debt.max_speed_up", "timing", "DebtOptions.MaxSpeedUp", func(c *Config) *float64 { return &c.Timing.Debt.MaxSpeedUp }),
	floatField("timing.debt.max_slow_down", "timing", "DebtOptions.MaxSlowDown", func(c *Config) *float64 { return &c.Timing.Debt.MaxSlowDown }),
	floatField("timing.debt.gain", "timing", "DebtOptions.Gain", func(c *Config) *float64 { return &c.Timing.Debt.Gain }),
	boolField("timing.debt.quiet_ticks", "timing", "DebtOptions.QuietTicks", func(c *Config) *bool { return &c.Timing.Debt.QuietTicks }),
	boolField("timing.debt.coarse_cosmetic", "timing", "DebtOptions.CoarseCosmetic", func(c *Config) *bool { return &c.Timing.Debt.CoarseCosmetic }),
	intField("timing.debt.coarse_cosmetic_every", "timing", "DebtOptions.CosmeticEvery", func(c *Config) *int { return &c.Timing.Debt.CosmeticEvery }),
	boolField("timing.debt.variable_step", "timing", "DebtOptions.VariableStep", func(c *Config) *bool { return &c.Timing.Debt.VariableStep }),
	intField("timing.debt.max_step_scale", "timing", "DebtOptions.MaxStepScale", func(c *Config) *int { return &c.Timing.Debt.MaxStepScale }),
	boolField("timing.debt.rollback", "timing", "Options.Rollback", func(c *Config) *bool { return &c.Timing.Rollback }),
	durationField("timing.debt.cutoff", "timing", "DebtOptions.Cutoff", func(c *Config) *time.Duration { return &c.Timing.Debt.Cutoff }),
	durationField("timing.debt.suspend_after", "timing", "DebtOptions.SuspendAfter", func(c *Config) *time.Duration { return &c.Timing.Debt.SuspendAfter }),
	enumField("timing.debt.past_cutoff", "timing", "DebtOptions.PastCutoff", word[timing.PastCutoff], func(c *Config) *timing.PastCutoff { return &c.Timing.Debt.PastCutoff }),

	durationField("polling.spacing", "input", "PollingOptions.Spacing", func(c *Config) *time.Duration { return &c.Polling.Spacing }),
	intField("polling.capacity", "input", "PollingOptions.Capacity", func(c *Config) *int { return &c.Polling.Capacity }),
	enumField("polling.delivery", "input", "PollingOptions.Delivery", input.ParseDelivery, func(c *Config) *input.Delivery { return &c.Polling.Delivery }),
}, audioFields...)

// Tables of the framework's keys, and the table whose keys are action
// names chosen by the game.
const (
	bindingsTable = "input.bindings"
	gameTableName = "game"
)

// tables are the framework's names that hold keys, in file order.
var tables = []string{"window", "runtime", "render", "timing", "timing.debt", "polling", "audio", "input", bindingsTable}

var fieldIndex = func() map[string]*field {
	m := make(map[string]*field, len(fields))
	for i := range fields {
		m[fields[i].key] = &fields[i]
	}
	return m
}()

// byGoField finds the key of an owner's field ("timing.DebtOptions.Gain").
var byGoField = func() map[string]*field {
	m := map[string]*field{}
	for i := range fields {
		for _, g := range fields[i].goFields {
			m[g] = &fields[i]
		}
	}
	return m
}()

// goNames maps the Go names an owner's messages use (qualified, and bare
// where that is unambiguous) to keys, so "0 to MaxFixedUpdates (2)" reads
// "0 to timing.max_fixed_updates (2)".
var goNames = func() map[string]map[string]string {
	m := map[string]map[string]string{}
	bare := map[string]map[string]int{}
	for _, f := range fields {
		for _, g := range f.goFields {
			owner, name, _ := strings.Cut(g, ".")
			if m[owner] == nil {
				m[owner], bare[owner] = map[string]string{}, map[string]int{}
			}
			m[owner][name] = f.key
			if _, short, ok := strings.Cut(name, "."); ok && !strings.Contains(short, ".") {
				bare[owner][short]++
				if bare[owner][short] == 1 {
					m[owner][short] = f.key
				} else {
					delete(m[owner], short)
				}
			}
		}
	}
	return m
}()

// Keys lists every framework key in file order (without the game-defined
// input.bindings.ACTION and game.* keys).
func Keys() []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.key
	}
	return out
}
