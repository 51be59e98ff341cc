package config

import (
	"fmt"

	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// field is one configuration key: its TOML path, type, allowed values and
// where it lives in Config. The same table serves the file, command-line
// overrides and the error messages.
type field struct {
	key     string
	kind    kind
	enum    []string
	allowed string
	// set stores v (already converted to the kind's Go type) or returns the
	// problem with it.
	set func(c *Config, v any) error
}

func intField(key string, lo, hi int64, p func(*Config) *int) field {
	return field{key: key, kind: kindInt, allowed: fmt.Sprintf("an integer from %d to %d", lo, hi),
		set: func(c *Config, v any) error {
			n := v.(int64)
			if n < lo || n > hi {
				return fmt.Errorf("out of range")
			}
			*p(c) = int(n)
			return nil
		}}
}

func floatField(key string, lo, hi float64, p func(*Config) *float64) field {
	return field{key: key, kind: kindFloat, allowed: fmt.Sprintf("a number from %g to %g", lo, hi),
		set: func(c *Config, v any) error {
			f := v.(float64)
			if f < lo || f > hi {
				return fmt.Errorf("out of range")
			}
			*p(c) = f
			return nil
		}}
}

func durationField(key string, lo, hi time.Duration, p func(*Config) *time.Duration) field {
	allowed := fmt.Sprintf("a duration from %v to %v", lo, hi)
	if lo == 0 {
		allowed = fmt.Sprintf("a duration from 0s to %v", hi)
	}
	return field{key: key, kind: kindDuration, allowed: allowed,
		set: func(c *Config, v any) error {
			d := v.(time.Duration)
			if d < lo || d > hi {
				return fmt.Errorf("out of range")
			}
			*p(c) = d
			return nil
		}}
}

func boolField(key string, p func(*Config) *bool) field {
	return field{key: key, kind: kindBool, allowed: "true or false",
		set: func(c *Config, v any) error { *p(c) = v.(bool); return nil }}
}

func stringField(key string, maxLen int, p func(*Config) *string) field {
	return field{key: key, kind: kindString, allowed: fmt.Sprintf("a string of at most %d bytes", maxLen),
		set: func(c *Config, v any) error {
			s := v.(string)
			if len(s) > maxLen {
				return fmt.Errorf("too long")
			}
			*p(c) = s
			return nil
		}}
}

func enumField(key string, enum []string, p func(*Config) *string) field {
	return field{key: key, kind: kindEnum, enum: enum, allowed: "one of " + quoteList(enum),
		set: func(c *Config, v any) error { *p(c) = v.(string); return nil }}
}

// maxRate bounds exact rates so the scheduler's phase arithmetic has room.
const maxRate = 100_000

func rateField(key string, p func(*Config) *timing.Rate) field {
	return field{key: key, kind: kindRate, allowed: fmt.Sprintf("0 (use timing.step) or a rate from 1 to %d Hz", maxRate),
		set: func(c *Config, v any) error {
			r := v.(timing.Rate)
			if r.IsZero() {
				*p(c) = r
				return nil
			}
			if r.Den > maxRate || r.Num > maxRate*r.Den || r.Num < r.Den {
				return fmt.Errorf("out of range")
			}
			*p(c) = r
			return nil
		}}
}

// Allowed values of the enum keys.
var (
	RuntimeModes     = []string{"sequential", "concurrent"}
	TimingModes      = []string{"variable", "fixed"}
	RecoveryPolicies = []string{"drop-excess-lag", "variable-catch-up", "repay-debt"}
	PastCutoffs      = []string{"slow-down", "drop-time"}
	Deliveries       = []string{"backlog", "timestamped"}
)

var fields = []field{
	stringField("window.title", 256, func(c *Config) *string { return &c.Window.Title }),
	intField("window.width", 64, 16384, func(c *Config) *int { return &c.Window.Width }),
	intField("window.height", 64, 16384, func(c *Config) *int { return &c.Window.Height }),
	boolField("window.resizable", func(c *Config) *bool { return &c.Window.Resizable }),
	boolField("window.vsync", func(c *Config) *bool { return &c.Window.VSync }),
	boolField("window.headless", func(c *Config) *bool { return &c.Window.Headless }),

	enumField("runtime.mode", RuntimeModes, func(c *Config) *string { return &c.Runtime.Mode }),
	intField("runtime.frame_cap", 0, 1000, func(c *Config) *int { return &c.Runtime.FrameCap }),
	intField("runtime.hidden_rate", 1, 60, func(c *Config) *int { return &c.Runtime.HiddenRate }),

	enumField("timing.mode", TimingModes, func(c *Config) *string { return &c.Timing.Mode }),
	durationField("timing.interval", 0, time.Second, func(c *Config) *time.Duration { return &c.Timing.Interval }),
	durationField("timing.step", time.Microsecond, time.Second, func(c *Config) *time.Duration { return &c.Timing.Step }),
	rateField("timing.rate", func(c *Config) *timing.Rate { return &c.Timing.Rate }),
	intField("timing.max_fixed_updates", 1, timing.MaxBatch, func(c *Config) *int { return &c.Timing.MaxFixedUpdates }),
	enumField("timing.recovery", RecoveryPolicies, func(c *Config) *string { return &c.Timing.Recovery }),
	intField("timing.recovery_prefix", 0, timing.MaxBatch, func(c *Config) *int { return &c.Timing.RecoveryPrefix }),
	durationField("timing.recovery_cap", 0, time.Minute, func(c *Config) *time.Duration { return &c.Timing.RecoveryCap }),

	boolField("timing.debt.pacing", func(c *Config) *bool { return &c.Timing.Debt.Pacing }),
	floatField("timing.debt.max_speed_up", 1, 4, func(c *Config) *float64 { return &c.Timing.Debt.MaxSpeedUp }),
	floatField("timing.debt.max_slow_down", 0.25, 1, func(c *Config) *float64 { return &c.Timing.Debt.MaxSlowDown }),
	floatField("timing.debt.gain", 0.01, 10, func(c *Config) *float64 { return &c.Timing.Debt.Gain }),
	boolField("timing.debt.quiet_ticks", func(c *Config) *bool { return &c.Timing.Debt.QuietTicks }),
	boolField("timing.debt.coarse_cosmetic", func(c *Config) *bool { return &c.Timing.Debt.CoarseCosmetic }),
	intField("timing.debt.coarse_cosmetic_every", 2, 60, func(c *Config) *int { return &c.Timing.Debt.CoarseCosmeticEvery }),
	boolField("timing.debt.variable_step", func(c *Config) *bool { return &c.Timing.Debt.VariableStep }),
	intField("timing.debt.max_step_scale", 2, 64, func(c *Config) *int { return &c.Timing.Debt.MaxStepScale }),
	boolField("timing.debt.rollback", func(c *Config) *bool { return &c.Timing.Debt.Rollback }),
	durationField("timing.debt.cutoff", time.Millisecond, time.Hour, func(c *Config) *time.Duration { return &c.Timing.Debt.Cutoff }),
	durationField("timing.debt.suspend_after", 0, 24*time.Hour, func(c *Config) *time.Duration { return &c.Timing.Debt.SuspendAfter }),
	enumField("timing.debt.past_cutoff", PastCutoffs, func(c *Config) *string { return &c.Timing.Debt.PastCutoff }),

	durationField("polling.spacing", 0, input.MaxPollSpacing, func(c *Config) *time.Duration { return &c.Polling.Spacing }),
	intField("polling.capacity", 1, input.MaxBacklog, func(c *Config) *int { return &c.Polling.Capacity }),
	enumField("polling.delivery", Deliveries, func(c *Config) *string { return &c.Polling.Delivery }),
}

// bindingsTable is the table whose keys are action names chosen by the game.
const bindingsTable = "input.bindings"

var fieldIndex = func() map[string]*field {
	m := make(map[string]*field, len(fields))
	for i := range fields {
		m[fields[i].key] = &fields[i]
	}
	return m
}()

// Keys lists every configuration key in file order (without the
// game-defined input.bindings.ACTION keys).
func Keys() []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.key
	}
	return out
}
