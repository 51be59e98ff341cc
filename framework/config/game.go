package config

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/metronome-go/metronome/internal/suggest"
)

// gameTable is the [game] table: the fields of the game's settings struct,
// and a private copy of the struct holding the current values.
type gameTable struct {
	typ    reflect.Type
	fields []*gameField
	tables []string // "game" and the nested tables, such as "game.audio"
	val    reflect.Value
}

// gameField is one key of the [game] table.
type gameField struct {
	key    string // "game.lives"
	goName string // "Settings.Lives", for messages about the struct
	index  []int
	kind   kind
	typ    reflect.Type
	// choices are the allowed strings (choice tag); lo and hi the inclusive
	// range (range tag), nil for none.
	choices []string
	lo, hi  any
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
	g := &gameTable{typ: t, tables: []string{gameTableName}, val: reflect.New(t).Elem()}
	g.val.Set(v.Elem())
	var errs []error
	g.collect(t, nil, gameTableName, t.Name(), &errs)
	seen := map[string]bool{}
	for _, f := range g.fields {
		if seen[f.key] || slices.Contains(g.tables, f.key) {
			errs = append(errs, fmt.Errorf("config: game settings %s: key %s is used twice", f.goName, f.key))
		}
		seen[f.key] = true
		if err := f.check(f.get(g)); err != nil {
			errs = append(errs, fmt.Errorf("config: game settings %s: the default %s: %v; allowed: %s", f.goName, formatValue(f.kind, f.get(g)), err, f.allowed()))
		}
	}
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	c = c.clone()
	c.game = g
	for k := range c.sources {
		if strings.HasPrefix(k, gameTableName+".") {
			delete(c.sources, k)
		}
	}
	return c, nil
}

// collect adds the fields of struct type t, reached by index, under table.
// A table's own keys come before its nested tables, so the printed
// configuration is valid TOML.
func (g *gameTable) collect(t reflect.Type, index []int, table, goPath string, errs *[]error) {
	type nested struct {
		t      reflect.Type
		index  []int
		table  string
		goPath string
	}
	var later []nested
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() && !(sf.Anonymous && sf.Type.Kind() == reflect.Struct) {
			continue
		}
		name, hasName := sf.Tag.Lookup("toml")
		name, _, _ = strings.Cut(name, ",")
		if name == "-" {
			continue
		}
		idx := append(slices.Clone(index), i)
		goName := sf.Name
		if goPath != "" {
			goName = goPath + "." + sf.Name
		}
		if sf.Anonymous && !hasName && sf.Type.Kind() == reflect.Struct {
			g.collect(sf.Type, idx, table, goPath, errs) // embedded: its fields are ours
			continue
		}
		if name == "" {
			name = snakeCase(sf.Name)
		}
		if !validKey(name) {
			*errs = append(*errs, fmt.Errorf("config: game settings %s: key %q: use letters, digits, _ and - only", goName, name))
			continue
		}
		key := table + "." + name
		if sf.Type.Kind() == reflect.Struct && sf.Type != durationType {
			g.tables = append(g.tables, key)
			later = append(later, nested{sf.Type, idx, key, goName})
			continue
		}
		f, err := newGameField(sf, key, goName, idx)
		if err != nil {
			*errs = append(*errs, fmt.Errorf("config: game settings %s: %w", goName, err))
			continue
		}
		g.fields = append(g.fields, f)
	}
	for _, n := range later {
		g.collect(n.t, n.index, n.table, n.goPath, errs)
	}
}

func validKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func newGameField(sf reflect.StructField, key, goName string, index []int) (*gameField, error) {
	f := &gameField{key: key, goName: goName, index: index, typ: sf.Type}
	switch k := sf.Type.Kind(); {
	case sf.Type == durationType:
		f.kind = kindDuration
	case k == reflect.Bool:
		f.kind = kindBool
	case k >= reflect.Int && k <= reflect.Int64, k >= reflect.Uint && k <= reflect.Uint64:
		f.kind = kindInt
	case k == reflect.Float32 || k == reflect.Float64:
		f.kind = kindFloat
	case k == reflect.String:
		f.kind = kindString
	case k == reflect.Slice && sf.Type.Elem().Kind() == reflect.String:
		f.kind = kindStringList
	default:
		return nil, fmt.Errorf("type %v is not supported (bool, integers, floats, string, []string, time.Duration, structs)", sf.Type)
	}
	if choice, ok := sf.Tag.Lookup("choice"); ok {
		if f.kind != kindString && f.kind != kindStringList {
			return nil, fmt.Errorf("choice is for string fields, not %v", sf.Type)
		}
		for _, c := range strings.Split(choice, ",") {
			if c = strings.TrimSpace(c); c == "" || slices.Contains(f.choices, c) {
				return nil, fmt.Errorf("choice %q lists an empty or repeated word", choice)
			}
			f.choices = append(f.choices, strings.TrimSpace(c))
		}
	}
	if r, ok := sf.Tag.Lookup("range"); ok {
		if f.kind != kindInt && f.kind != kindFloat && f.kind != kindDuration {
			return nil, fmt.Errorf("range is for numbers and durations, not %v", sf.Type)
		}
		los, his, ok := strings.Cut(r, ",")
		if !ok {
			return nil, fmt.Errorf("range %q: want \"lo,hi\" (either may be empty)", r)
		}
		var err error
		if f.lo, err = f.bound(los); err != nil {
			return nil, fmt.Errorf("range %q: %v", r, err)
		}
		if f.hi, err = f.bound(his); err != nil {
			return nil, fmt.Errorf("range %q: %v", r, err)
		}
		if f.lo != nil && f.hi != nil && less(f.hi, f.lo) {
			return nil, fmt.Errorf("range %q: lo is above hi", r)
		}
	}
	return f, nil
}

// bound parses one end of a range tag; "" is no bound.
func (f *gameField) bound(s string) (any, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	v, err := convert(f.kind, s, true, nil)
	if err != nil {
		return nil, fmt.Errorf("%q: %v", s, err)
	}
	return v, nil
}

func less(a, b any) bool {
	switch a := a.(type) {
	case int64:
		return a < b.(int64)
	case float64:
		return a < b.(float64)
	case time.Duration:
		return a < b.(time.Duration)
	}
	return false
}

// convert reads a value of the field from TOML or from text.
func (f *gameField) convert(v any, fromText bool) (any, error) {
	if f.kind == kindStringList && fromText {
		v, _ := convert(kindStringList, v, true, nil)
		return v, nil
	}
	return convert(f.kind, v, fromText, nil)
}

// check reports what is wrong with a converted value: outside the range,
// not a choice, or too large for the Go type.
func (f *gameField) check(v any) error {
	if f.lo != nil && less(v, f.lo) || f.hi != nil && less(f.hi, v) {
		return errOutOfRange
	}
	switch f.kind {
	case kindInt:
		n := v.(int64)
		z := reflect.New(f.typ).Elem()
		if z.CanUint() {
			if n < 0 || z.OverflowUint(uint64(n)) {
				return fmt.Errorf("out of range for %v", f.typ)
			}
		} else if z.OverflowInt(n) {
			return fmt.Errorf("out of range for %v", f.typ)
		}
	case kindFloat:
		if x := v.(float64); f.typ.Kind() == reflect.Float32 && math.Abs(x) > math.MaxFloat32 {
			return fmt.Errorf("out of range for %v", f.typ)
		}
	case kindString:
		if f.choices != nil && !slices.Contains(f.choices, v.(string)) {
			return fmt.Errorf("unknown value%s", suggest.Hint(v.(string), f.choices, true))
		}
	case kindStringList:
		if f.choices != nil {
			for _, s := range v.([]string) {
				if !slices.Contains(f.choices, s) {
					return fmt.Errorf("unknown value %q%s", s, suggest.Hint(s, f.choices, true))
				}
			}
		}
	}
	return nil
}

// allowed states the field's range or choices for messages.
func (f *gameField) allowed() string {
	switch {
	case f.choices != nil && f.kind == kindStringList:
		return "a list of " + quoteList(f.choices)
	case f.choices != nil:
		return quoteList(f.choices)
	case f.lo != nil && f.hi != nil:
		return fmt.Sprintf("%s to %s", formatBound(f.kind, f.lo), formatBound(f.kind, f.hi))
	case f.lo != nil:
		return fmt.Sprintf("%s or more", formatBound(f.kind, f.lo))
	case f.hi != nil:
		return fmt.Sprintf("at most %s", formatBound(f.kind, f.hi))
	case f.kind == kindInt:
		z := reflect.New(f.typ).Elem()
		if z.CanUint() {
			return fmt.Sprintf("an integer from 0 to %d", uint64(1)<<(f.typ.Bits())-1)
		}
		return fmt.Sprintf("an integer from %d to %d", int64(-1)<<(f.typ.Bits()-1), uint64(1)<<(f.typ.Bits()-1)-1)
	}
	return ""
}

func formatBound(k kind, v any) string {
	if k == kindDuration {
		return v.(time.Duration).String()
	}
	if k == kindFloat {
		return strconv.FormatFloat(v.(float64), 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// get returns the field's value in the converted form (int64 for every
// integer type).
func (f *gameField) get(g *gameTable) any {
	v := g.val.FieldByIndex(f.index)
	switch f.kind {
	case kindBool:
		return v.Bool()
	case kindInt:
		if v.CanUint() {
			return int64(v.Uint())
		}
		return v.Int()
	case kindFloat:
		return v.Float()
	case kindString:
		return v.String()
	case kindDuration:
		return time.Duration(v.Int())
	case kindStringList:
		return slices.Clone(v.Interface().([]string))
	}
	panic("config: game field of unknown kind")
}

// set stores a checked value.
func (f *gameField) set(g *gameTable, x any) {
	v := g.val.FieldByIndex(f.index)
	switch f.kind {
	case kindBool:
		v.SetBool(x.(bool))
	case kindInt:
		if v.CanUint() {
			v.SetUint(uint64(x.(int64)))
		} else {
			v.SetInt(x.(int64))
		}
	case kindFloat:
		v.SetFloat(x.(float64))
	case kindString:
		v.SetString(x.(string))
	case kindDuration:
		v.SetInt(int64(x.(time.Duration)))
	case kindStringList:
		s := reflect.MakeSlice(f.typ, 0, len(x.([]string)))
		for _, e := range x.([]string) {
			s = reflect.Append(s, reflect.ValueOf(e).Convert(f.typ.Elem()))
		}
		v.Set(s)
	}
}

// field returns the [game] key, or nil; g may be nil.
func (g *gameTable) field(key string) *gameField {
	if g == nil {
		return nil
	}
	for _, f := range g.fields {
		if f.key == key {
			return f
		}
	}
	return nil
}

func (g *gameTable) isTable(key string) bool { return g != nil && slices.Contains(g.tables, key) }

func (g *gameTable) keys() []string {
	if g == nil {
		return nil
	}
	out := slices.Clone(g.tables)
	for _, f := range g.fields {
		out = append(out, f.key)
	}
	return out
}

func (g *gameTable) clone() *gameTable {
	c := *g
	c.val = reflect.New(g.typ).Elem()
	c.val.Set(g.val)
	for _, f := range g.fields { // a list must not share its array with the original
		if f.kind == kindStringList {
			f.set(&c, f.get(g))
		}
	}
	return &c
}

func (l *layer) gameValue(f *gameField, v any) {
	conv, err := f.convert(v, false)
	if err == nil {
		err = f.check(conv)
	}
	if err != nil {
		l.fail(f.key, render(v), err.Error(), f.allowed())
		return
	}
	f.set(l.c.game, conv)
	l.c.setSource(f.key, l.src)
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
