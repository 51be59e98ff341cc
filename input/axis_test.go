package input_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/input"
)

func TestParseAxis(t *testing.T) {
	for a := input.Axis(1); int(a) <= input.AxisCount; a++ {
		got, err := input.ParseAxis(a.String())
		if err != nil || got != a {
			t.Errorf("ParseAxis(%q) = %v, %v; want %v", a.String(), got, err, a)
		}
		text, err := a.MarshalText()
		var back input.Axis
		if err != nil || back.UnmarshalText(text) != nil || back != a {
			t.Errorf("%v: text round trip gives %v (%v)", a, back, err)
		}
	}
	if got, err := input.ParseAxis(" gamepadrt "); err != nil || got != input.GamepadRightTrigger {
		t.Errorf("ParseAxis(gamepadrt) = %v, %v; want GamepadRightTrigger", got, err)
	}
	_, err := input.ParseAxis("GamepadLeftZ")
	var ne *input.NameError
	if !errors.As(err, &ne) || ne.Kind != "axis" || len(ne.Suggestions) == 0 || ne.Suggestions[0] != "GamepadLeftX" {
		t.Errorf("ParseAxis(GamepadLeftZ) error %v, want a NameError suggesting GamepadLeftX first", err)
	}
	if !strings.Contains(err.Error(), `unknown axis name "GamepadLeftZ"`) {
		t.Errorf("error %q does not say it is an axis name", err)
	}
	for _, a := range []input.Axis{input.NoAxis, input.Axis(input.AxisCount + 1)} {
		if a.Valid() {
			t.Errorf("%v is valid", a)
		}
		if _, err := a.MarshalText(); err == nil {
			t.Errorf("%v.MarshalText succeeded", a)
		}
	}
	if lo, hi := input.GamepadLeftTrigger.Range(); lo != 0 || hi != 1 {
		t.Errorf("trigger range [%v, %v], want [0, 1]", lo, hi)
	}
	if lo, hi := input.GamepadRightY.Range(); lo != -1 || hi != 1 {
		t.Errorf("stick range [%v, %v], want [-1, 1]", lo, hi)
	}
}

func TestParseAxisBinding(t *testing.T) {
	tests := []struct {
		text      string
		want      input.AxisBinding
		canonical string
	}{
		{"GamepadLeftX", input.GamepadLeftX.Bind(), "GamepadLeftX deadzone=0.2"},
		{"gamepadlefttrigger", input.GamepadLeftTrigger.Bind(), "GamepadLeftTrigger deadzone=0.1"},
		{"GamepadLeftY deadzone=0.25", input.GamepadLeftY.Bind().WithDeadZone(0.25), "GamepadLeftY deadzone=0.25"},
		{"  GamepadLeftY   invert  DeadZone=0 ", input.AxisBinding{Axis: input.GamepadLeftY, Invert: true}, "GamepadLeftY invert deadzone=0"},
		{"A/D", input.ButtonAxis(input.KeyA, input.KeyD), "A/D"},
		{"Left/Right invert", input.ButtonAxis(input.KeyLeft, input.KeyRight).Inverted(), "Left/Right invert"},
		{"W", input.ButtonAxis(input.ButtonNone, input.KeyW), "W"},
		{"/Down", input.ButtonAxis(input.ButtonNone, input.KeyDown), "Down"},
		{"Up/", input.ButtonAxis(input.KeyUp, input.ButtonNone), "Up/"},
		{"GamepadDpadLeft/GamepadDpadRight", input.ButtonAxis(input.GamepadDpadLeft, input.GamepadDpadRight), "GamepadDpadLeft/GamepadDpadRight"},
	}
	for _, tc := range tests {
		got, err := input.ParseAxisBinding(tc.text)
		if err != nil || got != tc.want {
			t.Errorf("ParseAxisBinding(%q) = %+v, %v; want %+v", tc.text, got, err, tc.want)
			continue
		}
		if s := got.String(); s != tc.canonical {
			t.Errorf("String of %q = %q, want %q", tc.text, s, tc.canonical)
		}
		var back input.AxisBinding
		text, err := got.MarshalText()
		if err != nil || back.UnmarshalText(text) != nil || back != got {
			t.Errorf("%q: text round trip gives %+v (%v)", tc.text, back, err)
		}
	}
}

func TestParseAxisBindingErrors(t *testing.T) {
	tests := []struct {
		text string
		want []string // substrings of the error
	}{
		{"", []string{"empty axis binding"}},
		{"GamepadLeftZ", []string{`unknown axis or button name "GamepadLeftZ"`, `"GamepadLeftX"`}},
		{"Spcae", []string{`"Space"`}},
		{"A/Dd", []string{`unknown button name "Dd"`}},
		{"Aa/Dd", []string{`"Aa"`, `"Dd"`}},
		{"/", []string{"names no button"}},
		{"A/A", []string{"both the negative and the positive"}},
		{"GamepadLeftX deadzone=1", []string{`deadzone "1" is not a number from 0 to less than 1`}},
		{"GamepadLeftX deadzone=-0.1", []string{"deadzone"}},
		{"GamepadLeftX deadzone=nan", []string{"deadzone"}},
		{"GamepadLeftX deadzone", []string{`unknown modifier "deadzone"`}},
		{"A/D deadzone=0.2", []string{"applies to gamepad axes, not to buttons"}},
		{"GamepadLeftX fast", []string{`unknown modifier "fast"`, `"invert"`}},
		{"GamepadLeftQ fast", []string{`"GamepadLeftQ"`, `unknown modifier "fast"`}},
	}
	for _, tc := range tests {
		_, err := input.ParseAxisBinding(tc.text)
		if err == nil {
			t.Errorf("ParseAxisBinding(%q) succeeded, want an error", tc.text)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("ParseAxisBinding(%q) error %q does not contain %q", tc.text, err, w)
			}
		}
	}
	if _, err := input.ParseAxisBindings("GamepadLeftX", "Qq", "Zz/Y"); err == nil || !strings.Contains(err.Error(), `"Qq"`) || !strings.Contains(err.Error(), `"Zz"`) {
		t.Errorf("ParseAxisBindings error %v, want both bad names", err)
	}
}

func TestAxisBindingValidate(t *testing.T) {
	tests := []struct {
		name string
		b    input.AxisBinding
		want []string // empty: valid
	}{
		{"axis", input.GamepadRightX.Bind(), nil},
		{"buttons", input.ButtonAxis(input.KeyA, input.KeyD), nil},
		{"nothing", input.AxisBinding{}, []string{"neither an axis nor a button"}},
		{"invalid axis", input.AxisBinding{Axis: 99}, []string{"axis 99 is not valid"}},
		{"axis and buttons", input.AxisBinding{Axis: input.GamepadLeftX, Positive: input.KeyD}, []string{"also names buttons"}},
		{"invalid button", input.ButtonAxis(input.KeyA, 250), []string{"positive button 250 is not valid"}},
		{"dead zone 1", input.GamepadLeftX.Bind().WithDeadZone(1), []string{"dead zone 1 is out of range"}},
		{"negative dead zone and a bad button", input.AxisBinding{Negative: 251, DeadZone: -1}, []string{"negative button 251", "dead zone -1"}},
		{"dead zone on buttons", input.ButtonAxis(input.KeyA, input.KeyD).WithDeadZone(0.1), []string{"dead zones apply to axes"}},
	}
	for _, tc := range tests {
		err := tc.b.Validate()
		if len(tc.want) == 0 {
			if err != nil {
				t.Errorf("%s: Validate = %v, want nil", tc.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: Validate = nil, want an error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", tc.name, err, w)
			}
		}
	}
}

// TestButtonNamesAreAxisBindings: a config checker can read every binding
// text with ParseAxisBinding before it knows which actions are analog,
// because every button name is also an axis binding.
func TestButtonNamesAreAxisBindings(t *testing.T) {
	names := []string{" Esc ", "return", "LeftCtrl", "mousebutton1", "GamepadLB"}
	for b := input.Button(1); int(b) <= input.ButtonCount; b++ {
		names = append(names, b.String())
	}
	for _, n := range names {
		want, err := input.ParseButton(n)
		if err != nil {
			t.Fatalf("ParseButton(%q): %v", n, err)
		}
		got, err := input.ParseAxisBinding(n)
		if err != nil || got != input.ButtonAxis(input.ButtonNone, want) {
			t.Errorf("ParseAxisBinding(%q) = %+v, %v; want the button %v", n, got, err, want)
		}
	}
}
