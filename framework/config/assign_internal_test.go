package config

import (
	"encoding"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

// assign writes each kind of value a key holds as BurntSushi's encoder
// writes it, so --print-config parses back the same without linking the
// encoder.
func TestAssignMatchesTheEncoder(t *testing.T) {
	type level uint8 // a game's enumeration without text
	values := []any{
		true, false, 0, -7, int8(-8), int64(math.MinInt64), uint8(255), uint64(math.MaxUint64), level(3),
		0.0, 1.0, -2.5, 1e21, 1e-7, 123456789.0, math.Inf(1), math.Inf(-1), math.NaN(), float32(0.1), float32(3),
		"", "plain", `quote " and \ backslash`, "tab\tnew\nline\r\f\b", "\x00\x1f\x7f", "ünïcødé ✓",
		250 * time.Millisecond, time.Duration(0), 90 * time.Minute,
		[]string{}, []string{"KeyA", "Gamepad0.A"}, []string{`a"b`}, []int{1, 2}, []float64{0.5, 2},
	}
	// Every key's type, at its default.
	c := Default()
	for i := range fields {
		if v := fields[i].get(&c); v != nil {
			values = append(values, v)
		}
	}
	var a assigner
	for _, key := range []string{"v", "snake_case-key", "has.dot", "with space", "ключ"} {
		for _, v := range values {
			var want strings.Builder
			if err := toml.NewEncoder(&want).Encode(map[string]any{key: normal(v)}); err != nil {
				t.Fatalf("the encoder refuses %#v: %v", v, err)
			}
			if got := a.assign(key, v); got != strings.TrimSuffix(want.String(), "\n") {
				t.Errorf("assign(%q, %#v) = %q, want %q", key, v, got, strings.TrimSuffix(want.String(), "\n"))
			}
		}
	}
}

// normal is v as assign hands it to the encoder: an owner's type whose
// text is a whole number goes as that number.
func normal(v any) any {
	if m, ok := v.(encoding.TextMarshaler); ok {
		if b, err := m.MarshalText(); err == nil {
			if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
				return n
			}
		}
	}
	return v
}
