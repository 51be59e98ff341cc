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

// decode turns a decoded TOML value (or, with fromText, a command-line
// string) into a value of type t; words, when set, are an enumeration's
// names, matched ignoring case. The error says what was expected.
func decode(t reflect.Type, v any, fromText bool, words []string) (reflect.Value, error) {
	out := reflect.New(t).Elem()
	s, isString := v.(string)
	fail := func() (reflect.Value, error) {
		w := "want " + want(t)
		if isText(t) && words == nil {
			// The owner says what its text looks like.
			w = ownerText(reflect.New(t).Interface().(encoding.TextUnmarshaler).UnmarshalText(nil)).Error()
		}
		if fromText {
			return out, errors.New(w)
		}
		return out, fmt.Errorf("%s, got %s", w, describe(v))
	}
	switch k := t.Kind(); {
	case t == durationType:
		if !isString {
			return fail()
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return out, fmt.Errorf("want %s", want(t))
		}
		out.SetInt(int64(d))
	case isText(t):
		switch n := v.(type) {
		case int64:
			s = strconv.FormatInt(n, 10) // a rate of whole Hz
		case float64:
			s = strconv.FormatFloat(n, 'g', -1, 64)
		case string:
		default:
			return fail()
		}
		if words != nil && !isString {
			return fail()
		}
		if words != nil {
			i := indexFold(words, s)
			if i < 0 {
				return out, fmt.Errorf("unknown value%s", suggest.Hint(s, words, true))
			}
			s = words[i]
		}
		if err := out.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
			return out, ownerText(err)
		}
	case k == reflect.Bool:
		b, ok := v.(bool)
		if fromText {
			var err error
			b, err = strconv.ParseBool(s)
			ok = err == nil
		}
		if !ok {
			return fail()
		}
		out.SetBool(b)
	case k >= reflect.Int && k <= reflect.Uint64:
		n, ok := v.(int64)
		if fromText {
			var err error
			n, err = strconv.ParseInt(s, 10, 64)
			ok = err == nil
		}
		if !ok {
			return fail()
		}
		if out.CanUint() {
			if n < 0 || out.OverflowUint(uint64(n)) {
				return out, fmt.Errorf("out of range for %v", t)
			}
			out.SetUint(uint64(n))
		} else {
			if out.OverflowInt(n) {
				return out, fmt.Errorf("out of range for %v", t)
			}
			out.SetInt(n)
		}
	case k == reflect.Float32 || k == reflect.Float64:
		var f float64
		switch n := v.(type) {
		case float64:
			f = n
		case int64:
			f = float64(n)
		case string:
			var err error
			if f, err = strconv.ParseFloat(n, 64); !fromText || err != nil {
				return fail()
			}
		default:
			return fail()
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return out, fmt.Errorf("want a finite number")
		}
		if out.OverflowFloat(f) {
			return out, fmt.Errorf("out of range for %v", t)
		}
		out.SetFloat(f)
	case k == reflect.String:
		if !isString {
			return fail()
		}
		out.SetString(s)
	case k == reflect.Slice && t.Elem().Kind() == reflect.String:
		var list []string
		switch {
		case fromText && s != "":
			list = strings.Split(s, ",")
			for i := range list {
				list[i] = strings.TrimSpace(list[i])
			}
		case fromText:
			list = []string{}
		default:
			elems, ok := v.([]any)
			if !ok {
				return fail()
			}
			list = make([]string, 0, len(elems))
			for _, e := range elems {
				str, ok := e.(string)
				if !ok {
					return out, fmt.Errorf("want %s, but an element is %s", stringListMsg, describe(e))
				}
				list = append(list, str)
			}
		}
		out.Set(reflect.MakeSlice(t, len(list), len(list)))
		for i, e := range list {
			out.Index(i).SetString(e)
		}
	default:
		return fail()
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
