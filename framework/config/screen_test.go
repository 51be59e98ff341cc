package config_test

import (
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/render2d"
)

// The screen keys reach Config.Window.Screen whole, ready for the ECS app,
// from a file and from --set alike, and print back as they were written.
func TestScreenKeys(t *testing.T) {
	file := "[window]\nclear_color = \"#20202880\"\nlogical_size = \"320x180\"\nscaling = \"integer\"\n"
	c, err := config.Parse("game.toml", []byte(file), config.Default())
	if err != nil {
		t.Fatal(err)
	}
	want := render2d.Screen{Width: 320, Height: 180, Scaling: render2d.ScaleInteger, ClearColor: render2d.RGBA8(0x20, 0x20, 0x28, 0x80)}
	if c.Window.Screen != want {
		t.Errorf("Screen = %+v, want %+v", c.Window.Screen, want)
	}
	printed := string(c.EffectiveTOML())
	for _, line := range []string{`clear_color = "#20202880"`, `logical_size = "320x180"`, `scaling = "integer"`} {
		if !strings.Contains(printed, line) {
			t.Errorf("EffectiveTOML lacks %s:\n%s", line, printed)
		}
	}
	d := config.Default()
	if d.Window.Screen != (render2d.Screen{ClearColor: render2d.Black}) {
		t.Errorf("default Screen = %+v, want no logical size, letterbox, opaque black", d.Window.Screen)
	}
	for _, set := range []string{"window.clear_color=#202028", "window.logical_size=640x360", "window.scaling=stretch"} {
		if err := d.Set(set); err != nil {
			t.Errorf("Set(%s): %v", set, err)
		}
	}
	if want := (render2d.Screen{Width: 640, Height: 360, Scaling: render2d.ScaleStretch, ClearColor: render2d.RGBA8(0x20, 0x20, 0x28, 0xff)}); d.Window.Screen != want {
		t.Errorf("after --set: Screen = %+v, want %+v", d.Window.Screen, want)
	}
	if err := d.Validate(""); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

// Every problem with the screen keys is reported at once, each naming the
// file, the key and what it allows, in render2d's words for its ranges.
func TestScreenKeyErrors(t *testing.T) {
	tests := []struct {
		name, file string
		want       []string
	}{
		{"malformed", "[window]\nclear_color = \"#12345\"\nlogical_size = \"320 by 180\"\nscaling = \"fit\"\n", []string{
			`config: game.toml: window.clear_color = "#12345": want a colour string "#RRGGBB" or "#RRGGBBAA" (hexadecimal, alpha last) such as "#202028"`,
			`config: game.toml: window.logical_size = "320 by 180": want a size string "WxH" such as "1280x720"`,
			`config: game.toml: window.scaling = "fit": unknown value; allowed: "letterbox", "integer", "stretch", "resize"`,
		}},
		{"out of range", "[window]\nlogical_size = \"16385x0\"\n", []string{
			`config: game.toml: window.logical_size = "16385x0": out of range; allowed: each side 1 to 16384, or "0x0" (no logical resolution)`,
		}},
		{"resize with a logical size", "[window]\nlogical_size = \"320x180\"\nscaling = \"resize\"\n", []string{
			`config: game.toml: window.scaling = "resize": takes the logical size from the window, but a logical size of 320x180 is set; allowed: "resize" with no logical size, or "letterbox", "integer" or "stretch"`,
		}},
	}
	for _, tt := range tests {
		_, err := config.Parse("game.toml", []byte(tt.file), config.Default())
		if err == nil {
			t.Errorf("%s: Parse succeeded", tt.name)
			continue
		}
		got := strings.Split(err.Error(), "\n")
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s: errors\n%s\nwant\n%s", tt.name, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}
