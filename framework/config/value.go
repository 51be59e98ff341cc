package config

import (
	"encoding"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/metronome-go/metronome/internal/suggest"
)

// A key's value is a value of its field's Go type: the owners' types read
// and write their own text (timing.Rate, input.Size, render2d.Color, the
// enumerations), durations are time.ParseDuration's, and the rest are
// TOML's booleans, numbers, strings and lists of strings.

var (
	durationType  = reflect.TypeFor[time.Duration]()
	textType      = reflect.TypeFor[encoding.TextUnmarshaler]()
	stringsType   = reflect.TypeFor[[]string]()
	stringListMsg = `a list of strings such as ["Space", "MouseLeft"]`
)

// isText reports whether t reads its own text.
func isText(t reflect.Type) bool {
	return t != durationType && reflect.PointerTo(t).Implements(textType)
}

// want says what a value of type t is written as.
func want(t reflect.Type) string {
	switch k := t.Kind(); {
	case t == durationType:
		return `a duration string such as "16ms" or "2s" (units ns, us, ms, s, m, h)`
	case isText(t):
		return "a string"
	case k == reflect.Bool:
		return "a boolean (true or false)"
	case k >= reflect.Int && k <= reflect.Uint64:
		return "an integer"
	case k == reflect.Float32 || k == reflect.Float64:
		return "a number"
	case k == reflect.String:
		return "a string"
	case k == reflect.Slice:
		return stringListMsg
	}
	return "a value"
}

// fromText turns a command-line value into the value a file would hold
// for a key of type t, for [decode]: the text itself for a string,
// duration or owner's type, a boolean or number parsed, and a list split
// at its commas.
func fromText(t reflect.Type, s string) (any, error) {
	var v any
	var err error
	switch k := t.Kind(); {
	case t == durationType || isText(t) || k == reflect.String:
		return s, nil
	case k == reflect.Bool:
		v, err = strconv.ParseBool(s)
	case k >= reflect.Int && k <= reflect.Uint64:
		v, err = strconv.ParseInt(s, 10, 64)
	case k == reflect.Float32 || k == reflect.Float64:
		v, err = strconv.ParseFloat(s, 64)
	case k == reflect.Slice:
		list := []any{}
		if s != "" {
			for _, e := range strings.Split(s, ",") {
				list = append(list, strings.TrimSpace(e))
			}
		}
		return list, nil
	}
	if err != nil {
		return nil, errors.New("want " + want(t))
	}
	return v, nil
}

// decode turns a value as TOML holds it (a string, int64, float64, bool
// or []any) into a value of type t; words, when set, are an enumeration's
// names, matched ignoring case. The owners' types parse their own text
// (time.ParseDuration, UnmarshalText). What decode checks first, and a
// plain TOML decoder would not, is the value's kind and the Go type's
// range: an integer for a duration would be nanoseconds, a negative
// number would wrap into an unsigned field. The error says what was
// expected.
func decode(t reflect.Type, v any, words []string) (reflect.Value, error) {
	out := reflect.New(t).Elem()
	s, isString := v.(string)
	n, isInt := v.(int64)
	f, isFloat := v.(float64)
	list, isList := v.([]any)
	var ok bool
	switch k := t.Kind(); {
	case t == durationType, words != nil:
		ok = isString
	case isText(t):
		ok = isString || isInt || isFloat // a rate of whole or fractional Hz
	case k == reflect.String:
		ok = isString
	case k == reflect.Bool:
		_, ok = v.(bool)
	case k >= reflect.Int && k <= reflect.Uint64:
		ok = isInt
	case k == reflect.Float32 || k == reflect.Float64:
		ok = isFloat || isInt
		if isInt {
			f = float64(n)
		}
	case k == reflect.Slice:
		ok = isList
	}
	if !ok {
		w := "want " + want(t)
		if isText(t) && words == nil { // the owner says what its text looks like
			w = ownerText(reflect.New(t).Interface().(encoding.TextUnmarshaler).UnmarshalText(nil)).Error()
		}
		return out, fmt.Errorf("%s, got %s", w, describe(v))
	}
	switch k := t.Kind(); {
	case t == durationType:
		d, err := time.ParseDuration(s)
		if err != nil {
			return out, fmt.Errorf("want %s", want(t))
		}
		out.SetInt(int64(d))
	case isText(t):
		switch {
		case isInt:
			s = strconv.FormatInt(n, 10)
		case isFloat:
			s = strconv.FormatFloat(f, 'g', -1, 64)
		case words != nil:
			i := indexFold(words, s)
			if i < 0 {
				return out, fmt.Errorf("unknown value%s", suggest.Hint(s, words, true))
			}
			s = words[i]
		}
		if err := out.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
			return out, ownerText(err)
		}
	case out.CanUint() && (n < 0 || out.OverflowUint(uint64(n))), out.CanInt() && out.OverflowInt(n):
		return out, fmt.Errorf("out of range for %v", t)
	case out.CanFloat() && (math.IsNaN(f) || math.IsInf(f, 0)):
		return out, fmt.Errorf("want a finite number")
	case out.CanFloat() && out.OverflowFloat(f):
		return out, fmt.Errorf("out of range for %v", t)
	case out.CanFloat():
		out.SetFloat(f)
	case k == reflect.Slice:
		out.Set(reflect.MakeSlice(t, len(list), len(list)))
		for i, e := range list {
			str, ok := e.(string)
			if !ok {
				return out, fmt.Errorf("want %s, but an element is %s", stringListMsg, describe(e))
			}
			out.Index(i).SetString(str)
		}
	case out.CanInt():
		out.SetInt(n)
	case out.CanUint():
		out.SetUint(uint64(n))
	case k == reflect.Bool:
		out.SetBool(v.(bool))
	default:
		out.SetString(s)
	}
	return out, nil
}

// ownerText is an owner's parse error without its package prefix, which
// the key in front of it replaces.
func ownerText(err error) error {
	msg := err.Error()
	if pkg, rest, ok := strings.Cut(msg, ": "); ok && !strings.ContainsAny(pkg, " \"") {
		msg = rest
	}
	return fmt.Errorf("%s", msg)
}

func indexFold(words []string, s string) int {
	for i, w := range words {
		if strings.EqualFold(w, s) {
			return i
		}
	}
	return -1
}

// formatValue writes a key's value as the file would hold it.
func formatValue(v any) string {
	if v == nil {
		return "none"
	}
	return strings.TrimPrefix(new(assigner).assign("v", v), "v = ")
}

// assigner writes TOML assignments with BurntSushi's encoder, one reused
// for a whole document: the owners' types write their own text, and a rate
// of whole Hz is a number, as defaults.toml writes it.
type assigner struct {
	buf strings.Builder
	enc *toml.Encoder
}

// assign writes key = v, without a newline.
func (a *assigner) assign(key string, v any) string {
	if m, ok := v.(encoding.TextMarshaler); ok {
		if b, err := m.MarshalText(); err == nil {
			if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
				v = n
			}
		}
	}
	if a.enc == nil {
		a.enc = toml.NewEncoder(&a.buf)
	}
	a.buf.Reset()
	if err := a.enc.Encode(map[string]any{key: v}); err != nil {
		return key + " = " + fmt.Sprint(v) // an enumeration out of range, set in code
	}
	return strings.TrimSuffix(a.buf.String(), "\n")
}

func describe(v any) string {
	switch v := v.(type) {
	case bool:
		return "a boolean"
	case int64:
		return "an integer"
	case float64:
		return "a number with a fraction"
	case string:
		return fmt.Sprintf("the string %q", v)
	case []any:
		return "a list"
	case []map[string]any:
		return "a list of tables"
	case map[string]any:
		return "a table"
	case time.Time:
		return "a date"
	}
	return fmt.Sprintf("%T", v)
}

func quoteList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	return strings.Join(q, ", ")
}

// render writes a value as the user wrote it, for messages.
func render(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case map[string]any:
		return "{...}"
	case []map[string]any:
		return "[{...}]"
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = render(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case []string:
		return "[" + quoteList(v) + "]"
	}
	return fmt.Sprint(v)
}
