package config_test

import (
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/window"
)

func TestWindowKeys(t *testing.T) {
	tests := []struct {
		name, file string
		want       []string // every message; none for a valid file
	}{
		{"bounds and ratio", "[window]\nmin_size = \"640x360\"\nmax_size = \"1920x1080\"\naspect_ratio = \"16:9\"\n", nil},
		{"one side bounded", "[window]\nmin_size = \"0x480\"\n", nil},
		{"size below its minimum", "[window]\nmin_size = \"2000x0\"\n",
			[]string{"config: test.toml: window.width = 1280: below window.min_size's width 2000; allowed: window.min_size to window.max_size"}},
		{"size above its maximum", "[window]\nmax_size = \"1920x600\"\n",
			[]string{"config: test.toml: window.height = 720: above window.max_size's height 600; allowed: window.min_size to window.max_size"}},
		{"minimum above maximum", "[window]\nwidth = 800\nmin_size = \"900x0\"\nmax_size = \"850x0\"\n",
			[]string{`config: test.toml: window.min_size = "900x0": has its width 900 above window.max_size's 850; allowed: a minimum at most the maximum on each side`}},
		{"bound out of range", "[window]\nmin_size = \"-1x32\"\nmax_size = \"640x20000\"\n",
			[]string{`window.min_size = "-1x32": out of range; allowed: each side 1 to 16384, or 0 (no bound on that side)`,
				`window.max_size = "640x20000": out of range`}},
		{"not a size", "[window]\nmin_size = \"640\"\n",
			[]string{`window.min_size = "640": want a size string "WxH" such as "1280x720"`}},
		{"half a ratio", "[window]\naspect_ratio = \"16:0\"\n",
			[]string{`window.aspect_ratio = "16:0": out of range; allowed: each side 1 to 16384, or both 0 (free)`}},
		{"not a ratio", "[window]\naspect_ratio = \"16x9\"\n",
			[]string{`window.aspect_ratio = "16x9": want a ratio string "W:H" such as "16:9"`}},
		{"unknown focus policy", "[window]\nfocus_policy = \"pasue\"\n",
			[]string{`window.focus_policy = "pasue": unknown value (did you mean "pause"?)`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := config.Parse("test.toml", []byte(tc.file), config.Default())
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("Parse: %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Parse: nil, want %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Parse: got\n%v\nwant it to contain\n%s", err, w)
				}
			}
			if n := strings.Count(err.Error(), "\n") + 1; n != len(tc.want) {
				t.Errorf("Parse: %d messages, want %d:\n%v", n, len(tc.want), err)
			}
		})
	}
}

// The window keys reach the runtime's options and print back as written;
// a headless run keeps running whatever the focus policy says.
func TestWindowKeysInEffect(t *testing.T) {
	c := config.Default()
	for _, s := range []string{"window.min_size=640x360", "window.aspect_ratio=4:3", "window.focus_policy=throttle"} {
		if err := c.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	if c.Window.MinSize != (input.Size{Width: 640, Height: 360}) || c.Window.AspectRatio != (window.Ratio{Width: 4, Height: 3}) {
		t.Errorf("window %+v", c.Window)
	}
	o, err := c.RuntimeOptions("test")
	if err != nil {
		t.Fatal(err)
	}
	if o.FocusPolicy != runtime.FocusThrottle {
		t.Errorf("FocusPolicy %v, want throttle", o.FocusPolicy)
	}
	printed := string(c.EffectiveTOML())
	for _, want := range []string{`min_size = "640x360"`, `max_size = "0x0"`, `aspect_ratio = "4:3"`, `focus_policy = "throttle"`} {
		if !strings.Contains(printed, want) {
			t.Errorf("EffectiveTOML lacks %s:\n%s", want, printed)
		}
	}
	if err := c.Set("window.headless=true"); err != nil {
		t.Fatal(err)
	}
	if o, err = c.RuntimeOptions("test"); err != nil || o.FocusPolicy != runtime.FocusRun {
		t.Errorf("headless: FocusPolicy %v (%v), want run", o.FocusPolicy, err)
	}
}
