package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
	"github.com/metronome-go/metronome/window"
)

// A problem is one owner's rejection translated to a key.
type problem struct {
	field   *field // nil when no key sets the option
	problem string
	allowed string
}

// runtimeOptions builds the runtime's options from c without checking them.
func (c *Config) runtimeOptions() runtime.Options {
	o := runtime.DefaultOptions()
	o.Mode = c.Runtime.Mode
	o.FrameCap = perSecond(c.Runtime.FrameCap)
	o.HiddenInterval = perSecond(c.Runtime.HiddenRate)
	o.Execution.Workers = c.Runtime.Workers
	o.Execution.SettleTimeout = c.Runtime.SettleTimeout
	o.Execution.Background = c.Runtime.BackgroundWorkers
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

// ownerProblems validates c with the owning packages and translates every
// rejection to the key that sets the option.
func (c *Config) ownerProblems() []problem {
	var out []problem
	var walk func(err error)
	walk = func(err error) {
		if err == nil {
			return
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		var fe *option.Error
		switch {
		case errors.As(err, &fe):
			out = append(out, translate(fe.Pkg, fe.Field, fe.Problem, fe.Allowed))
		case errors.Is(err, input.ErrTimestampedNeedsFixedSteps):
			out = append(out, problem{field: fieldIndex["polling.delivery"],
				problem: fmt.Sprintf("needs fixed steps, but timing.mode is %q", c.Timing.Mode),
				allowed: `"timestamped" with timing.mode = "fixed", or "backlog"`})
		default:
			out = append(out, problem{problem: err.Error()})
		}
	}
	walk(c.runtimeOptions().Validate())
	walk(c.Window.Options.Validate())
	walk(c.Window.Screen.Validate())
	walk(c.AudioOptions().Validate())
	walk(c.Net.Validate())
	return out
}

func translate(owner, goField, prob, allowed string) problem {
	f := byGoField[owner+"."+goField]
	p := problem{field: f, problem: goToKeys(owner, strings.TrimPrefix(prob, "is ")), allowed: goToKeys(owner, allowed)}
	if f == nil {
		p.problem = owner + ": " + goField + " " + p.problem
	} else if f.allowed != "" {
		p.allowed = f.allowed
	}
	return p
}

// goToKeys replaces the Go option names in an owner's message with keys.
func goToKeys(owner, s string) string {
	names := goNames[owner]
	var b strings.Builder
	for i := 0; i < len(s); {
		if !isUpper(s[i]) || i > 0 && isWord(s[i-1]) {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && (isWord(s[j]) || s[j] == '.' && j+1 < len(s) && isWord(s[j+1])) {
			j++
		}
		if key, ok := names[s[i:j]]; ok {
			b.WriteString(key)
		} else {
			b.WriteString(s[i:j])
		}
		i = j
	}
	return b.String()
}

func isUpper(b byte) bool { return b >= 'A' && b <= 'Z' }
func isWord(b byte) bool {
	return b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_'
}

// relaxed is a configuration in which every mechanism is in effect, so the
// owners check every option, and every option another depends on is at its
// most permissive, so a value is judged on its own: the step is 1 ns for
// the cutoff, the update limit is the largest for the prefix, and the mode
// is fixed for timestamped delivery.
var relaxed = func() Config {
	var c Config
	c.Window.Options = window.DefaultOptions()
	c.Runtime = Runtime{Mode: runtime.Sequential, HiddenRate: 10}
	c.Timing = timing.DefaultOptions()
	c.Timing.Mode = timing.FixedMode
	c.Timing.FixedStep = 1
	c.Timing.MaxFixedUpdates = timing.MaxBatch
	c.Timing.Recovery = timing.RepayDebt
	c.Timing.Debt.CoarseCosmetic = true
	c.Timing.Debt.VariableStep = true
	c.Polling = input.DefaultPollingOptions()
	return c
}()

// inEffect returns c with every mechanism switched on, so that the owners
// check options the current choices leave unused; f's own option is made
// the one in use (the step rather than a rate).
func inEffect(c Config, f *field) Config {
	c.Timing.Recovery = timing.RepayDebt
	c.Timing.Debt.CoarseCosmetic = true
	c.Timing.Debt.VariableStep = true
	c.Timing.Rollback = false
	c.Timing.Mode = timing.FixedMode
	if f.key == "timing.step" {
		c.Timing.Rate = timing.Rate{}
	}
	return c
}

// checkValue reports what is wrong with v (already converted) as the value
// of f, on its own: a range that other keys cannot make right. Problems
// that depend on other keys wait for [Config.relations], so overrides can
// come in any order. When the value is wrong on its own, the message is
// written against c, so a relative range names the current limit.
func (c *Config) checkValue(f *field, v any) []problem {
	if f.owner == "" {
		return nil
	}
	probe := relaxed
	f.set(&probe, v)
	alone := only(probe.ownerProblems(), f)
	if len(alone) == 0 {
		return nil
	}
	ctx := inEffect(*c, f)
	f.set(&ctx, v)
	if here := only(ctx.ownerProblems(), f); len(here) > 0 {
		return here
	}
	return alone
}

func only(ps []problem, f *field) []problem {
	var out []problem
	for _, p := range ps {
		// A key that sets two options (window.logical_size) may be refused
		// twice in the same words: say it once.
		if p.field == f && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// relations reports what the owners reject in c as it is: the relations
// between keys (a prefix above the update limit, timestamped delivery with
// variable steps) and, for a Config changed in code, any bad value. Keys in
// skip already have a message.
func (c *Config) relations(name func(key string) string, skip map[string]bool) []error {
	var errs []error
	for _, p := range c.ownerProblems() {
		if p.field == nil {
			errs = append(errs, &Error{File: name(""), Problem: p.problem, Allowed: p.allowed})
			continue
		}
		if skip[p.field.key] {
			continue
		}
		skip[p.field.key] = true
		errs = append(errs, &Error{File: name(p.field.key), Key: p.field.key, Value: formatValue(p.field.get(c)),
			Problem: p.problem, Allowed: p.allowed})
	}
	return errs
}
