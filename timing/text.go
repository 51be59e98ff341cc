package timing

import (
	"fmt"
	"strings"
)

// The enumerations encode as their names, so that configuration files and
// JSON reports read "fixed" and "repay-debt" rather than numbers.

func parseName[T ~uint8](what, s string, n int, name func(T) string) (T, error) {
	names := make([]string, 0, n)
	for i := range n {
		v := T(i)
		if name(v) == s {
			return v, nil
		}
		names = append(names, fmt.Sprintf("%q", name(v)))
	}
	return 0, fmt.Errorf("timing: unknown %s %q; allowed %s", what, s, strings.Join(names, ", "))
}

// ParseMode parses "variable" or "fixed".
func ParseMode(s string) (Mode, error) { return parseName("mode", s, 2, Mode.String) }

// ParseRecovery parses "drop-excess-lag", "variable-catch-up" or "repay-debt".
func ParseRecovery(s string) (Recovery, error) { return parseName("recovery", s, 3, Recovery.String) }

// ParsePastCutoff parses "slow-down", "drop-time", "resync" or "shared-slowdown".
func ParsePastCutoff(s string) (PastCutoff, error) {
	return parseName("past-cutoff policy", s, 4, PastCutoff.String)
}

// MarshalText implements encoding.TextMarshaler.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with [ParseMode].
func (m *Mode) UnmarshalText(b []byte) error {
	v, err := ParseMode(string(b))
	if err == nil {
		*m = v
	}
	return err
}

// MarshalText implements encoding.TextMarshaler.
func (r Recovery) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with [ParseRecovery].
func (r *Recovery) UnmarshalText(b []byte) error {
	v, err := ParseRecovery(string(b))
	if err == nil {
		*r = v
	}
	return err
}

// MarshalText implements encoding.TextMarshaler.
func (p PastCutoff) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with [ParsePastCutoff].
func (p *PastCutoff) UnmarshalText(b []byte) error {
	v, err := ParsePastCutoff(string(b))
	if err == nil {
		*p = v
	}
	return err
}

// MarshalText implements encoding.TextMarshaler.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// MarshalText implements encoding.TextMarshaler.
func (m Mechanism) MarshalText() ([]byte, error) { return []byte(m.String()), nil }
