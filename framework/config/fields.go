package config

import (
	"encoding"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
)

// The framework's keys are not listed anywhere: they are the fields of
// Config's tables, which are the owners' option structs (timing.Options,
// input.PollingOptions, window.Options, render2d.Screen) and the few
// tables the configuration translates (runtime rates, audio volumes). One
// walk over those structs finds every key, its type and the owner's field
// it sets, and serves files, --set, messages and --print-config.
//
// A field's key is its toml tag, or its name in snake_case; "-" leaves it
// out, a struct is a table, and an embedded struct's fields (or a struct
// tagged ",inline") are its parent's. Two int fields under one tag are one "WxH" key
// (render2d.Screen's logical_size). A field of an owner's struct is
// reported under its key when the owner's Validate names it
// ("DebtOptions.Gain"); a field of the configuration's own tables names
// the owner's field it becomes in an option tag
// (`option:"runtime Options.FrameCap"`).

// field is one framework key.
type field struct {
	key   string
	typ   reflect.Type // the value's type; input.Size for a pair
	words []string     // an enumeration's names, from the owning package
	// owner is the package whose Validate ranges the key ("timing"), ""
	// for none; goFields are the option.Error Field names it answers to.
	owner    string
	goFields []string
	// allowed, when set, replaces the owner's statement: for a key whose
	// unit differs from the option's (frames per second for an interval).
	allowed string
	index   []int
	pair    []int // the second int of a "WxH" pair, nil for none
}

var (
	sizeType  = reflect.TypeFor[input.Size]()
	configPkg = reflect.TypeFor[Config]().PkgPath()
)

// isLeaf reports whether a field of type t is a key rather than a table.
func isLeaf(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int64, reflect.Float64, reflect.String:
		return true
	case reflect.Slice:
		return t.Elem().Kind() == reflect.String
	}
	return isText(t)
}

// isEnum reports whether t is an enumeration: a small integer that reads
// its own names.
func isEnum(t reflect.Type) bool { return t.Kind() == reflect.Uint8 && isText(t) }

// walkFields lists the keys of struct type t under table, in field order;
// a table's own keys come before its nested tables.
func walkFields(t reflect.Type, index []int, table string, out []field) []field {
	var later []func([]field) []field
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name, opts, _ := strings.Cut(sf.Tag.Get("toml"), ",")
		if name == "-" || !sf.IsExported() {
			continue
		}
		idx := append(append([]int(nil), index...), i)
		if name == "" {
			name = snakeCase(sf.Name)
		}
		leaf := isLeaf(sf.Type)
		switch {
		case !leaf && sf.Type.Kind() == reflect.Struct && (sf.Anonymous || opts == "inline"):
			out = walkFields(sf.Type, idx, table, out)
			continue
		case !leaf && sf.Type.Kind() == reflect.Struct:
			sub := table + "." + name
			later = append(later, func(out []field) []field { return walkFields(sf.Type, idx, sub, out) })
			continue
		case !leaf:
			panic(fmt.Sprintf("config: %v.%s: type %v has no form in a file", t, sf.Name, sf.Type))
		}
		key := table + "." + name
		if n := len(out); sf.Type.Kind() == reflect.Int && n > 0 && out[n-1].key == key {
			out[n-1].typ, out[n-1].pair = sizeType, idx // Width, Height int `toml:"size"`
			out[n-1].goFields = append(out[n-1].goFields, ownerField(t, sf)...)
			continue
		}
		f := field{key: key, typ: sf.Type, index: idx}
		if tag, ok := sf.Tag.Lookup("option"); ok {
			f.owner, _, _ = strings.Cut(tag, " ")
			f.goFields = []string{strings.ReplaceAll(tag, " ", ".")}
		} else {
			f.goFields = ownerField(t, sf)
			if len(f.goFields) > 0 {
				f.owner, _, _ = strings.Cut(f.goFields[0], ".")
			}
		}
		if isEnum(sf.Type) {
			f.words = enumWords(sf.Type)
		}
		// A rejection of a part of a value (Options.Rate.Num) is the key's.
		if sf.Type.Kind() == reflect.Struct {
			for j := 0; j < sf.Type.NumField(); j++ {
				for _, g := range f.goFields[:min(1, len(f.goFields))] {
					f.goFields = append(f.goFields, g+"."+sf.Type.Field(j).Name)
				}
			}
		}
		out = append(out, f)
	}
	for _, l := range later {
		out = l(out)
	}
	return out
}

// ownerField names the option.Error Field of a field of an owner's struct
// t ("timing.DebtOptions.Gain"); none for the configuration's own structs.
func ownerField(t reflect.Type, sf reflect.StructField) []string {
	if t.PkgPath() == configPkg {
		return nil
	}
	pkg := t.PkgPath()[strings.LastIndexByte(t.PkgPath(), '/')+1:]
	return []string{pkg + "." + t.Name() + "." + sf.Name}
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

// get returns the key's value in c, of type f.typ.
func (f *field) get(c *Config) any {
	v := reflect.ValueOf(c).Elem().FieldByIndex(f.index)
	if f.pair != nil {
		w := reflect.ValueOf(c).Elem().FieldByIndex(f.pair)
		return input.Size{Width: int(v.Int()), Height: int(w.Int())}
	}
	return v.Interface()
}

// set stores a value of type f.typ in c.
func (f *field) set(c *Config, x any) {
	v := reflect.ValueOf(c).Elem().FieldByIndex(f.index)
	if f.pair != nil {
		s := x.(input.Size)
		v.SetInt(int64(s.Width))
		reflect.ValueOf(c).Elem().FieldByIndex(f.pair).SetInt(int64(s.Height))
		return
	}
	v.Set(reflect.ValueOf(x))
}

// decode reads a value of the key from TOML or, with fromText, from text.
func (f *field) decode(v any, fromText bool) (any, error) {
	x, err := decode(f.typ, v, fromText, f.words)
	if err != nil {
		return nil, err
	}
	return x.Interface(), nil
}

// allowedWords states an enumeration's names, "" for another key.
func (f *field) allowedWords() string {
	if f.words == nil {
		return ""
	}
	return quoteList(f.words)
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
	lo = int((time.Second + maxInterval - 1) / maxInterval)
	hi = int(time.Second / minInterval)
	return lo, hi
}

// fields lists the framework's keys in file order.
var fields = func() []field {
	var out []field
	t := reflect.TypeFor[Config]()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if name, ok := sf.Tag.Lookup("toml"); ok && name != "-" {
			out = walkFields(sf.Type, []int{i}, name, out)
		}
	}
	// Keys in frames per second state the runtime's interval ranges in
	// their own unit.
	for i := range out {
		switch out[i].key {
		case "runtime.frame_cap":
			lo, hi := rateRange(time.Nanosecond, runtime.MaxFrameCap)
			out[i].allowed = fmt.Sprintf("0 (no cap) or %d to %d frames per second", lo, hi)
		case "runtime.hidden_rate":
			lo, hi := rateRange(runtime.MinIdleInterval, runtime.MaxIdleInterval)
			out[i].allowed = fmt.Sprintf("%d to %d frames per second", lo, hi)
		case "window.logical_size":
			out[i].allowed = fmt.Sprintf(`each side 1 to %d, or "0x0" (no logical resolution)`, render2d.MaxScreenSize)
		}
	}
	return out
}()

// Tables of the framework's keys, and the table whose keys are action
// names chosen by the game.
const (
	bindingsTable = "input.bindings"
	gameTableName = "game"
)

// tables are the framework's names that hold keys, in file order.
var tables = func() []string {
	var out []string
	for _, f := range fields {
		if t := f.key[:strings.LastIndexByte(f.key, '.')]; len(out) == 0 || out[len(out)-1] != t {
			out = append(out, t)
		}
	}
	return append(out, "input", bindingsTable)
}()

var fieldIndex = func() map[string]*field {
	m := make(map[string]*field, len(fields))
	for i := range fields {
		m[fields[i].key] = &fields[i]
	}
	return m
}()

// byGoField finds the key of an owner's field ("timing.DebtOptions.Gain").
var byGoField = func() map[string]*field {
	m := map[string]*field{}
	for i := range fields {
		for _, g := range fields[i].goFields {
			m[g] = &fields[i]
		}
	}
	return m
}()

// goNames maps the Go names an owner's messages use (qualified, and bare
// where that is unambiguous) to keys, so "0 to MaxFixedUpdates (2)" reads
// "0 to timing.max_fixed_updates (2)". It is derived from the same walk.
var goNames = func() map[string]map[string]string {
	m := map[string]map[string]string{}
	bare := map[string]map[string]int{}
	for _, f := range fields {
		for _, g := range f.goFields {
			owner, name, _ := strings.Cut(g, ".")
			if m[owner] == nil {
				m[owner], bare[owner] = map[string]string{}, map[string]int{}
			}
			m[owner][name] = f.key
			if _, short, ok := strings.Cut(name, "."); ok && !strings.Contains(short, ".") {
				bare[owner][short]++
				if bare[owner][short] == 1 {
					m[owner][short] = f.key
				} else {
					delete(m[owner], short)
				}
			}
		}
	}
	return m
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
