package config

import (
	"encoding"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/metronome-go/metronome/internal/suggest"
)

// A key's value is a value of its field's Go type, which BurntSushi/toml
// reads: the owners' types read their own text (timing.Rate, input.Size,
// render2d.Color, the enumerations), durations are time.ParseDuration's,
// and the rest are TOML's booleans, numbers, strings and lists of strings.

var (
	durationType = reflect.TypeFor[time.Duration]()
	textType     = reflect.TypeFor[encoding.TextUnmarshaler]()
	stringsType  = reflect.TypeFor[[]string]()
)

// isText reports whether t reads its own text.
func isText(t reflect.Type) bool {
	return t != durationType && reflect.PointerTo(t).Implements(textType)
}

// decode reads the value p of a document md into a new value of type t,
// returning it and the value as TOML holds it (for messages); words, when
// set, are an enumeration's names, matched in any case and offered as a
// suggestion. Before BurntSushi decodes, decode refuses what BurntSushi
// would take and a key must not: an integer for a duration (nanoseconds),
// a negative number for an unsigned field (it would wrap), NaN and
// infinities. An owner's type reads the text of any value (a rate of
// 120.5 Hz reads "120.5", which it refuses with the fraction to write).
func decode(md toml.MetaData, p toml.Primitive, t reflect.Type, words []string) (v, raw any, err error) {
	_ = md.PrimitiveDecode(p, &raw) // any holds every TOML value
	out := reflect.New(t)
	n, isInt := raw.(int64)
	f, isFloat := raw.(float64)
	switch {
	case t == durationType:
		s, ok := raw.(string)
		d, perr := time.ParseDuration(s)
		if !ok || perr != nil {
			return nil, raw, errors.New(`want a duration string such as "16ms" or "2s" (units ns, us, ms, s, m, h)`)
		}
		out.Elem().SetInt(int64(d))
	case isText(t):
		s := fmt.Sprint(raw)
		if i := slices.IndexFunc(words, func(w string) bool { return strings.EqualFold(w, s) }); i >= 0 {
			s = words[i] // an enumeration's name in any case
		}
		switch err := out.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); {
		case err != nil && words != nil: // the message's allowed list is the words
			return nil, raw, fmt.Errorf("unknown value%s", suggest.Hint(s, words, true))
		case err != nil:
			return nil, raw, ownerText(err)
		}
	case isInt && n < 0 && out.Elem().CanUint():
		return nil, raw, fmt.Errorf("%d is out of range for %v", n, t)
	case isFloat && (math.IsNaN(f) || math.IsInf(f, 0)):
		return nil, raw, errors.New("want a finite number")
	default:
		if err := md.PrimitiveDecode(p, out.Interface()); err != nil {
			return nil, raw, tomlText(err)
		}
	}
	return out.Elem().Interface(), raw, nil
}

// fromText reads a value of type t from text as a command line or a range
// tag writes it, through a one-line document and [decode].
func fromText(t reflect.Type, s string) (any, error) {
	var doc map[string]toml.Primitive
	md, err := toml.Decode("v = "+literal(t, s), &doc)
	if err != nil {
		return nil, tomlText(err)
	}
	v, _, err := decode(md, doc["v"], t, nil)
	return v, err
}

// literal writes command-line text as the TOML value of a key of type t: a
// boolean or a number as it is, a list split at its commas, anything else
// (or a boolean or number that does not read as one) a string, so the
// decoder's message names the value.
func literal(t reflect.Type, s string) string {
	switch k := t.Kind(); {
	case k == reflect.Slice:
		list := []string{}
		if s != "" {
			for _, e := range strings.Split(s, ",") {
				list = append(list, strings.TrimSpace(e))
			}
		}
		return formatValue(list)
	case t != durationType && !isText(t) && (k == reflect.Bool || k >= reflect.Int && k <= reflect.Float64):
		var doc map[string]any
		if _, err := toml.Decode("v = "+s, &doc); err == nil && len(doc) == 1 {
			switch doc["v"].(type) {
			case bool, int64, float64:
				return s
			}
		}
	}
	return formatValue(s)
}

// tomlText is a BurntSushi message without its "toml: line N (last key
// ...): " prefix: the key in front of it says where.
func tomlText(err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return errors.New(pe.Message)
	}
	msg := strings.TrimPrefix(err.Error(), "toml: ")
	if _, rest, ok := strings.Cut(msg, "): "); ok && strings.Contains(msg, "(last key") {
		msg = rest
	}
	return errors.New(msg)
}

// ownerText is an owner's parse error without its package prefix, which
// the key in front of it replaces.
func ownerText(err error) error {
	msg := err.Error()
	if pkg, rest, ok := strings.Cut(msg, ": "); ok && !strings.ContainsAny(pkg, " \"") {
		msg = rest
	}
	return errors.New(msg)
}

// formatValue writes a key's value as the file would hold it.
func formatValue(v any) string {
	if v == nil {
		return "none"
	}
	return strings.TrimPrefix(new(assigner).assign("v", v), "v = ")
}

// assigner writes TOML assignments of the values a key holds: booleans,
// numbers, strings, durations, lists of them and the owners' types, which
// write their own text (a rate of whole Hz is a number, as defaults.toml
// writes it). It writes them itself, as BurntSushi's encoder would
// (TestAssignMatchesTheEncoder): the encoder, reached from --print-config
// in every game, would link its reflection over maps and structs into
// every build for these few scalars.
type assigner struct {
	buf strings.Builder
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
	a.buf.Reset()
	writeKey(&a.buf, key)
	a.buf.WriteString(" = ")
	if !writeValue(&a.buf, reflect.ValueOf(v)) {
		return key + " = " + fmt.Sprint(v) // an enumeration out of range, set in code
	}
	return a.buf.String()
}

// writeKey writes a bare key, or a quoted one where TOML needs it.
func writeKey(b *strings.Builder, key string) {
	bare := key != ""
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			bare = false
			break
		}
	}
	if bare {
		b.WriteString(key)
		return
	}
	writeString(b, key)
}

// writeValue writes v as a TOML value; false if it is none (nil, a map,
// or a type's text that fails).
func writeValue(b *strings.Builder, v reflect.Value) bool {
	if !v.IsValid() {
		return false
	}
	switch x := v.Interface().(type) {
	case encoding.TextMarshaler:
		if v.Kind() == reflect.Pointer && v.IsNil() {
			return false
		}
		t, err := x.MarshalText()
		if err != nil || t == nil {
			return false
		}
		writeString(b, string(t))
		return true
	case time.Duration:
		writeString(b, x.String())
		return true
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return false
		}
		return writeValue(b, v.Elem())
	case reflect.String:
		writeString(b, v.String())
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		switch {
		case math.IsNaN(f) || math.IsInf(f, 0):
			if math.Signbit(f) {
				b.WriteByte('-')
			}
			if math.IsNaN(f) {
				b.WriteString("nan")
			} else {
				b.WriteString("inf")
			}
		default:
			n := strconv.FormatFloat(f, 'g', -1, v.Type().Bits())
			b.WriteString(n)
			if !strings.ContainsAny(n, ".e") { // TOML's floats have a point or an exponent
				b.WriteString(".0")
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return false
		}
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteString(", ")
			}
			if !writeValue(b, v.Index(i)) {
				return false
			}
		}
		b.WriteByte(']')
	default:
		return false
	}
	return true
}

// writeString writes s as a TOML basic string: quotes, backslashes and
// control characters escaped.
func writeString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(b, `\u%04x`, r)
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

func quoteList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	return strings.Join(q, ", ")
}

// render writes a value as the document held it (as TOML decodes into
// any), for messages.
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
	}
	return fmt.Sprint(v)
}
