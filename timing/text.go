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

// parseMode parses "variable" or "fixed".
func parseMode(s string) (Mode, error) { return parseName("mode", s, 2, Mode.String) }

// parseRecovery parses "drop-excess-lag", "variable-catch-up" or "repay-debt".
func parseRecovery(s string) (Recovery, error) { return parseName("recovery", s, 3, Recovery.String) }

// parsePastCutoff parses "slow-down", "drop-time", "resync" or "shared-slowdown".
func parsePastCutoff(s string) (PastCutoff, error) {
	return parseName("past-cutoff policy", s, 4, PastCutoff.String)
}

// MarshalText implements encoding.TextMarshaler.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads "variable" or "fixed".
func (m *Mode) UnmarshalText(b []byte) error {
	v, err := parseMode(string(b))
	if err == nil {
		*m = v
	}
	return err
}

// MarshalText implements encoding.TextMarshaler.
func (r Recovery) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads "drop-excess-lag", "variable-catch-up" or "repay-debt".
func (r *Recovery) UnmarshalText(b []byte) error {
	v, err := parseRecovery(string(b))
	if err == nil {
		*r = v
	}
	return err
}

// MarshalText implements encoding.TextMarshaler.
func (p PastCutoff) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads "slow-down", "drop-time", "resync" or "shared-slowdown".
func (p *PastCutoff) UnmarshalText(b []byte) error {
	v, err := parsePastCutoff(string(b))
	if err == nil {
		*p = v
	}
	return err
}

// MarshalText implements encoding.TextMarshaler.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// MarshalText implements encoding.TextMarshaler.
func (m Mechanism) MarshalText() ([]byte, error) { return []byte(m.String()), nil }
