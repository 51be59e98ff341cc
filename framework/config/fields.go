package config

import (
	"cmp"
	"encoding"
	"fmt"
	"path"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
)

// The framework's keys are the fields of Config's tables (see the
// package doc): one walk over those structs finds every key, its type and
// the owner's field it sets, and serves files, --set, messages and
// --print-config. A struct field is a table; an embedded struct's fields,
// or a struct tagged ",inline", are its parent's; two int fields under one
// tag are one "WxH" key (render2d.Screen's logical_size). A field of the
// configuration's own tables names the owner's field it becomes in an
// option tag (`option:"runtime Options.FrameCap"`).
//
// Adding a table is a field of Config whose struct has a toml tag on each
// field not named in snake_case and a Validate reporting *option.Error
// values (Relative for a problem that depends on another field), a call of
// that Validate in ownerProblems, and the table's lines in defaults.toml,
// saying what each key does and allows (a test checks each stated range).

// field is one key: a framework key, or a [game] key.
type field struct {
	key   string
	typ   reflect.Type // the value's type; input.Size for a pair
	words []string     // an enumeration's names, from the owning package
	// goFields are the option.Error Field names the key answers to
	// ("timing.Options.Mode"), none for a key no owner checks.
	goFields []string
	index    []int
	pair     []int  // the second int of a "WxH" pair, nil for none
	action   string // the action of an input.bindings key, "" for another key
	// A [game] key has the Go name of its field, for messages about the
	// struct, and the ranges of its tags: choices are the allowed strings
	// (choice), lo and hi the inclusive range (range), nil for none.
	game    bool
	goName  string
	choices []string
	lo, hi  any
	// secret is a key whose value --print-config and a recording's
	// configuration show as hiddenValue (a TURN relay's shared secret or
	// password): its owner's field is tagged `secret:"true"`.
	secret bool
}

// hiddenValue stands for a secret key's value that is set: a recording
// shared with others, or a configuration pasted into a bug report, must
// not hand out a relay's login. It is a valid value of its key, so the
// configuration still loads (a replay uses no relay).
const hiddenValue = "(hidden)"

var (
	sizeType  = reflect.TypeFor[input.Size]()
	configPkg = reflect.TypeFor[Config]().PkgPath()
)

// isLeaf reports whether a field of type t is a key rather than a table.
func isLeaf(t reflect.Type) bool {
	switch k := t.Kind(); {
	case k == reflect.Bool, k >= reflect.Int && k <= reflect.Uint64, k == reflect.Float32, k == reflect.Float64, k == reflect.String:
		return true
	case k == reflect.Slice:
		return t.Elem().Kind() == reflect.String
	}
	return isText(t)
}

// walker lists the keys of a tree of structs: Config's tables, or a
// game's settings. In a game's settings a field the walk cannot use is an
// error naming it; in Config it is a programming error.
type walker struct {
	game   bool
	fields []field
	tables []string // the tables met, in order ("timing.debt", "game.audio")
	errs   []error
}

func (w *walker) fail(goName, format string, args ...any) {
	if !w.game {
		panic(fmt.Sprintf("config: Config.%s: %s", goName, fmt.Sprintf(format, args...)))
	}
	w.errs = append(w.errs, fmt.Errorf("config: game settings %s: %s", goName, fmt.Sprintf(format, args...)))
}

// walk adds the keys of struct type t, reached by index, under table, in
// field order; a table's own keys come before its nested tables, so the
// printed configuration is valid TOML.
func (w *walker) walk(t reflect.Type, index []int, table, goPath string) {
	var later []func()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name, hasName := sf.Tag.Lookup("toml")
		name, opts, _ := strings.Cut(name, ",")
		inline := sf.Type.Kind() == reflect.Struct && !isLeaf(sf.Type) && (sf.Anonymous && !hasName || opts == "inline")
		if name == "-" || !sf.IsExported() && !inline {
			continue
		}
		idx := append(slices.Clone(index), i)
		goName := strings.TrimPrefix(goPath+"."+sf.Name, ".")
		if inline {
			w.walk(sf.Type, idx, table, goPath) // embedded: its fields are ours
			continue
		}
		name = cmp.Or(name, snakeCase(sf.Name))
		if w.game && !validKey(name) { // a framework key may be dotted: timing.debt.rollback
			w.fail(goName, "key %q: use letters, digits, _ and - only", name)
			continue
		}
		key := table + "." + name
		switch {
		case sf.Type.Kind() == reflect.Struct && !isLeaf(sf.Type):
			w.tables = append(w.tables, key)
			later = append(later, func() { w.walk(sf.Type, idx, key, goName) })
			continue
		case !isLeaf(sf.Type):
			w.fail(goName, "type %v is not supported (bool, integers, floats, string, []string, time.Duration, structs)", sf.Type)
			continue
		}
		if n := len(w.fields); !w.game && sf.Type.Kind() == reflect.Int && n > 0 && w.fields[n-1].key == key {
			prev := &w.fields[n-1]
			prev.typ, prev.pair = sizeType, idx // Width, Height int `toml:"size"`
			prev.goFields = append(prev.goFields, ownerField(t, sf)...)
			continue
		}
		f := field{key: key, typ: sf.Type, index: idx, game: w.game, goName: goName, secret: sf.Tag.Get("secret") == "true"}
		if tag, ok := sf.Tag.Lookup("option"); ok {
			f.goFields = []string{strings.ReplaceAll(tag, " ", ".")}
		} else if !w.game {
			f.goFields = ownerField(t, sf)
		}
		if sf.Type.Kind() == reflect.Uint8 && isText(sf.Type) { // an enumeration
			f.words = enumWords(sf.Type)
		}
		// A rejection of a part of a value (Options.Rate.Num) is the key's.
		if sf.Type.Kind() == reflect.Struct && len(f.goFields) > 0 {
			for j := 0; j < sf.Type.NumField(); j++ {
				f.goFields = append(f.goFields, f.goFields[0]+"."+sf.Type.Field(j).Name)
			}
		}
		if err := f.rangeTags(sf); err != nil {
			w.fail(goName, "%v", err)
			continue
		}
		w.fields = append(w.fields, f)
	}
	for _, l := range later {
		l()
	}
}

// validKey reports whether a [game] key is one bare TOML key: letters,
// digits, _ and -. A loop, not a regexp: a package-level regexp would link
// the regexp engine into every game.
func validKey(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range []byte(k) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// ownerField names the option.Error Field of a field of an owner's struct
// t ("timing.DebtOptions.Gain"); none for the configuration's own structs.
func ownerField(t reflect.Type, sf reflect.StructField) []string {
	if t.PkgPath() == configPkg {
		return nil
	}
	return []string{path.Base(t.PkgPath()) + "." + t.Name() + "." + sf.Name}
}

// enumWords lists the words of an enumeration: every value whose String
// form its UnmarshalText reads back, from zero up.
func enumWords(t reflect.Type) []string {
	var words []string
	for i := range 256 {
		v := reflect.New(t)
		v.Elem().SetUint(uint64(i))
		w := fmt.Sprint(v.Elem().Interface())
		back := reflect.New(t)
		if err := back.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(w)); err != nil || back.Elem().Uint() != uint64(i) {
			break
		}
		words = append(words, w)
	}
	return words
}

// snakeCase turns MaxLives into max_lives and HTTPPort into http_port.
func snakeCase(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// load returns the key's value in the struct root, of type f.typ (a copy,
// for a list).
func (f *field) load(root reflect.Value) any {
	v := root.FieldByIndex(f.index)
	switch {
	case f.pair != nil:
		return input.Size{Width: int(v.Int()), Height: int(root.FieldByIndex(f.pair).Int())}
	case v.Kind() == reflect.Slice:
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(c, v)
		return c.Interface()
	}
	return v.Interface()
}

// store puts a value of type f.typ into the struct root.
func (f *field) store(root reflect.Value, x any) {
	v := root.FieldByIndex(f.index)
	if f.pair != nil {
		s := x.(input.Size)
		v.SetInt(int64(s.Width))
		root.FieldByIndex(f.pair).SetInt(int64(s.Height))
		return
	}
	v.Set(reflect.ValueOf(x))
}

// root is the struct holding the key in c: c itself, or the game's
// settings for a [game] key.
func (f *field) root(c *Config) reflect.Value {
	if f.game {
		return c.game.val
	}
	return reflect.ValueOf(c).Elem()
}

// get returns the key's value in c; nil for an action c does not bind.
func (f *field) get(c *Config) any {
	if f.action == "" {
		return f.load(f.root(c))
	}
	if b, ok := c.Bindings[f.action]; ok {
		return b
	}
	return nil
}

// set stores the key's value in c.
func (f *field) set(c *Config, x any) {
	if f.action == "" {
		f.store(f.root(c), x)
		return
	}
	if c.Bindings == nil {
		c.Bindings = map[string][]string{}
	}
	c.Bindings[f.action] = x.([]string)
}

// field returns the framework, [game] or input.bindings key, or nil. Any
// action may be bound: whether the game registers it is checked later
// ([Config.CheckBindings]).
func (c *Config) field(key string) *field {
	if f := fieldIndex[key]; f != nil {
		return f
	}
	if action, ok := strings.CutPrefix(key, bindingsTable+"."); ok {
		return &field{key: key, typ: stringsType, action: action}
	}
	return c.game.field(key)
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
	return int((time.Second + maxInterval - 1) / maxInterval), int(time.Second / minInterval)
}

// ownAllowed states the range of a key written unlike its owner's option,
// in place of the owner's statement: frames per second for an interval,
// "WxH" for two sides.
var ownAllowed = func() map[string]string {
	capLo, capHi := rateRange(time.Nanosecond, runtime.MaxFrameCap)
	hiddenLo, hiddenHi := rateRange(runtime.MinIdleInterval, runtime.MaxIdleInterval)
	return map[string]string{
		"runtime.frame_cap":   fmt.Sprintf("0 (no cap) or %d to %d frames per second", capLo, capHi),
		"runtime.hidden_rate": fmt.Sprintf("%d to %d frames per second", hiddenLo, hiddenHi),
		"window.logical_size": fmt.Sprintf(`each side 1 to %d, or "0x0" (no logical resolution)`, render2d.MaxScreenSize),
	}
}()

// fields lists the framework's keys in file order, tables the names that
// hold them.
var fields, tables = func() ([]field, []string) {
	var w walker
	t := reflect.TypeFor[Config]()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if name, ok := sf.Tag.Lookup("toml"); ok && name != "-" {
			w.tables = append(w.tables, name)
			w.walk(sf.Type, []int{i}, name, sf.Name)
		}
	}
	return w.fields, append(w.tables, "input", bindingsTable)
}()

// Tables of the framework's keys, and the table whose keys are action
// names chosen by the game.
const (
	bindingsTable = "input.bindings"
	gameTableName = "game"
)

// fieldIndex finds a framework key by its name, byGoField by an owner's
// field it sets ("timing.DebtOptions.Gain").
var fieldIndex, byGoField = func() (byKey, byGo map[string]*field) {
	byKey, byGo = map[string]*field{}, map[string]*field{}
	for i := range fields {
		byKey[fields[i].key] = &fields[i]
		for _, g := range fields[i].goFields {
			byGo[g] = &fields[i]
		}
	}
	return byKey, byGo
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
