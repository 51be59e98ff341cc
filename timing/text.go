package timing

import (
	"fmt"
	"math"
	"strconv"
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

// MarshalText writes r as [Rate.UnmarshalText] reads it: "0" for the zero
// Rate, "60" for a whole number of Hz, "30000/1001" otherwise.
func (r Rate) MarshalText() ([]byte, error) {
	switch {
	case r.IsZero():
		return []byte("0"), nil
	case r.Den == 1:
		return strconv.AppendInt(nil, r.Num, 10), nil
	}
	return fmt.Appendf(nil, "%d/%d", r.Num, r.Den), nil
}

// rateForms says what a rate may be written as.
const rateForms = `a rate in Hz: a whole number such as 60, or a fraction string "N/D" such as "30000/1001"`

// UnmarshalText reads a rate in Hz: a whole number ("60", "0" for the zero
// Rate) or a fraction "N/D" ("30000/1001"). A decimal such as "29.97" is
// refused, since the scheduler runs exact fractions and a decimal is rarely
// the rate meant; the error offers the fraction when a small one is exact
// ("241/2" for "120.5"). The range is [Options.Validate]'s.
func (r *Rate) UnmarshalText(b []byte) error {
	s := strings.TrimSpace(string(b))
	if f, err := strconv.ParseFloat(s, 64); err == nil && !strings.Contains(s, "/") && f != math.Trunc(f) {
		return fractionalRate(f)
	}
	num, den, frac := strings.Cut(s, "/")
	n, err1 := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	d := int64(1)
	var err2 error
	if frac {
		d, err2 = strconv.ParseInt(strings.TrimSpace(den), 10, 64)
	}
	switch {
	case err1 != nil || err2 != nil:
		return fmt.Errorf("timing: want %s", rateForms)
	case n < 0 || d < 0:
		return fmt.Errorf("timing: a rate is not negative; want %s, or 0 to use the fixed step", rateForms)
	case d == 0:
		return fmt.Errorf("timing: the fraction's denominator is 0; want %s", rateForms)
	case n == 0:
		*r = Rate{}
	default:
		*r = Rate{Num: n, Den: d}
	}
	return nil
}

// fractionalRate explains why a rate cannot be a decimal number and offers
// the fraction when one with a denominator up to 1000 is exact.
func fractionalRate(f float64) error {
	msg := `timing: a rate is exact, so it is a whole number of Hz or a fraction string "N/D"`
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
