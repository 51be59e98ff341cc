package config

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/metronome-go/metronome/internal/suggest"
)

// gameTable is the [game] table: the keys of the game's settings struct,
// and a private copy of the struct holding the current values.
type gameTable struct {
	typ    reflect.Type
	fields []field
	tables []string // "game" and the nested tables, such as "game.audio"
	val    reflect.Value
}

var errOutOfRange = errors.New("out of range")

// WithGame returns c with a [game] table made from the game's settings:
// settings points to a struct whose exported fields become the table's
// keys, their current values its defaults. Files and --set then fill the
// table with the strictness of the framework's own keys: an unknown key is
// an error with a suggestion, and every value is checked for its type and
// range. Read the result with [Config.DecodeGame]; settings itself is never
// changed.
//
// Struct tags say what a field allows:
//
//	Lives int           `toml:"lives" range:"1,9"`
//	Difficulty string   `choice:"easy,normal,hard"`
//	Respawn time.Duration `range:"0s,10s"` // written "1.5s" in the file
//	Volume float64      `range:"0,1"`
//	Audio AudioSettings // a nested struct is the table [game.audio]
//
// toml names the key (default: the field name in snake_case; "-" leaves
// the field out). range is "lo,hi" with both ends included and either end
// may be empty; choice lists the allowed strings, for a string or []string
// field. The supported types are bool, the integer and float types,
// string, []string, time.Duration (as a duration string) and nested
// structs. A settings value that breaks its own tags, an unsupported type
// or a bad tag is an error naming the field.
func (c Config) WithGame(settings any) (Config, error) {
	v := reflect.ValueOf(settings)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return Config{}, fmt.Errorf("config: WithGame needs a non-nil pointer to a struct, got %T", settings)
	}
	t := v.Elem().Type()
	w := walker{game: true, tables: []string{gameTableName}}
	w.walk(t, nil, gameTableName, t.Name())
	g := &gameTable{typ: t, fields: w.fields, tables: w.tables, val: reflect.New(t).Elem()}
	g.val.Set(v.Elem())
	errs := w.errs
	for i := range g.fields {
		f := &g.fields[i]
		if slices.Contains(g.tables, f.key) || slices.ContainsFunc(g.fields[:i], func(o field) bool { return o.key == f.key }) {
			errs = append(errs, fmt.Errorf("config: game settings %s: key %s is used twice", f.goName, f.key))
		}
		if err := f.check(f.load(g.val)); err != nil {
			errs = append(errs, fmt.Errorf("config: game settings %s: the default %s: %v; allowed: %s", f.goName, formatValue(f.load(g.val)), err, f.allowedValues()))
		}
	}
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	c = c.clone()
	c.game = g
	maps.DeleteFunc(c.sources, func(k string, _ Source) bool { return strings.HasPrefix(k, gameTableName+".") })
	return c, nil
}

// rangeTags reads a [game] field's range and choice tags.
func (f *field) rangeTags(sf reflect.StructField) error {
	k := sf.Type.Kind()
	if choice, ok := sf.Tag.Lookup("choice"); ok {
		if k != reflect.String && k != reflect.Slice {
			return fmt.Errorf("choice is for string fields, not %v", sf.Type)
		}
		for _, c := range strings.Split(choice, ",") {
			if c = strings.TrimSpace(c); c == "" || slices.Contains(f.choices, c) {
				return fmt.Errorf("choice %q lists an empty or repeated word", choice)
			}
			f.choices = append(f.choices, c)
		}
	}
	r, ok := sf.Tag.Lookup("range")
	if !ok {
		return nil
	}
	if k < reflect.Int || k > reflect.Float64 { // a leaf, so not a uintptr
		return fmt.Errorf("range is for numbers and durations, not %v", sf.Type)
	}
	ends := strings.Split(r, ",")
	if len(ends) != 2 {
		return fmt.Errorf("range %q: want \"lo,hi\" (either may be empty)", r)
	}
	for i, bound := range []*any{&f.lo, &f.hi} {
		if s := strings.TrimSpace(ends[i]); s != "" {
			v, err := fromText(f.typ, s)
			if err != nil {
				return fmt.Errorf("range %q: %q: %v", r, s, err)
			}
			*bound = v
		}
	}
	if f.lo != nil && f.hi != nil && less(f.hi, f.lo) {
		return fmt.Errorf("range %q: lo is above hi", r)
	}
	return nil
}

// less compares two numbers of one type.
func less(a, b any) bool {
	x, y := reflect.ValueOf(a), reflect.ValueOf(b)
	switch {
	case x.CanInt():
		return x.Int() < y.Int()
	case x.CanUint():
		return x.Uint() < y.Uint()
	}
	return x.Float() < y.Float()
}

// check reports what is wrong with a converted value: outside the range
// or not a choice.
func (f *field) check(v any) error {
	if f.lo != nil && less(v, f.lo) || f.hi != nil && less(f.hi, v) {
		return errOutOfRange
	}
	if f.choices == nil {
		return nil
	}
	if s, ok := v.(string); ok && !slices.Contains(f.choices, s) {
		return fmt.Errorf("unknown value%s", suggest.Hint(s, f.choices, true))
	}
	if list := reflect.ValueOf(v); list.Kind() == reflect.Slice {
		for i := range list.Len() {
			if s := list.Index(i).String(); !slices.Contains(f.choices, s) {
				return fmt.Errorf("unknown value %s%s", echo(s), suggest.Hint(s, f.choices, true))
			}
		}
	}
	return nil
}

// allowedValues states what the key's values may be, for a message about
// one that did not decode or is out of its range: what a binding lists, a
// framework enumeration's names, "" for another framework key (whose owner
// states its range), a [game] key's range or choices, or else the range of
// its integer type.
func (f *field) allowedValues() string {
	switch {
	case f.action != "":
		return `a list of key and button names or axis bindings, such as ["Space", "MouseLeft"]`
	case !f.game:
		return quoteList(f.words)
	case f.choices != nil && f.typ.Kind() == reflect.Slice:
		return "a list of " + quoteList(f.choices)
	case f.choices != nil:
		return quoteList(f.choices)
	case f.lo != nil && f.hi != nil:
		return fmt.Sprintf("%s to %s", formatBound(f.lo), formatBound(f.hi))
	case f.lo != nil:
		return fmt.Sprintf("%s or more", formatBound(f.lo))
	case f.hi != nil:
		return fmt.Sprintf("at most %s", formatBound(f.hi))
	case f.typ != durationType && f.typ.Kind() >= reflect.Int && f.typ.Kind() <= reflect.Int64:
		return fmt.Sprintf("an integer from %d to %d", int64(-1)<<(f.typ.Bits()-1), uint64(1)<<(f.typ.Bits()-1)-1)
	case f.typ.Kind() >= reflect.Uint && f.typ.Kind() <= reflect.Uint64:
		return fmt.Sprintf("an integer from 0 to %d", uint64(1)<<(f.typ.Bits())-1)
	}
	return ""
}

// formatBound writes a range's end as a range tag states it.
func formatBound(v any) string {
	if d, ok := v.(time.Duration); ok {
		return d.String()
	}
	return strings.TrimSuffix(formatValue(v), ".0")
}

// field returns the [game] key, or nil; g may be nil.
func (g *gameTable) field(key string) *field {
	if g != nil {
		if i := slices.IndexFunc(g.fields, func(f field) bool { return f.key == key }); i >= 0 {
			return &g.fields[i]
		}
	}
	return nil
}

func (g *gameTable) isTable(key string) bool { return g != nil && slices.Contains(g.tables, key) }

func (g *gameTable) clone() *gameTable {
	c := *g
	c.val = reflect.New(g.typ).Elem()
	c.val.Set(g.val)
	for i := range g.fields { // a list must not share its array with the original
		if f := &g.fields[i]; f.typ.Kind() == reflect.Slice {
			f.store(c.val, f.load(g.val))
		}
	}
	return &c
}

// DecodeGame copies the [game] table into the struct dst points to, which
// must have the type given to [Config.WithGame].
func (c Config) DecodeGame(dst any) error {
	if c.game == nil {
		return errors.New("config: DecodeGame: the configuration has no [game] table; declare the settings with WithGame")
	}
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Type() != c.game.typ {
		return fmt.Errorf("config: DecodeGame needs a non-nil *%v, got %T", c.game.typ, dst)
	}
	v.Elem().Set(c.game.clone().val)
	return nil
}
