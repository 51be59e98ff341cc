package input_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/input"
)

func TestParseButton(t *testing.T) {
	tests := []struct {
		name string
		want input.Button
	}{
		{"Space", input.KeySpace},
		{"space", input.KeySpace},
		{"  A ", input.KeyA},
		{"a", input.KeyA},
		{"0", input.Key0},
		{"Escape", input.KeyEscape},
		{"Esc", input.KeyEscape},
		{"Return", input.KeyEnter},
		{"Left", input.KeyLeft},
		{"F12", input.KeyF12},
		{"KP5", input.KeyKP5},
		{"LeftCtrl", input.KeyLeftControl},
		{"MouseLeft", input.MouseLeft},
		{"mouse8", input.Mouse8},
		{"GamepadA", input.GamepadA},
		{"GamepadDpadLeft", input.GamepadDpadLeft},
	}
	for _, tc := range tests {
		got, err := input.ParseButton(tc.name)
		if err != nil || got != tc.want {
			t.Errorf("ParseButton(%q) = %v, %v; want %v, nil", tc.name, got, err, tc.want)
		}
	}
}

func TestParseButtonUnknown(t *testing.T) {
	tests := []struct {
		name    string
		suggest []string // must appear among the suggestions, first one first
	}{
		{"Spcae", []string{"Space"}},
		{"MouseLft", []string{"MouseLeft"}},
		{"GamepadAA", []string{"GamepadA"}},
		{"Escap", []string{"Escape"}},
		{"Lefft", []string{"Left"}},
		{"Qwertyuiopasdf", nil},
		{"", nil},
	}
	for _, tc := range tests {
		_, err := input.ParseButton(tc.name)
		var ne *input.NameError
		if !errors.As(err, &ne) {
			t.Errorf("ParseButton(%q) error = %v, want a *NameError", tc.name, err)
			continue
		}
		if len(tc.suggest) == 0 {
			if len(ne.Suggestions) != 0 {
				t.Errorf("ParseButton(%q) suggestions = %v, want none", tc.name, ne.Suggestions)
			}
		} else if len(ne.Suggestions) == 0 || ne.Suggestions[0] != tc.suggest[0] {
			t.Errorf("ParseButton(%q) suggestions = %v, want %q first", tc.name, ne.Suggestions, tc.suggest[0])
		}
		if len(ne.Suggestions) > 3 {
			t.Errorf("ParseButton(%q) gave %d suggestions, want at most 3", tc.name, len(ne.Suggestions))
		}
		if !strings.HasPrefix(err.Error(), "input: ") || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("error %q: want the input: prefix and the bad name", err)
		}
		for _, s := range tc.suggest {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("error %q does not mention %q", err, s)
			}
		}
	}
}

func TestButtonNamesRoundTrip(t *testing.T) {
	devices := map[input.Device]int{}
	for b := input.Button(1); int(b) <= input.ButtonCount; b++ {
		if !b.Valid() {
			t.Fatalf("Button(%d).Valid() = false", b)
		}
		devices[b.Device()]++
		got, err := input.ParseButton(b.String())
		if err != nil || got != b {
			t.Errorf("ParseButton(%q) = %v, %v; want %v", b.String(), got, err, b)
		}
		text, err := b.MarshalText()
		if err != nil {
			t.Errorf("%v.MarshalText: %v", b, err)
		}
		var back input.Button
		if err := back.UnmarshalText(text); err != nil || back != b {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", text, back, err, b)
		}
	}
	want := map[input.Device]int{input.Keyboard: 120, input.Mouse: 8, input.Gamepad: 15}
	for d, n := range want {
		if devices[d] != n {
			t.Errorf("%v buttons = %d, want %d", d, devices[d], n)
		}
	}
	if devices[input.NoDevice] != 0 {
		t.Errorf("%d valid buttons have no device", devices[input.NoDevice])
	}
	for _, b := range []input.Button{input.ButtonNone, input.Button(input.ButtonCount + 1), 255} {
		if b.Valid() || b.Device() != input.NoDevice {
			t.Errorf("Button(%d): Valid %v, Device %v; want false, none", b, b.Valid(), b.Device())
		}
		if _, err := b.MarshalText(); err == nil {
			t.Errorf("Button(%d).MarshalText succeeded, want an error", b)
		}
	}
}

func TestParseButtonsReportsEveryError(t *testing.T) {
	got, err := input.ParseButtons("Space", "Spcae", "MouseLeft", "Gamepadd")
	if got != nil {
		t.Errorf("buttons = %v, want nil on error", got)
	}
	if err == nil || !strings.Contains(err.Error(), `"Spcae"`) || !strings.Contains(err.Error(), `"Gamepadd"`) {
		t.Errorf("error = %v, want both bad names", err)
	}
	got, err = input.ParseButtons("Space", "W", "Up")
	if want := []input.Button{input.KeySpace, input.KeyW, input.KeyUp}; err != nil || !slices.Equal(got, want) {
		t.Errorf("ParseButtons = %v, %v; want %v", got, err, want)
	}
}

func TestButtonSet(t *testing.T) {
	var s input.ButtonSet
	in := []input.Button{input.KeySpace, input.KeyMenu, input.MouseLeft, input.GamepadDpadLeft}
	for _, b := range in {
		s.Add(b)
	}
	s.Add(input.KeySpace)
	if got := s.AppendTo(nil); !slices.Equal(got, in) {
		t.Errorf("AppendTo = %v, want %v", got, in)
	}
	if s.Len() != len(in) {
		t.Errorf("Len = %d, want %d", s.Len(), len(in))
	}
	s.Remove(input.KeyMenu)
	if s.Has(input.KeyMenu) || !s.Has(input.MouseLeft) {
		t.Errorf("after Remove(Menu): Has(Menu) %v, Has(MouseLeft) %v; want false, true", s.Has(input.KeyMenu), s.Has(input.MouseLeft))
	}
}
