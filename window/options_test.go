package window_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/window"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*window.Options)
		want []string // every message; none for valid options
	}{
		{"default", func(*window.Options) {}, nil},
		{"smallest", func(o *window.Options) { o.Width, o.Height = 1, 1 }, nil},
		{"zero size", func(o *window.Options) { o.Width, o.Height = 0, 0 },
			[]string{"window: Options.Width 0 is out of range; allowed: 1 to 16384", "window: Options.Height 0 is out of range; allowed: 1 to 16384"}},
		{"too wide", func(o *window.Options) { o.Width = window.MaxSide + 1 }, []string{"window: Options.Width 16385 is out of range; allowed: 1 to 16384"}},
		{"long title", func(o *window.Options) { o.Title = strings.Repeat("x", window.MaxTitle+1) },
			[]string{"window: Options.Title is too long (257 bytes); allowed: at most 256 bytes"}},
		{"limits and ratio", func(o *window.Options) {
			o.MinSize, o.MaxSize = input.Size{Width: 640, Height: 360}, input.Size{Width: 1920, Height: 1080}
			o.AspectRatio = window.Ratio{Width: 16, Height: 9}
		}, nil},
		{"one side bounded", func(o *window.Options) { o.MinSize = input.Size{Width: 320} }, nil},
		{"limits out of range", func(o *window.Options) {
			o.MinSize, o.MaxSize = input.Size{Width: -1}, input.Size{Height: window.MaxSide + 1}
		}, []string{"window: Options.MinSize {-1 0} is out of range; allowed: each side 1 to 16384, or 0 (no bound on that side)",
			"window: Options.MaxSize {0 16385} is out of range"}},
		{"minimum above maximum", func(o *window.Options) {
			o.Width, o.MinSize, o.MaxSize = 850, input.Size{Width: 900}, input.Size{Width: 800}
		}, []string{"window: Options.MinSize {900 0} has its width 900 above Options.MaxSize's 800; allowed: a minimum at most the maximum on each side"}},
		{"size outside its limits", func(o *window.Options) {
			o.MinSize, o.MaxSize = input.Size{Width: 1600}, input.Size{Height: 480}
		}, []string{"window: Options.Width 1280 is below Options.MinSize's width 1600; allowed: Options.MinSize to Options.MaxSize",
			"window: Options.Height 720 is above Options.MaxSize's height 480"}},
		{"half a ratio", func(o *window.Options) { o.AspectRatio = window.Ratio{Width: 16} },
			[]string{"window: Options.AspectRatio {16 0} is out of range; allowed: each side 1 to 16384, or both 0 (free)"}},
		{"ratio out of range", func(o *window.Options) { o.AspectRatio = window.Ratio{Width: -4, Height: 3} },
			[]string{"window: Options.AspectRatio {-4 3} is out of range"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := window.DefaultOptions()
			tc.edit(&o)
			err := o.Validate()
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("Validate: got %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate: got nil, want %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Validate: got\n%v\nwant it to contain\n%s", err, w)
				}
			}
			if n := strings.Count(err.Error(), "\n") + 1; n != len(tc.want) {
				t.Errorf("Validate: %d messages, want %d:\n%v", n, len(tc.want), err)
			}
			var oe *option.Error
			if !errors.As(err, &oe) || oe.Pkg != "window" {
				t.Errorf("Validate: %v is not a window *option.Error", err)
			}
		})
	}
}

func TestRatioText(t *testing.T) {
	var r window.Ratio
	if err := r.UnmarshalText([]byte("16:9")); err != nil || r != (window.Ratio{Width: 16, Height: 9}) {
		t.Errorf("UnmarshalText = %v, %v", r, err)
	}
	if b, _ := r.MarshalText(); string(b) != "16:9" {
		t.Errorf("MarshalText = %q, want 16:9", b)
	}
	if err := r.UnmarshalText([]byte("16x9")); err == nil || err.Error() != `window: want a ratio string "W:H" such as "16:9"` {
		t.Errorf("UnmarshalText(16x9) = %v", err)
	}
}
