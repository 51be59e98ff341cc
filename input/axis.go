package input

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/metronome-go/metronome/internal/suggest"
)

// Axis identifies one analog control of a gamepad, in the standard
// (Xbox-style) layout: a stick's horizontal or vertical axis, or a trigger.
// Like buttons, axes are persisted by name ([Axis.String], [ParseAxis]).
// The zero Axis is [NoAxis].
type Axis uint8

// Gamepad axes. Sticks range over [-1, 1] with +X right and +Y down (the
// screen's direction, as SDL and GLFW report them); triggers over [0, 1],
// 0 released.
const (
	NoAxis Axis = iota
	GamepadLeftX
	GamepadLeftY
	GamepadRightX
	GamepadRightY
	GamepadLeftTrigger
	GamepadRightTrigger

	axisLimit // one past the last valid axis
)

// AxisCount is the number of valid axes; valid values are 1 to AxisCount.
const AxisCount = int(axisLimit) - 1

// Default dead zones, used by [Axis.Bind] and by [ParseAxisBinding] when a
// binding names none. A resting stick rarely reads exactly zero, and a
// worn one can drift by a tenth or more; a trigger rests closer to zero.
const (
	DefaultStickDeadZone   = 0.2
	DefaultTriggerDeadZone = 0.1
)

var axisNames = [axisLimit]string{
	"NoAxis", "GamepadLeftX", "GamepadLeftY", "GamepadRightX", "GamepadRightY",
	"GamepadLeftTrigger", "GamepadRightTrigger",
}

var axisAliases = map[string]Axis{
	"gamepadlt": GamepadLeftTrigger,
	"gamepadrt": GamepadRightTrigger,
}

var axisByName = func() map[string]Axis {
	m := make(map[string]Axis, len(axisNames)+len(axisAliases))
	for a := Axis(1); a < axisLimit; a++ {
		m[strings.ToLower(axisNames[a])] = a
	}
	for k, a := range axisAliases {
		m[k] = a
	}
	return m
}()

// Valid reports whether a names a real axis.
func (a Axis) Valid() bool { return a > NoAxis && a < axisLimit }

// Trigger reports whether a is a trigger, whose range is [0, 1].
func (a Axis) Trigger() bool { return a == GamepadLeftTrigger || a == GamepadRightTrigger }

// Range returns the values a can take: [-1, 1] for a stick axis, [0, 1] for
// a trigger.
func (a Axis) Range() (lo, hi float32) {
	if a.Trigger() {
		return 0, 1
	}
	return -1, 1
}

// DefaultDeadZone returns the dead zone [Axis.Bind] gives a.
func (a Axis) DefaultDeadZone() float32 {
	if a.Trigger() {
		return DefaultTriggerDeadZone
	}
	return DefaultStickDeadZone
}

// clamp limits v to a's range; NaN becomes 0.
func (a Axis) clamp(v float32) float32 {
	if v != v {
		return 0
	}
	lo, hi := a.Range()
	return min(max(v, lo), hi)
}

// String returns the axis's canonical name ("GamepadLeftX"); an invalid
// axis formats as "Axis(n)".
func (a Axis) String() string {
	if a.Valid() {
		return axisNames[a]
	}
	return fmt.Sprintf("Axis(%d)", uint8(a))
}

// MarshalText implements encoding.TextMarshaler with the canonical name.
func (a Axis) MarshalText() ([]byte, error) {
	if !a.Valid() {
		return nil, fmt.Errorf("input: axis %d is not a valid axis (valid: 1 to %d)", uint8(a), AxisCount)
	}
	return []byte(axisNames[a]), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with [ParseAxis].
func (a *Axis) UnmarshalText(text []byte) error {
	v, err := ParseAxis(string(text))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// ParseAxis returns the axis with the given name, ignoring case and
// surrounding space ("GamepadLeftX", "gamepadrighttrigger", alias
// "GamepadLT"). An unknown name is a *[NameError] with close matches.
func ParseAxis(name string) (Axis, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	if a, ok := axisByName[key]; ok {
		return a, nil
	}
	return NoAxis, &NameError{Name: name, Kind: "axis", Suggestions: suggestAxes(key, false)}
}

// AxisBinding is one source of an analog action's value: a gamepad axis
// with a dead zone, or buttons standing in for one (a keyboard fallback).
// Build one with [Axis.Bind] or [ButtonAxis], or parse it from a config
// file with [ParseAxisBinding].
type AxisBinding struct {
	// Axis is the gamepad axis read, or NoAxis for a button binding.
	Axis Axis
	// Negative and Positive are the buttons of a button binding: Positive
	// held gives +1, Negative held gives -1, both or neither give 0.
	// Either may be ButtonNone (a single button gives 0 or ±1).
	Negative, Positive Button
	// DeadZone applies to an axis: a magnitude at or below it reads 0, and
	// the rest of the travel is rescaled to (0, 1], so the value starts
	// from zero at the edge of the dead zone instead of jumping. Allowed:
	// 0 to less than 1. Zero is no dead zone. [Axis.Bind] sets the axis's
	// default; a button binding must leave it zero.
	DeadZone float32
	// Invert negates the value: up is -1 on a stick's Y axis, so a game
	// whose +Y points up inverts it.
	Invert bool
}

// Bind returns a binding of a with its default dead zone.
func (a Axis) Bind() AxisBinding { return AxisBinding{Axis: a, DeadZone: a.DefaultDeadZone()} }

// ButtonAxis returns a binding of two buttons acting as an axis: negative
// held gives -1, positive held +1. Either may be ButtonNone.
func ButtonAxis(negative, positive Button) AxisBinding {
	return AxisBinding{Negative: negative, Positive: positive}
}

// WithDeadZone returns b with the given dead zone.
func (b AxisBinding) WithDeadZone(dz float32) AxisBinding {
	b.DeadZone = dz
	return b
}

// Inverted returns b with its value negated (or no longer negated).
func (b AxisBinding) Inverted() AxisBinding {
	b.Invert = !b.Invert
	return b
}

// Validate reports every problem with b at once: an invalid axis or
// button, an axis combined with buttons, no source at all, the same button
// twice, or a dead zone outside [0, 1) or on buttons.
func (b AxisBinding) Validate() error {
	var errs []error
	hasButtons := b.Negative != ButtonNone || b.Positive != ButtonNone
	switch {
	case b.Axis != NoAxis && !b.Axis.Valid():
		errs = append(errs, fmt.Errorf("input: axis %d is not valid (valid: 1 to %d)", uint8(b.Axis), AxisCount))
	case b.Axis != NoAxis && hasButtons:
		errs = append(errs, fmt.Errorf("input: binding of axis %v also names buttons %v/%v; use one binding per source", b.Axis, b.Negative, b.Positive))
	case b.Axis == NoAxis && !hasButtons:
		errs = append(errs, errors.New("input: axis binding has neither an axis nor a button"))
	}
	for _, x := range [2]struct {
		name string
		b    Button
	}{{"negative", b.Negative}, {"positive", b.Positive}} {
		if x.b != ButtonNone && !x.b.Valid() {
			errs = append(errs, fmt.Errorf("input: %s button %d is not valid (valid: 1 to %d)", x.name, uint8(x.b), ButtonCount))
		}
	}
	if b.Negative != ButtonNone && b.Negative == b.Positive {
		errs = append(errs, fmt.Errorf("input: button %v is both the negative and the positive side", b.Negative))
	}
	if !(b.DeadZone >= 0 && b.DeadZone < 1) {
		errs = append(errs, fmt.Errorf("input: dead zone %g is out of range (allowed: 0 to less than 1)", b.DeadZone))
	} else if b.DeadZone != 0 && b.Axis == NoAxis {
		errs = append(errs, fmt.Errorf("input: dead zone %g on a button binding (dead zones apply to axes)", b.DeadZone))
	}
	return errors.Join(errs...)
}

// String returns the binding in the form [ParseAxisBinding] reads:
// "GamepadLeftX deadzone=0.2", "A/D", "W", "GamepadLeftY invert
// deadzone=0.25". An axis binding always spells out its dead zone, so the
// text means the same whatever the defaults become.
func (b AxisBinding) String() string {
	var sb strings.Builder
	switch {
	case b.Axis != NoAxis:
		sb.WriteString(b.Axis.String())
	case b.Negative != ButtonNone && b.Positive != ButtonNone:
		sb.WriteString(b.Negative.String() + "/" + b.Positive.String())
	case b.Positive != ButtonNone:
		sb.WriteString(b.Positive.String())
	default:
		sb.WriteString(b.Negative.String() + "/")
	}
	if b.Invert {
		sb.WriteString(" invert")
	}
	if b.Axis != NoAxis {
		sb.WriteString(" deadzone=")
		sb.WriteString(strconv.FormatFloat(float64(b.DeadZone), 'g', -1, 32))
	}
	return sb.String()
}

// MarshalText implements encoding.TextMarshaler with [AxisBinding.String].
func (b AxisBinding) MarshalText() ([]byte, error) {
	if err := b.Validate(); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with [ParseAxisBinding].
func (b *AxisBinding) UnmarshalText(text []byte) error {
	v, err := ParseAxisBinding(string(text))
	if err != nil {
		return err
	}
	*b = v
	return nil
}

// ParseAxisBinding reads a binding as written in a config file: a source,
// then optional modifiers separated by spaces.
//
//	GamepadLeftX                 an axis with its default dead zone
//	GamepadLeftY deadzone=0.25   an axis with a dead zone in [0, 1)
//	GamepadLeftY invert          negated
//	A/D                          two buttons: A gives -1, D gives +1
//	/Down, Up/                   one side only (Down +1; Up -1)
//	W                            one button: +1 while held
//
// Names are matched as [ParseButton] and [ParseAxis] match them; every
// button name is also a valid binding. Every problem is reported at once,
// unknown names as *[NameError] with suggestions.
func ParseAxisBinding(s string) (AxisBinding, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return AxisBinding{}, fmt.Errorf("input: empty axis binding (write an axis such as \"GamepadLeftX\", buttons such as \"A/D\", or one button)")
	}
	var b AxisBinding
	var errs []error
	src := fields[0]
	if neg, pos, pair := strings.Cut(src, "/"); pair {
		for _, side := range [2]struct {
			text string
			dst  *Button
		}{{neg, &b.Negative}, {pos, &b.Positive}} {
			if side.text == "" {
				continue
			}
			v, err := ParseButton(side.text)
			if err != nil {
				errs = append(errs, err)
			}
			*side.dst = v
		}
		if neg == "" && pos == "" {
			errs = append(errs, fmt.Errorf("input: axis binding %q names no button on either side of /", s))
		}
	} else if a, ok := axisByName[strings.ToLower(src)]; ok {
		b = a.Bind()
	} else if v, ok := buttonByName[strings.ToLower(src)]; ok {
		b.Positive = v
	} else {
		errs = append(errs, &NameError{Name: src, Kind: "axis or button", Suggestions: suggestAxes(strings.ToLower(src), true)})
	}
	for _, m := range fields[1:] {
		key, val, hasVal := strings.Cut(strings.ToLower(m), "=")
		switch {
		case key == "invert" && !hasVal:
			b.Invert = !b.Invert
		case key == "deadzone" && hasVal:
			dz, err := strconv.ParseFloat(val, 32)
			if err != nil || math.IsNaN(dz) || dz < 0 || dz >= 1 {
				errs = append(errs, fmt.Errorf("input: axis binding %q: deadzone %q is not a number from 0 to less than 1", s, val))
				continue
			}
			if b.Axis == NoAxis && len(errs) == 0 {
				errs = append(errs, fmt.Errorf("input: axis binding %q: deadzone applies to gamepad axes, not to buttons", s))
				continue
			}
			b.DeadZone = float32(dz)
		default:
			errs = append(errs, fmt.Errorf("input: axis binding %q: unknown modifier %q (allowed: \"invert\", \"deadzone=N\" with N from 0 to less than 1)", s, m))
		}
	}
	if len(errs) > 0 {
		return AxisBinding{}, errors.Join(errs...)
	}
	if err := b.Validate(); err != nil {
		return AxisBinding{}, fmt.Errorf("input: axis binding %q: %w", s, err)
	}
	return b, nil
}

// ParseAxisBindings parses each text with [ParseAxisBinding], reporting
// every bad one at once; it returns nil bindings on error.
func ParseAxisBindings(texts ...string) ([]AxisBinding, error) {
	out := make([]AxisBinding, 0, len(texts))
	var errs []error
	for _, s := range texts {
		b, err := ParseAxisBinding(s)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, b)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// suggestAxes returns up to three axis names close to key (lower case),
// and button names too when withButtons is set.
func suggestAxes(key string, withButtons bool) []string {
	if len(key) > 64 {
		return nil
	}
	return suggest.NearestBy(key, func(yield func(spelling, name string) bool) {
		for a := Axis(1); a < axisLimit; a++ {
			if !yield(axisNames[a], axisNames[a]) {
				return
			}
		}
		for alias, a := range axisAliases {
			if !yield(alias, axisNames[a]) {
				return
			}
		}
		if !withButtons {
			return
		}
		for b := Button(1); b < buttonLimit; b++ {
			if !yield(buttonNames[b], buttonNames[b]) {
				return
			}
		}
	}, 3)
}

// value returns the binding's contribution given the buttons down and the
// raw axis values.
func (b *AxisBinding) value(down *ButtonSet, axes *[axisLimit]float32) float32 {
	var v float32
	if b.Axis != NoAxis {
		raw := axes[b.Axis]
		m := raw
		if m < 0 {
			m = -m
		}
		if m <= b.DeadZone {
			return 0
		}
		v = min((m-b.DeadZone)/(1-b.DeadZone), 1)
		if raw < 0 {
			v = -v
		}
	} else {
		if b.Positive != ButtonNone && down.Has(b.Positive) {
			v++
		}
		if b.Negative != ButtonNone && down.Has(b.Negative) {
			v--
		}
	}
	if b.Invert {
		v = -v
	}
	return v
}

// combine returns an analog action's value: the binding of largest
// magnitude wins (the first on a tie), so a stick and a key bound to the
// same action never add up to more than full deflection.
func combine(bs []AxisBinding, down *ButtonSet, axes *[axisLimit]float32) float32 {
	var best, bestAbs float32
	for i := range bs {
		v := bs[i].value(down, axes)
		a := v
		if a < 0 {
			a = -a
		}
		if a > bestAbs {
			best, bestAbs = v, a
		}
	}
	return best
}
