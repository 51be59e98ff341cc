package config

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// Error is one problem with one key: the file (or "command line"), the key,
// the value as written, and what is wrong with it and what is allowed.
type Error struct {
	File    string
	Key     string
	Value   string
	Problem string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("config: ")
	b.WriteString(e.File)
	if e.Key != "" {
		b.WriteString(": ")
		b.WriteString(e.Key)
	}
	if e.Value != "" {
		b.WriteString(" = ")
		b.WriteString(e.Value)
	}
	b.WriteString(": ")
	b.WriteString(e.Problem)
	return b.String()
}

//go:embed defaults.toml
var defaultsTOML []byte

// DefaultsTOML returns the embedded default configuration: every key with
// its default value and a comment saying what it does.
func DefaultsTOML() []byte { return append([]byte(nil), defaultsTOML...) }

// Default returns the embedded defaults. It panics if they do not parse,
// which a test rules out.
func Default() Config {
	c, err := Parse("defaults.toml", defaultsTOML, Config{Bindings: map[string][]string{}})
	if err != nil {
		panic("config: embedded defaults are invalid: " + err.Error())
	}
	return c
}

// Load returns the defaults overlaid with the file at path. A missing file is
// an error; use [Default] when there is no file.
func Load(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return Parse(path, data, Default())
}

// Parse overlays the TOML document data, named name in errors, onto base and
// validates the result. On any error it returns the zero Config and every
// problem found, joined: a half-valid configuration is never returned.
func Parse(name string, data []byte, base Config) (Config, error) {
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return Config{}, &Error{File: fmt.Sprintf("%s:%d:%d", name, pe.Position.Line, pe.Position.Col), Problem: "invalid TOML: " + pe.Message}
		}
		return Config{}, &Error{File: name, Problem: "invalid TOML: " + err.Error()}
	}
	c := base.clone()
	var errs []error
	walk(&c, name, "", doc, &errs)
	errs = append(errs, c.check(name)...)
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	return c, nil
}

// Set applies one command-line override, "key=value" with the TOML key and
// the value as text (durations as "16ms", lists comma-separated).
func (c *Config) Set(assignment string) error {
	key, value, ok := strings.Cut(assignment, "=")
	if !ok {
		return &Error{File: "command line", Key: assignment, Problem: "want key=value, such as timing.mode=fixed"}
	}
	return c.SetKey(strings.TrimSpace(key), strings.TrimSpace(value))
}

// SetKey applies one override given as text. It validates the key and the
// value but not the relations between keys; call [Config.Validate] after
// the last one.
func (c *Config) SetKey(key, value string) error {
	const src = "command line"
	if action, ok := strings.CutPrefix(key, bindingsTable+"."); ok && action != "" {
		v, err := convert(kindStringList, value, true, nil)
		if err != nil {
			return &Error{File: src, Key: key, Value: value, Problem: err.Error()}
		}
		if c.Bindings == nil {
			c.Bindings = map[string][]string{}
		}
		c.Bindings[action] = v.([]string)
		return nil
	}
	f, ok := fieldIndex[key]
	if !ok {
		return unknownKey(src, key)
	}
	v, err := convert(f.kind, value, true, f.enum)
	if err == nil {
		err = f.set(c, v)
	}
	if err != nil {
		return &Error{File: src, Key: key, Value: value, Problem: fmt.Sprintf("%v; allowed: %s", err, f.allowed)}
	}
	return nil
}

// Validate checks the relations between keys, naming them; source names the
// origin in messages (a file name or "command line").
func (c *Config) Validate(source string) error { return errors.Join(c.check(source)...) }

func walk(c *Config, file, prefix string, table map[string]any, errs *[]error) {
	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := table[k]
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		if prefix == bindingsTable {
			list, err := convert(kindStringList, v, false, nil)
			if err != nil {
				*errs = append(*errs, &Error{File: file, Key: key, Value: render(v), Problem: err.Error()})
				continue
			}
			c.Bindings[k] = list.([]string)
			continue
		}
		if f, ok := fieldIndex[key]; ok {
			conv, err := convert(f.kind, v, false, f.enum)
			if err == nil {
				err = f.set(c, conv)
			}
			if err != nil {
				*errs = append(*errs, &Error{File: file, Key: key, Value: render(v), Problem: fmt.Sprintf("%v; allowed: %s", err, f.allowed)})
			}
			continue
		}
		if sub, ok := v.(map[string]any); ok && isTable(key) {
			walk(c, file, key, sub, errs)
			continue
		}
		*errs = append(*errs, unknownKey(file, key))
	}
}

// tables are the names that may hold keys.
var tables = []string{"window", "runtime", "timing", "timing.debt", "polling", "input", bindingsTable}

func isTable(key string) bool {
	for _, t := range tables {
		if t == key {
			return true
		}
	}
	return false
}

func unknownKey(file, key string) error {
	candidates := append(Keys(), tables...)
	problem := "unknown key"
	if m := nearest(key, candidates, 3); len(m) > 0 {
		problem += fmt.Sprintf(" (did you mean %s?)", strings.Join(m, " or "))
	} else {
		problem += fmt.Sprintf("; the tables are [%s]", strings.Join(tables, "], ["))
	}
	return &Error{File: file, Key: key, Problem: problem}
}

func render(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case map[string]any:
		return "{...}"
	}
	return fmt.Sprint(v)
}

func (c Config) clone() Config {
	b := make(map[string][]string, len(c.Bindings))
	for k, v := range c.Bindings {
		b[k] = append([]string(nil), v...)
	}
	c.Bindings = b
	return c
}

// check finds the problems that involve more than one key.
func (c *Config) check(file string) []error {
	var errs []error
	if c.Timing.RecoveryPrefix > c.Timing.MaxFixedUpdates {
		errs = append(errs, &Error{File: file, Key: "timing.recovery_prefix", Value: fmt.Sprint(c.Timing.RecoveryPrefix),
			Problem: fmt.Sprintf("exceeds timing.max_fixed_updates (%d); allowed: 0 to timing.max_fixed_updates", c.Timing.MaxFixedUpdates)})
	}
	if c.Polling.Delivery == "timestamped" && c.Timing.Mode != "fixed" {
		errs = append(errs, &Error{File: file, Key: "polling.delivery", Value: `"timestamped"`,
			Problem: fmt.Sprintf("needs fixed steps, but timing.mode is %q; use timing.mode = \"fixed\" or polling.delivery = \"backlog\"", c.Timing.Mode)})
	}
	if c.Timing.Debt.VariableStep && c.Timing.Debt.Rollback {
		errs = append(errs, &Error{File: file, Key: "timing.debt.variable_step", Value: "true",
			Problem: "a game that declares rollback (timing.debt.rollback = true) cannot merge steps; turn one of them off"})
	}
	for action, names := range c.Bindings {
		if action == "" {
			errs = append(errs, &Error{File: file, Key: bindingsTable, Problem: "an action name is empty"})
		}
		if len(names) == 0 {
			errs = append(errs, &Error{File: file, Key: bindingsTable + "." + action, Problem: "no key or button names; list at least one, such as [\"Space\"]"})
		}
	}
	return errs
}
