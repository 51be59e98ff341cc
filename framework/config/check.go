package config

import (
	"cmp"
	"errors"
	"slices"
	"strings"

	"github.com/metronome-go/metronome/option"
)

// A problem is one owner's rejection translated to a key. A relative
// one ([option.Error.Relative]) is wrong only against other keys.
type problem struct {
	field    *field // nil when no key sets the option
	problem  string
	allowed  string
	relative bool
}

// ownerProblems validates c with the owning packages (the runtime's
// Validate checks the timing, polling and worker options it holds) and
// translates every rejection to the key that sets the option.
func (c *Config) ownerProblems() []problem {
	var out []problem
	for _, err := range []error{c.runtimeOptions().Validate(), c.AudioOptions().Validate(),
		c.Window.Options.Validate(), c.Window.Screen.Validate(), c.Net.Validate()} {
		for _, err := range flatten(err) {
			if fe := (*option.Error)(nil); errors.As(err, &fe) {
				out = append(out, translate(fe))
			} else {
				out = append(out, problem{problem: err.Error()})
			}
		}
	}
	return out
}

// flatten lists the errors err joins, recursively; none for nil.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// translate turns an owner's rejection into a problem of the key that
// sets the option, with the keys of the other options it names in place
// of their Go names.
func translate(e *option.Error) problem {
	p := problem{field: byGoField[e.Pkg+"."+e.Field], problem: strings.TrimPrefix(e.Problem, "is "),
		allowed: e.Allowed, relative: e.Relative}
	for _, n := range e.Names {
		if f := cmp.Or(byGoField[e.Pkg+"."+n], byGoField[n]); f != nil {
			p.problem = strings.ReplaceAll(p.problem, n, f.key)
			p.allowed = strings.ReplaceAll(p.allowed, n, f.key)
		}
	}
	if p.field == nil {
		p.problem = e.Pkg + ": " + e.Field + " " + p.problem
	} else if a, ok := ownAllowed[p.field.key]; ok {
		p.allowed = a
	}
	return p
}

// checkValue reports what is wrong with v (already converted) as the value
// of f on its own. A [game] key is checked against its range tags. For a
// framework key the owners judge c with v in place; what they find wrong
// only against other keys waits for [Config.relations], so keys and
// overrides can come in any order.
func (c *Config) checkValue(f *field, v any) []problem {
	var out []problem
	switch {
	case f.game:
		if err := f.check(v); err != nil {
			out = append(out, problem{problem: err.Error(), allowed: f.allowedValues()})
		}
		return out
	case f.action != "":
		for _, p := range checkBinding(f.action, v.([]string)) {
			out = append(out, problem{problem: p})
		}
		return out
	case len(f.goFields) == 0: // no owner checks it
		return nil
	}
	probe := *c
	f.set(&probe, v)
	for _, p := range probe.ownerProblems() {
		// A key that sets two options (window.logical_size) may be refused
		// twice in the same words: say it once.
		if p.field == f && !p.relative && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// relations reports what the owners reject in c as it is: the relations
// between keys (a prefix above the update limit, timestamped delivery with
// variable steps) and, for a Config changed in code, any bad value, and
// returns them after errs: a key errs already has a message for is not
// reported again, so a relation never repeats a value's own refusal.
func (c *Config) relations(name func(key string) string, errs []error) []error {
	skip := map[string]bool{}
	for _, err := range errs {
		if e := (*Error)(nil); errors.As(err, &e) && e.Key != "" {
			skip[e.Key] = true
		}
	}
	ps := c.ownerProblems()
	// A value wrong on its own is named before one wrong against others.
	ps = append(slices.DeleteFunc(slices.Clone(ps), func(p problem) bool { return p.relative }),
		slices.DeleteFunc(ps, func(p problem) bool { return !p.relative })...)
	for _, p := range ps {
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
