package ecs

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/metronome-go/metronome/render2d"
)

// MaxCurveStops is how many stops a [Curve] or [ColorCurve] holds between
// its Start and End. The stops live in a fixed array so an effect stays
// plain data: copying, hashing and snapshotting it allocate nothing, and
// evaluating it is a short scan.
const MaxCurveStops = 6

// Stop is a curve's value at a point of a particle's life: At is the life
// fraction, strictly between 0 (birth) and 1 (death).
type Stop struct{ At, Value float32 }

// ColorStop is a colour curve's value at life fraction At, strictly
// between 0 and 1.
type ColorStop struct {
	At    float32
	Color render2d.Color
}

// Curve is a value over a particle's life: Start at birth, End at death,
// and linear through its Stops in between. Stops are used in order up to
// the first with At == 0, so Curve{Start: 4, End: 1} is a straight line
// and a zero Curve is 0 throughout. [ParticleEffect.Validate] checks that
// the stops in use rise strictly within (0, 1) and that none follows an
// unused one.
//
// In code:
//
//	ecs.Curve{Start: 0, End: 0, Stops: [ecs.MaxCurveStops]ecs.Stop{{At: 0.1, Value: 1}, {At: 0.8, Value: 1}}}
//
// As text ([Curve.UnmarshalText], so a config table can hold one): a
// number for a constant, or comma-separated "at:value" stops from 0 to 1,
// such as "0:0, 0.1:1, 0.8:1, 1:0".
type Curve struct {
	Start, End float32
	Stops      [MaxCurveStops]Stop
}

// ColorCurve is a colour over a particle's life, channel by channel like
// [Curve]: Start at birth, End at death, linear through the Stops in use
// (those before the first with At == 0). As text, one colour for a
// constant or "at:colour" stops from 0 to 1, such as
// "0:#ffffff, 0.3:#ffcc00, 1:#ff000000".
type ColorCurve struct {
	Start, End render2d.Color
	Stops      [MaxCurveStops]ColorStop
}

// Constant returns a curve that is v throughout.
func Constant(v float32) Curve { return Curve{Start: v, End: v} }

// At returns the curve's value at life fraction f in [0, 1].
func (c *Curve) At(f float32) float32 {
	a, va := float32(0), c.Start
	for i := range c.Stops {
		s := &c.Stops[i]
		if s.At <= 0 {
			break
		}
		if f < s.At {
			return lerp(va, s.Value, (f-a)/(s.At-a))
		}
		a, va = s.At, s.Value
	}
	if a >= 1 {
		return va
	}
	return lerp(va, c.End, (f-a)/(1-a))
}

// At returns the colour at life fraction f in [0, 1].
func (c *ColorCurve) At(f float32) render2d.Color {
	a, va := float32(0), c.Start
	for i := range c.Stops {
		s := &c.Stops[i]
		if s.At <= 0 {
			break
		}
		if f < s.At {
			return lerpColor(va, s.Color, (f-a)/(s.At-a))
		}
		a, va = s.At, s.Color
	}
	if a >= 1 {
		return va
	}
	return lerpColor(va, c.End, (f-a)/(1-a))
}

// lerp rounds the product before the sum (see the package doc's
// Determinism section), so every platform gets the same bits.
func lerp(a, b, t float32) float32 { return a + float32((b-a)*t) }

func lerpColor(a, b render2d.Color, t float32) render2d.Color {
	return render2d.Color{R: lerp(a.R, b.R, t), G: lerp(a.G, b.G, t), B: lerp(a.B, b.B, t), A: lerp(a.A, b.A, t)}
}

// checkStops reports the first stop position out of order, or in use
// after an unused one; name is the curve's field, for the message.
func checkStops(name string, ats []float32) error {
	prev := float32(0)
	n := len(ats)
	for i, at := range ats {
		if at == 0 {
			n = i
			break
		}
		if !(at > prev && at < 1) {
			return fmt.Errorf("ecs: particle effect: %s.Stops[%d].At %v: must rise strictly within (0, 1) (previous %v)", name, i, at, prev)
		}
		prev = at
	}
	for i := n; i < len(ats); i++ {
		if ats[i] != 0 {
			return fmt.Errorf("ecs: particle effect: %s.Stops[%d] follows the unused Stops[%d] (At 0 ends the stops)", name, i, n)
		}
	}
	return nil
}

func finite(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }

func (c *Curve) validate(name string) error {
	var ats [MaxCurveStops]float32
	errs := []error{}
	if !finite(c.Start) || !finite(c.End) {
		errs = append(errs, fmt.Errorf("ecs: particle effect: %s [%v, %v]: Start and End must be finite", name, c.Start, c.End))
	}
	for i, s := range c.Stops {
		ats[i] = s.At
		if !finite(s.Value) {
			errs = append(errs, fmt.Errorf("ecs: particle effect: %s.Stops[%d].Value %v: must be finite", name, i, s.Value))
		}
	}
	return errors.Join(append(errs, checkStops(name, ats[:]))...)
}

func (c *ColorCurve) validate(name string) error {
	var ats [MaxCurveStops]float32
	for i, s := range c.Stops {
		ats[i] = s.At
	}
	return checkStops(name, ats[:])
}

// MarshalText writes c as its stops from 0 to 1, such as "0:4, 0.5:6,
// 1:0", or as one number when it is constant.
func (c Curve) MarshalText() ([]byte, error) {
	num := func(b []byte, v float32) []byte { return strconv.AppendFloat(b, float64(v), 'g', -1, 32) }
	if c.Start == c.End && c.Stops[0].At == 0 {
		return num(nil, c.Start), nil
	}
	b := num([]byte("0:"), c.Start)
	for _, s := range c.Stops {
		if s.At == 0 {
			break
		}
		b = num(append(num(append(b, ", "...), s.At), ':'), s.Value)
	}
	return num(append(b, ", 1:"...), c.End), nil
}

// UnmarshalText reads a number (a constant) or comma-separated "at:value"
// stops, the first at 0, the last at 1 and at most [MaxCurveStops] between
// them rising strictly.
func (c *Curve) UnmarshalText(b []byte) error {
	var out Curve
	err := parseStops(string(b), "a number", "0:4, 0.5:6, 1:0", func(i int, at float32, v string) error {
		f, err := strconv.ParseFloat(v, 32)
		if err != nil || !finite(float32(f)) {
			return fmt.Errorf("value %q is not a finite number", v)
		}
		switch {
		case at < 0:
			out.Start, out.End = float32(f), float32(f)
		case at == 0:
			out.Start = float32(f)
		case at == 1:
			out.End = float32(f)
		default:
			out.Stops[i] = Stop{At: at, Value: float32(f)}
		}
		return nil
	})
	if err != nil {
		return err
	}
	*c = out
	return nil
}

// MarshalText writes c as its stops from 0 to 1, such as "0:#ffffff,
// 1:#ff000000", or as one colour when it is constant.
func (c ColorCurve) MarshalText() ([]byte, error) {
	col := func(b []byte, v render2d.Color) []byte { t, _ := v.MarshalText(); return append(b, t...) }
	num := func(b []byte, v float32) []byte { return strconv.AppendFloat(b, float64(v), 'g', -1, 32) }
	if c.Start == c.End && c.Stops[0].At == 0 {
		return col(nil, c.Start), nil
	}
	b := col([]byte("0:"), c.Start)
	for _, s := range c.Stops {
		if s.At == 0 {
			break
		}
		b = col(append(num(append(b, ", "...), s.At), ':'), s.Color)
	}
	return col(append(b, ", 1:"...), c.End), nil
}

// UnmarshalText reads one colour ("#RRGGBB" or "#RRGGBBAA", a constant) or
// comma-separated "at:colour" stops, the first at 0, the last at 1 and at
// most [MaxCurveStops] between them rising strictly.
func (c *ColorCurve) UnmarshalText(b []byte) error {
	var out ColorCurve
	err := parseStops(string(b), `a colour "#RRGGBB" or "#RRGGBBAA"`, "0:#ffffff, 1:#ff000000", func(i int, at float32, v string) error {
		var col render2d.Color
		if err := col.UnmarshalText([]byte(v)); err != nil {
			return fmt.Errorf("colour %q: %w", v, err)
		}
		switch {
		case at < 0:
			out.Start, out.End = col, col
		case at == 0:
			out.Start = col
		case at == 1:
			out.End = col
		default:
			out.Stops[i] = ColorStop{At: at, Color: col}
		}
		return nil
	})
	if err != nil {
		return err
	}
	*c = out
	return nil
}

// parseStops splits s into "at:value" stops and hands each to set with
// its position and its index among the stops between 0 and 1 (0 for the
// first after "0:"); a lone value is handed over at position -1. what and
// example are for messages.
func parseStops(s, what, example string, set func(i int, at float32, v string) error) error {
	form := fmt.Sprintf(`want %s, or "at:value" stops from 0 to 1 separated by commas such as %q, with at most %d between 0 and 1`,
		what, example, MaxCurveStops)
	fail := func(format string, args ...any) error {
		return fmt.Errorf("ecs: curve %q: %s; %s", s, fmt.Sprintf(format, args...), form)
	}
	parts := strings.Split(s, ",")
	if len(parts) == 1 && !strings.Contains(s, ":") {
		if err := set(-1, -1, strings.TrimSpace(s)); err != nil {
			return fail("%v", err)
		}
		return nil
	}
	if len(parts) < 2 || len(parts) > MaxCurveStops+2 {
		return fail("%d stops", len(parts))
	}
	prev := float32(-1)
	for i, p := range parts {
		atText, v, ok := strings.Cut(strings.TrimSpace(p), ":")
		if !ok {
			return fail("stop %d (%q) has no ':'", i+1, strings.TrimSpace(p))
		}
		at64, err := strconv.ParseFloat(strings.TrimSpace(atText), 32)
		at := float32(at64)
		switch {
		case err != nil || !finite(at):
			return fail("stop %d: position %q is not a number", i+1, atText)
		case i == 0 && at != 0:
			return fail("the first stop is at %v, not 0", at)
		case i == len(parts)-1 && at != 1:
			return fail("the last stop is at %v, not 1", at)
		case at <= prev:
			return fail("stop %d at %v does not come after %v", i+1, at, prev)
		}
		prev = at
		if err := set(i-1, at, strings.TrimSpace(v)); err != nil {
			return fail("stop %d: %v", i+1, err)
		}
	}
	return nil
}
