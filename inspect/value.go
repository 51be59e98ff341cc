package inspect

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/metronome-go/metronome/ecs"
)

// Values are written as JSON by reflection, fields in declaration order
// (encoding/json would sort a map's keys and skip unexported fields, which
// a game's components have as often as exported ones).

const (
	maxDepth    = 12  // nesting written before "…"
	maxElements = 512 // elements of a slice, array or map written
)

var entityType = reflect.TypeFor[ecs.Entity]()

// readable returns v as a value whose Interface works: a field reached
// through an unexported field is read through its address.
func readable(v reflect.Value) reflect.Value {
	if v.CanInterface() || !v.CanAddr() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// appendJSON appends v as JSON to b. Floats that JSON cannot hold (NaN,
// infinities) become strings.
func appendJSON(b []byte, v reflect.Value, depth int) []byte {
	if !v.IsValid() {
		return append(b, "null"...)
	}
	if depth > maxDepth {
		return strconv.AppendQuote(b, "…")
	}
	if v.Type() == entityType {
		if e, ok := readable(v).Interface().(ecs.Entity); ok {
			return strconv.AppendQuote(b, e.String())
		}
	}
	switch v.Kind() {
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(b, v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return appendFloat(b, v.Float(), v.Type().Bits())
	case reflect.Complex64, reflect.Complex128:
		return strconv.AppendQuote(b, fmt.Sprint(v.Complex()))
	case reflect.String:
		return appendString(b, v.String())
	case reflect.Struct:
		b = append(b, '{')
		t := v.Type()
		for i := range t.NumField() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, t.Field(i).Name)
			b = append(b, ':')
			b = appendJSON(b, v.Field(i), depth+1)
		}
		return append(b, '}')
	case reflect.Array, reflect.Slice:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return append(b, "null"...)
		}
		b = append(b, '[')
		n := v.Len()
		for i := range min(n, maxElements) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, v.Index(i), depth+1)
		}
		if n > maxElements {
			b = append(b, ',')
			b = strconv.AppendQuote(b, fmt.Sprintf("… %d more", n-maxElements))
		}
		return append(b, ']')
	case reflect.Map:
		if v.IsNil() {
			return append(b, "null"...)
		}
		keys := v.MapKeys()
		names := make([]string, len(keys))
		for i, k := range keys {
			names[i] = fmt.Sprint(readable(k))
		}
		order := make([]int, len(keys))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(x, y int) int { return strings.Compare(names[x], names[y]) })
		b = append(b, '{')
		for j, i := range order[:min(len(order), maxElements)] {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendString(b, names[i])
			b = append(b, ':')
			b = appendJSON(b, v.MapIndex(keys[i]), depth+1)
		}
		return append(b, '}')
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return append(b, "null"...)
		}
		return appendJSON(b, v.Elem(), depth+1)
	default: // channels, functions, unsafe pointers: named, not followed
		return strconv.AppendQuote(b, v.Type().String())
	}
}

func appendFloat(b []byte, f float64, bits int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.AppendQuote(b, strconv.FormatFloat(f, 'g', -1, bits))
	}
	return strconv.AppendFloat(b, f, 'g', -1, bits)
}

// appendString appends s as a JSON string, invalid UTF-8 replaced.
func appendString(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return strconv.AppendQuoteToGraphic(b, s)
}

// componentName matches a component type's name as a query gives it: the
// full name ("main.Ball") or the name without its package ("Ball").
func componentName(t ecs.ComponentType, name string) bool {
	full := t.Name()
	if full == name {
		return true
	}
	_, short, ok := strings.Cut(full, ".")
	for ok && strings.Contains(short, ".") {
		_, short, ok = strings.Cut(short, ".")
	}
	return ok && short == name
}

// field follows path ("Position.X", "Cells[3].Kind") from a component's
// value; the error names the step that does not exist and what does.
func field(v reflect.Value, path string) (reflect.Value, error) {
	for path != "" {
		for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
			if v.IsNil() {
				return reflect.Value{}, fmt.Errorf("%s is nil before %q", v.Type(), path)
			}
			v = v.Elem()
		}
		if path[0] == '[' {
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return reflect.Value{}, fmt.Errorf("an index opens in %q and does not close", path)
			}
			i, err := strconv.Atoi(path[1:end])
			if k := v.Kind(); k != reflect.Slice && k != reflect.Array {
				return reflect.Value{}, fmt.Errorf("%s is not a slice or array: it takes no index %q", v.Type(), path[:end+1])
			}
			if err != nil || i < 0 || i >= v.Len() {
				return reflect.Value{}, fmt.Errorf("index %q: want 0 to %d", path[1:end], v.Len()-1)
			}
			v, path = v.Index(i), strings.TrimPrefix(path[end+1:], ".")
			continue
		}
		name := path
		if i := strings.IndexAny(path, ".["); i >= 0 {
			name, path = path[:i], path[i:]
			path = strings.TrimPrefix(path, ".")
		} else {
			path = ""
		}
		if v.Kind() != reflect.Struct {
			return reflect.Value{}, fmt.Errorf("%s has no fields: cannot take %q", v.Type(), name)
		}
		f := v.FieldByName(name)
		if !f.IsValid() {
			var names []string
			for i := range v.NumField() {
				names = append(names, v.Type().Field(i).Name)
			}
			return reflect.Value{}, fmt.Errorf("%s has no field %q: it has %s", v.Type(), name, strings.Join(names, ", "))
		}
		v = f
	}
	return v, nil
}
