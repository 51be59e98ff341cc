package config

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

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
		return `a duration string such as "16ms" or "2s"`
	case kindEnum:
		return "one of the listed words"
	case kindRate:
		return `a rate in Hz: a number such as 60, or a fraction string such as "30000/1001"`
	case kindStringList:
		return `a list of strings such as ["Space", "MouseLeft"]`
	}
	return "a value"
}

// convert turns a decoded TOML value (or, with fromText, a command-line
// string) into the Go value of the kind. The error says what was expected.
func convert(k kind, v any, fromText bool, enum []string) (any, error) {
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
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("want %s", k)
			}
			return f, nil
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
				return nil, fmt.Errorf("want %s (units ns, us, ms, s, m, h)", k)
			}
			return d, nil
		}
	case kindEnum:
		if s, ok := v.(string); ok {
			for _, e := range enum {
				if s == e {
					return s, nil
				}
			}
			msg := fmt.Sprintf("want one of %s", quoteList(enum))
			if m := closest(s, enum); m != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", m)
			}
			return nil, fmt.Errorf("%s", msg)
		}
		return nil, fmt.Errorf("want a string, one of %s", quoteList(enum))
	case kindRate:
		switch n := v.(type) {
		case int64:
			if n < 0 {
				return nil, fmt.Errorf("want a rate of at least 0")
			}
			if n == 0 {
				return timing.Rate{}, nil
			}
			return timing.Hz(n), nil
		case string:
			return parseRate(n)
		}
	case kindStringList:
		if list, ok := v.([]any); ok {
			out := make([]string, 0, len(list))
			for _, e := range list {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("want %s", k)
				}
				out = append(out, s)
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("want %s, got %s", k, describe(v))
}

func parseRate(s string) (any, error) {
	num, den, frac := strings.Cut(strings.TrimSpace(s), "/")
	n, err1 := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	d := int64(1)
	var err2 error
	if frac {
		d, err2 = strconv.ParseInt(strings.TrimSpace(den), 10, 64)
	}
	if err1 != nil || err2 != nil || n < 0 || d <= 0 {
		return nil, fmt.Errorf("want %s", kindRate)
	}
	if n == 0 {
		return timing.Rate{}, nil
	}
	return timing.Rate{Num: n, Den: d}, nil
}

func describe(v any) string {
	switch v := v.(type) {
	case bool:
		return "a boolean"
	case int64:
		return "an integer"
	case float64:
		return "a number"
	case string:
		return fmt.Sprintf("the string %q", v)
	case []any:
		return "a list"
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

// closest returns the candidate nearest to s by edit distance, or "" when
// none is near enough to be a plausible typo.
func closest(s string, candidates []string) string {
	best, bestD := "", math.MaxInt
	for _, c := range candidates {
		d := editDistance(strings.ToLower(s), strings.ToLower(c))
		if d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	limit := max(2, len(s)/3)
	if bestD > limit {
		return ""
	}
	return best
}

// nearest lists up to n candidates within a plausible edit distance, best first.
func nearest(s string, candidates []string, n int) []string {
	type scored struct {
		c string
		d int
	}
	var list []scored
	limit := max(2, len(s)/3)
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(s), strings.ToLower(c)); d <= limit {
			list = append(list, scored{c, d})
		}
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].d != list[j].d {
			return list[i].d < list[j].d
		}
		return list[i].c < list[j].c
	})
	out := make([]string, 0, n)
	for i := 0; i < len(list) && i < n; i++ {
		out = append(out, list[i].c)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, by runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
