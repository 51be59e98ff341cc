package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/suggest"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/timing"
)

// kind is the type a key takes, in TOML and on the command line.
type kind int

const (
	kindBool kind = iota
	kindInt
	kindFloat
	kindString
	kindDuration
	kindEnum
	kindRate
	kindStringList
	kindSize  // input.Size written "WxH"
	kindRatio // input.Size written "W:H"
	kindColor // render2d.Color written "#RRGGBB" or "#RRGGBBAA"
)

func (k kind) String() string {
	switch k {
	case kindBool:
		return "a boolean (true or false)"
	case kindInt:
		return "an integer"
	case kindFloat:
		return "a number"
	case kindString:
		return "a string"
	case kindDuration:
		return `a duration string such as "16ms" or "2s" (units ns, us, ms, s, m, h)`
	case kindEnum:
		return "a string"
	case kindRate:
		return rateForms
	case kindStringList:
		return `a list of strings such as ["Space", "MouseLeft"]`
	case kindSize:
		return `a size string "WxH" such as "1280x720"`
	case kindRatio:
		return `a ratio string "W:H" such as "16:9"`
	case kindColor:
		return `a colour string "#RRGGBB" or "#RRGGBBAA" (hexadecimal, alpha last) such as "#202028"`
	}
	return "a value"
}

// rateForms says what a rate may be written as.
const rateForms = `a rate in Hz: a whole number such as 60, or a fraction string "N/D" such as "30000/1001"`

// convert turns a decoded TOML value (or, with fromText, a command-line
// string) into the Go value of the kind: bool, int64, float64, string,
// time.Duration, timing.Rate or []string. An enum's value is returned as
// the allowed word it matches. The error says what was expected.
func convert(k kind, v any, fromText bool, words []string) (any, error) {
	if fromText {
		s := v.(string)
		switch k {
		case kindBool:
			b, err := strconv.ParseBool(s)
			if err != nil {
				return nil, fmt.Errorf("want %s", k)
			}
			return b, nil
		case kindInt:
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("want %s", k)
			}
			return n, nil
		case kindFloat:
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("want %s", k)
			}
			v = f
		case kindStringList:
			if s == "" {
				return []string{}, nil
			}
			parts := strings.Split(s, ",")
			for i := range parts {
				parts[i] = strings.TrimSpace(parts[i])
			}
			return parts, nil
		case kindRate:
			if f, err := strconv.ParseFloat(s, 64); err == nil && !strings.Contains(s, "/") && f != math.Trunc(f) {
				return nil, fractionalRate(f)
			}
			return parseRate(s)
		}
		// strings, durations and enums are text either way
	}
	switch k {
	case kindBool:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case kindInt:
		if n, ok := v.(int64); ok {
			return n, nil
		}
	case kindFloat:
		switch n := v.(type) {
		case float64:
			if math.IsNaN(n) || math.IsInf(n, 0) {
				return nil, fmt.Errorf("want a finite number")
			}
			return n, nil
		case int64:
			return float64(n), nil
		}
	case kindString:
		if s, ok := v.(string); ok {
			return s, nil
		}
	case kindDuration:
		if s, ok := v.(string); ok {
			d, err := time.ParseDuration(s)
			if err != nil {
				return nil, fmt.Errorf("want %s", k)
			}
			return d, nil
		}
	case kindEnum:
		if s, ok := v.(string); ok {
			for _, w := range words {
				if strings.EqualFold(s, w) {
					return w, nil
				}
			}
			return nil, fmt.Errorf("unknown value%s", suggest.Hint(s, words, true))
		}
	case kindRate:
		switch n := v.(type) {
		case int64:
			if n < 0 {
				return nil, fmt.Errorf("a rate is not negative; want %s, or 0 to use timing.step", rateForms)
			}
			if n == 0 {
				return timing.Rate{}, nil
			}
			return timing.Hz(n), nil
		case float64:
			if n == math.Trunc(n) && n >= 0 && n <= math.MaxInt64/2 {
				return convert(k, int64(n), false, nil)
			}
			return nil, fractionalRate(n)
		case string:
			return parseRate(n)
		}
	case kindSize, kindRatio:
		if s, ok := v.(string); ok {
			return parsePair(k, s)
		}
	case kindColor:
		if s, ok := v.(string); ok {
			return parseColor(s)
		}
	case kindStringList:
		if list, ok := v.([]any); ok {
			out := make([]string, 0, len(list))
			for _, e := range list {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("want %s, but an element is %s", k, describe(e))
				}
				out = append(out, s)
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("want %s, got %s", k, describe(v))
}

// fractionalRate explains why a rate cannot be a decimal number: the
// scheduler runs exact fractions, and a decimal is rarely the rate meant
// (29.97 is not NTSC's 30000/1001). It offers the fraction when a small one
// is exact.
func fractionalRate(f float64) error {
	msg := "a rate is exact, so it is a whole number of Hz or a fraction string \"N/D\""
	if f > 0 && f < 1e9 && !math.IsInf(f, 0) {
		for den := int64(2); den <= 1000; den++ {
			num := f * float64(den)
			if math.Abs(num-math.Round(num)) < 1e-9*num {
				return fmt.Errorf("%s: write %v Hz as \"%d/%d\"", msg, f, int64(math.Round(num)), den)
			}
		}
	}
	return fmt.Errorf("%s such as \"30000/1001\"", msg)
}

func parseRate(s string) (any, error) {
	num, den, frac := strings.Cut(strings.TrimSpace(s), "/")
	n, err1 := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	d := int64(1)
	var err2 error
	if frac {
		d, err2 = strconv.ParseInt(strings.TrimSpace(den), 10, 64)
	}
	switch {
	case err1 != nil || err2 != nil:
		return nil, fmt.Errorf("want %s", rateForms)
	case n < 0 || d < 0:
		return nil, fmt.Errorf("a rate is not negative; want %s", rateForms)
	case d == 0:
		return nil, fmt.Errorf("the fraction's denominator is 0; want %s", rateForms)
	case n == 0:
		return timing.Rate{}, nil
	}
	return timing.Rate{Num: n, Den: d}, nil
}

// pairSep is the separator of a kind's "AxB" form.
func pairSep(k kind) string {
	if k == kindRatio {
		return ":"
	}
	return "x"
}

// parsePair reads "WxH" (kindSize) or "W:H" (kindRatio) into an
// input.Size; the range is the key's own check.
func parsePair(k kind, s string) (any, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), pairSep(k))
	w, err1 := strconv.Atoi(strings.TrimSpace(a))
	h, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil {
		return nil, fmt.Errorf("want %s", k)
	}
	return input.Size{Width: w, Height: h}, nil
}

// parseColor reads "#RRGGBB" (opaque) or "#RRGGBBAA", straight alpha,
// into a render2d.Color.
func parseColor(s string) (any, error) {
	hex, ok := strings.CutPrefix(strings.TrimSpace(s), "#")
	if !ok || len(hex) != 6 && len(hex) != 8 {
		return nil, fmt.Errorf("want %s", kindColor)
	}
	var ch [4]uint8
	ch[3] = 255
	for i := 0; i < len(hex); i += 2 {
		n, err := strconv.ParseUint(hex[i:i+2], 16, 8)
		if err != nil {
			return nil, fmt.Errorf("want %s", kindColor)
		}
		ch[i/2] = uint8(n)
	}
	return render2d.RGBA8(ch[0], ch[1], ch[2], ch[3]), nil
}

// formatColor writes c as parseColor reads it, without the alpha when it
// is opaque.
func formatColor(c render2d.Color) string {
	q := func(v float32) uint8 { return uint8(min(max(v, 0), 1)*255 + 0.5) }
	if a := q(c.A); a != 255 {
		return fmt.Sprintf("#%02x%02x%02x%02x", q(c.R), q(c.G), q(c.B), a)
	}
	return fmt.Sprintf("#%02x%02x%02x", q(c.R), q(c.G), q(c.B))
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

// tomlString writes s as a TOML basic string. Go's %q is close but escapes
// with \x, which TOML lacks.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r) // an invalid byte becomes U+FFFD
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlKey writes one key segment, bare when TOML allows it.
func tomlKey(k string) string {
	if k == "" {
		return `""`
	}
	for _, r := range k {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return tomlString(k)
		}
	}
	return k
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

// formatValue writes a stored value of kind k in TOML.
func formatValue(k kind, v any) string {
	switch k {
	case kindBool:
		return strconv.FormatBool(v.(bool))
	case kindInt:
		return strconv.FormatInt(v.(int64), 10)
	case kindFloat:
		s := strconv.FormatFloat(v.(float64), 'g', -1, 64)
		if !strings.ContainsAny(s, ".eIN") {
			s += ".0"
		}
		return s
	case kindString, kindEnum:
		return tomlString(v.(string))
	case kindDuration:
		return tomlString(v.(time.Duration).String())
	case kindRate:
		r := v.(timing.Rate)
		switch {
		case r.IsZero():
			return "0"
		case r.Den == 1:
			return strconv.FormatInt(r.Num, 10)
		}
		return tomlString(fmt.Sprintf("%d/%d", r.Num, r.Den))
	case kindSize, kindRatio:
		s := v.(input.Size)
		return tomlString(fmt.Sprintf("%d%s%d", s.Width, pairSep(k), s.Height))
	case kindColor:
		return tomlString(formatColor(v.(render2d.Color)))
	case kindStringList:
		list := v.([]string)
		parts := make([]string, len(list))
		for i, s := range list {
			parts[i] = tomlString(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}
