package config

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/suggest"
)

// checkBinding checks one action's binding on its own: a usable action
// name and texts that name known buttons or axes, so a misspelt key is
// found when the file is read, before any window opens. Whether the action
// takes buttons or axes is known only once the game registers it
// ([Config.CheckBindings]); a button name is valid for both.
func checkBinding(action string, texts []string) []string {
	var problems []string
	if action == "" || strings.TrimSpace(action) != action {
		problems = append(problems, fmt.Sprintf("the action name %s is empty or has surrounding space", echo(action)))
	}
	if len(texts) == 0 {
		problems = append(problems, `no key or button names; list at least one, such as ["Space"]`)
	}
	for _, t := range texts {
		_, err := input.ParseAxisBinding(t) // a button, an axis, or buttons "A/D"
		if err != nil && !strings.ContainsAny(strings.TrimSpace(t), "/ ") {
			// A plain name that is neither: the button message, whose
			// suggestions are the likely fix.
			_, err = input.ParseButton(t)
		}
		if err != nil {
			problems = append(problems, inputProblems(err)...)
		}
	}
	return problems
}

// inputProblems lists the messages of an input error without the package
// prefix, one per joined error.
func inputProblems(err error) []string {
	var out []string
	for _, e := range flatten(err) {
		out = append(out, ownerText(e).Error())
	}
	return out
}

// CheckBindings checks every [input.bindings] entry against the actions
// the game registered: a binding for an action that does not exist is an
// error naming the nearest registered one (a binding for "lanch" would
// otherwise register a new action nobody reads and leave "launch" as it
// was), and each text must suit its action, a button name for a button
// action, an axis binding such as "GamepadLeftX" or "A/D" for an analog
// one. Each error names the source of the binding, the key and what is
// allowed. After it passes, [input.Actions.Configure] accepts the bindings.
//
// The framework calls it once the game has registered its actions and
// before it applies the bindings. Safe while other goroutines use actions.
func (c Config) CheckBindings(actions *input.Actions) error {
	known := make([]string, 0, actions.Len())
	for act := input.Action(1); int(act) <= actions.Len(); act++ {
		known = append(known, actions.Name(act))
	}
	slices.Sort(known)
	var errs []error
	for _, action := range slices.Sorted(maps.Keys(c.Bindings)) {
		key := bindingsTable + "." + action
		fail := func(problem, allowed string) {
			errs = append(errs, &Error{File: c.Source(key).Name, Key: key, Value: formatValue(c.Bindings[action]),
				Problem: problem, Allowed: allowed})
		}
		act, ok := actions.Lookup(action)
		if !ok {
			allowed := "an action the game registers"
			switch {
			case len(known) == 0:
				allowed = "none: the game registers no actions"
			case len(known) <= 12:
				allowed += ": " + quoteList(known)
			}
			fail(fmt.Sprintf("the game registers no action %s%s", echo(action), suggest.Hint(action, known, true)), allowed)
			continue
		}
		var err error
		allowed := fmt.Sprintf("%q is a button action: button names, such as \"Space\" or \"GamepadA\"", action)
		if actions.Analog(act) {
			_, err = input.ParseAxisBindings(c.Bindings[action]...)
			allowed = fmt.Sprintf("%q is an analog action: axis bindings, such as \"GamepadLeftX\", \"A/D\" or \"GamepadLeftY deadzone=0.25\"", action)
		} else {
			_, err = input.ParseButtons(c.Bindings[action]...)
		}
		if err != nil {
			for _, p := range inputProblems(err) {
				fail(p, allowed)
			}
		}
	}
	return errors.Join(errs...)
}

// CheckOwnBindings keeps a game's keys in one place. An action registered
// with bindings ([input.Actions.Register] with buttons, RegisterAxis with
// axes) has its defaults there, so the game's own embedded config.toml
// must not bind it again: a second copy would win over the registration,
// and a key changed in the code would silently do nothing. Each such entry
// is an error naming the file, the key and the registered bindings. The
// game's config.toml may bind actions registered without bindings (then
// it is their one place); a player's config.toml and --set may rebind any
// action. Check a session's own configuration, not a replay's recorded
// one, in which every layer has become one.
//
// The framework calls it after [Config.CheckBindings], once the game has
// registered its actions. Safe while other goroutines use actions.
func (c Config) CheckOwnBindings(actions *input.Actions) error {
	var errs []error
	for _, action := range slices.Sorted(maps.Keys(c.Bindings)) {
		key := bindingsTable + "." + action
		src := c.Source(key)
		if src.Origin != FromEmbedded {
			continue
		}
		act, ok := actions.Lookup(action)
		if !ok {
			continue // CheckBindings reports it
		}
		defaults := actions.BindingNames(act, true)
		if len(defaults) == 0 {
			continue
		}
		errs = append(errs, &Error{File: src.Name, Key: key, Value: formatValue(c.Bindings[action]),
			Problem: fmt.Sprintf("the game registers %q with bindings of its own (%s), so this is a second place for its keys, and the one that wins", action, quoteList(defaults)),
			Allowed: "in the game's config.toml, bindings for actions registered without any; change a registered action's keys where it is registered (a player's config.toml and --set still rebind it)"})
	}
	return errors.Join(errs...)
}
