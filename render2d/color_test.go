package render2d_test

import (
	"testing"

	"github.com/metronome-go/metronome/render2d"
)

func TestColorText(t *testing.T) {
	for text, back := range map[string]string{"#202028": "#202028", "#A0B1C2D3": "#a0b1c2d3", "#ffffffff": "#ffffff"} {
		var c render2d.Color
		if err := c.UnmarshalText([]byte(text)); err != nil {
			t.Errorf("UnmarshalText(%q): %v", text, err)
		}
		if b, _ := c.MarshalText(); string(b) != back {
			t.Errorf("MarshalText(UnmarshalText(%q)) = %q, want %q", text, b, back)
		}
	}
	if c := (render2d.Color{R: 2, G: -1, B: 0.5, A: 1}); string(must(c.MarshalText())) != "#ff0080" {
		t.Errorf("MarshalText clamps: got %s", must(c.MarshalText()))
	}
	for _, bad := range []string{"202028", "#20202", "#2020zz", "#+1b1c2", ""} {
		var c render2d.Color
		if err := c.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("UnmarshalText(%q) accepted", bad)
		}
	}
}

func must(b []byte, _ error) []byte { return b }
