package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/suggest"
)

func (l *layer) binding(action string, v any) {
	key := bindingsTable + "." + action
	list, err := convert(kindStringList, v, false, nil)
	if err != nil {
		l.fail(key, render(v), err.Error(), "")
		return
	}
	if problems := checkBinding(action, list.([]string)); len(problems) > 0 {
		for _, p := range problems {
			l.fail(key, render(v), p, "")
		}
		return
	}
	if l.c.Bindings == nil {
		l.c.Bindings = map[string][]string{}
	}
	l.c.Bindings[action] = list.([]string)
	l.c.setSource(key, l.src)
}

// checkBinding checks one action's binding on its own: a usable action
// name and known button names, so a misspelt key is found when the file is
// read, before any window opens.
func checkBinding(action string, names []string) []string {
	var problems []string
	if action == "" || strings.TrimSpace(action) != action {
		problems = append(problems, fmt.Sprintf("the action name %q is empty or has surrounding space", action))
	}
	if len(names) == 0 {
		problems = append(problems, `no key or button names; list at least one, such as ["Space"]`)
	}
	for _, n := range names {
		if _, err := input.ParseButton(n); err != nil {
			problems = append(problems, strings.TrimPrefix(err.Error(), "input: "))
		}
	}
	return problems
}

// checkBindings checks every binding of c, for [Config.Validate].
func (c *Config) checkBindings(name func(key string) string) []error {
	var errs []error
	for _, action := range sortedActions(c.Bindings) {
		key := bindingsTable + "." + action
		for _, p := range checkBinding(action, c.Bindings[action]) {
			errs = append(errs, &Error{File: name(key), Key: key, Value: formatValue(kindStringList, c.Bindings[action]), Problem: p})
		}
	}
	return errs
}

func sortedActions(b map[string][]string) []string {
	out := make([]string, 0, len(b))
	for a := range b {
		out = append(out, a)
	}
	slices.Sort(out)
	return out
}

// CheckBindings reports every [input.bindings] entry whose action is not
// one of actions, the names the game registers, each naming the source of
// the binding and the nearest registered action: a binding for "lanch"
// would otherwise register a new action nobody reads and leave "launch"
// unbound. Button names were checked when the configuration was read.
//
// The framework calls it after the game registers its actions and before
// it applies the bindings.
func (c Config) CheckBindings(actions []string) error {
	known := slices.Sorted(slices.Values(actions))
	var errs []error
	for _, action := range sortedActions(c.Bindings) {
		if _, found := slices.BinarySearch(known, action); found {
			continue
		}
		key := bindingsTable + "." + action
		problem := "the game registers no action " + fmt.Sprintf("%q", action) + suggest.Hint(action, known, true)
		allowed := "an action the game registers"
		switch {
		case len(known) == 0:
			allowed = "none: the game registers no actions"
		case len(known) <= 12:
			allowed += ": " + quoteList(known)
		}
		errs = append(errs, &Error{File: c.Source(key).Name, Key: key, Value: formatValue(kindStringList, c.Bindings[action]),
			Problem: problem, Allowed: allowed})
	}
	return errors.Join(errs...)
}
