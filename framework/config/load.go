package config

import (
	"cmp"
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/metronome-go/metronome/internal/suggest"
	"github.com/metronome-go/metronome/option"
)

// Error is one problem with one key: the file (or "command line"), the key,
// the value as written, what is wrong and what is allowed.
type Error struct {
	File    string
	Key     string
	Value   string
	Problem string
	// Allowed states what the key accepts, as the package that owns the
	// option states it; empty when the problem says it.
	Allowed string
}

// Error reads "config: FILE: KEY = VALUE: PROBLEM; allowed: ALLOWED", with a
// long key or value cut ([option.Echo]).
func (e *Error) Error() string {
	s := "config: " + e.File
	if e.Key != "" {
		s += ": " + option.Echo(e.Key)
	}
	if e.Value != "" {
		s += " = " + option.Echo(e.Value)
	}
	s += ": " + e.Problem
	if e.Allowed != "" {
		s += "; allowed: " + e.Allowed
	}
	return s
}

//go:embed defaults.toml
var defaultsTOML []byte

// DefaultsTOML returns the embedded default configuration: every key with
// its default value and a comment saying what it does and what it allows.
func DefaultsTOML() []byte { return append([]byte(nil), defaultsTOML...) }

var defaults = sync.OnceValue(func() Config {
	c := Config{Bindings: map[string][]string{}}
	if errs := c.apply(defaultSource, defaultsTOML); len(errs) > 0 {
		panic("config: embedded defaults are invalid: " + errors.Join(errs...).Error())
	}
	c.sources = nil
	return c
})

// Default returns the embedded defaults. It panics if they do not parse,
// which a test rules out. Safe from any goroutine.
func Default() Config { return defaults().clone() }

// applyPlayer overlays the file at path ("" for none), as [Config.apply]
// does, and then the sets ("key=value", [Config.Set]).
func (c *Config) applyPlayer(path string, sets []string) []error {
	var errs []error
	if path != "" {
		c.file = path
		if data, err := readFile(path); err != nil {
			errs = append(errs, &Error{File: path, Problem: "cannot read the file: " + err.Error()})
		} else {
			errs = c.apply(Source{Origin: FromFile, Name: path}, data)
		}
	}
	for _, s := range sets {
		if err := c.Set(s); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// Parse overlays the TOML document data, read from the file called name,
// onto base and validates the result; every key it sets remembers the file
// as its [FromFile] source. Errors name the file. On any error it returns
// the zero Config and every problem found, joined: a half-valid
// configuration is never returned, and base is never changed.
func Parse(name string, data []byte, base Config) (Config, error) {
	c := base.clone()
	errs := c.apply(Source{Origin: FromFile, Name: name}, data)
	return checked(c, c.relations(func(string) string { return name }, errs))
}

// apply overlays one document on c, keeping every valid value and
// returning a problem for each other one. It does not check relations.
func (c *Config) apply(src Source, data []byte) []error {
	if err := checkShape(src.Name, data); err != nil {
		return []error{err}
	}
	var doc map[string]toml.Primitive
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return []error{&Error{File: fmt.Sprintf("%s:%d:%d", src.Name, pe.Position.Line, pe.Position.Col), Problem: "invalid TOML: " + pe.Message}}
		}
		return []error{&Error{File: src.Name, Problem: "invalid TOML: " + err.Error()}}
	}
	l := layer{c: c, src: src, md: md}
	l.walk("", doc)
	return l.errs
}

// layer reads one document into a Config.
type layer struct {
	c    *Config
	src  Source
	md   toml.MetaData
	errs []error
}

func (l *layer) fail(key, value, problem, allowed string) {
	l.errs = append(l.errs, &Error{File: l.src.Name, Key: key, Value: value, Problem: problem, Allowed: allowed})
}

func (l *layer) walk(prefix string, table map[string]toml.Primitive) {
	for _, k := range slices.Sorted(maps.Keys(table)) {
		v := table[k]
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		switch {
		case l.c.field(key) != nil:
			l.value(l.c.field(key), v)
		case slices.Contains(tables, key) || l.c.game.isTable(key):
			// BurntSushi leaves the map nil, with no error, for a value
			// that is not a table.
			if sub := map[string]toml.Primitive(nil); l.md.PrimitiveDecode(v, &sub) == nil && sub != nil {
				l.walk(key, sub)
			} else {
				var raw any
				_ = l.md.PrimitiveDecode(v, &raw)
				l.fail(key, render(raw), fmt.Sprintf("want a table ([%s])", key), "")
			}
		case key == gameTableName:
			l.fail(key, "", "the game declares no settings, so there is no [game] table (a game declares them with Config.WithGame)", "")
		default:
			l.errs = append(l.errs, l.c.unknownKey(l.src.Name, key))
		}
	}
}

func (l *layer) value(f *field, p toml.Primitive) {
	conv, v, err := decode(l.md, p, f.typ, f.words)
	var ps []problem
	if err != nil {
		ps = []problem{{problem: err.Error(), allowed: f.allowedValues()}}
	} else {
		ps = l.c.checkValue(f, conv)
	}
	for _, p := range ps {
		l.fail(f.key, render(v), p.problem, p.allowed)
	}
	if len(ps) == 0 {
		f.set(l.c, conv)
		l.c.setSource(f.key, l.src)
	}
}

// unknownKey suggests the nearest real keys and tables.
func (c *Config) unknownKey(file, key string) error {
	known, names := slices.Concat(Keys(), tables), slices.Clone(tables)
	if c.game != nil {
		known = append(known, c.game.tables...) // [game] first
		for _, f := range c.game.fields {
			known = append(known, f.key)
		}
		names = append(names, gameTableName)
	}
	hint := suggest.Hint(key, known, false)
	if hint == "" {
		hint = fmt.Sprintf("; the tables are [%s]", strings.Join(names, "], ["))
	}
	return &Error{File: file, Key: key, Problem: "unknown key" + hint}
}

// Set applies one command-line override, "key=value" with the TOML key and
// the value as text (durations as "16ms", lists comma-separated), and
// records it as coming from the command line. It checks the key and the
// value's own range, but not the relations between keys, so overrides can
// come in any order: call [Config.Validate] after the last one. On error c
// is unchanged. It never changes a Config that c was copied from.
//
// The override is read as a one-key document: the value is written as the
// key's type is in TOML and goes through the file's checks.
func (c *Config) Set(assignment string) error {
	key, value, ok := strings.Cut(assignment, "=")
	if !ok {
		return &Error{File: commandLine.Name, Key: assignment, Problem: "want key=value, such as timing.mode=fixed"}
	}
	key, value = strings.TrimSpace(key), strings.TrimSpace(value)
	parts := strings.Split(key, ".")
	t := reflect.TypeFor[string]()
	if f := c.field(key); f != nil {
		t = f.typ
		if f.action != "" { // an action's name may hold a dot
			parts = append(strings.Split(bindingsTable, "."), f.action)
		}
	}
	for i, p := range parts {
		parts[i] = strconv.Quote(p)
	}
	next := c.clone()
	if errs := next.apply(commandLine, []byte(strings.Join(parts, ".")+" = "+literal(t, value))); len(errs) > 0 {
		for _, err := range errs {
			if e, ok := err.(*Error); ok && e.Key == key && e.Value != "" {
				e.Value = value // as typed, not as the document wrote it
			}
		}
		return errors.Join(errs...)
	}
	*c = next
	return nil
}

// Validate checks every value and the relations between keys, reporting
// every problem at once. source names the origin in messages (a file name
// or "command line"); "" names each key's own [Config.Source].
func (c *Config) Validate(source string) error {
	name := func(key string) string { return cmp.Or(source, c.Source(key).Name) }
	errs := c.relations(name, nil)
	for _, action := range slices.Sorted(maps.Keys(c.Bindings)) { // no owner checks them
		f := c.field(bindingsTable + "." + action)
		for _, p := range c.checkValue(f, c.Bindings[action]) {
			errs = append(errs, &Error{File: name(f.key), Key: f.key, Value: formatValue(c.Bindings[action]), Problem: p.problem})
		}
	}
	return errors.Join(errs...)
}

// echo quotes s for a message, cut when long ([option.Echo]).
func echo(s string) string { return option.Echo(strconv.Quote(s)) }
