//go:build js && wasm

package webplatform_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/runtime/webplatform"
	"github.com/metronome-go/metronome/window"
)

// The canvas's size is the window's: window.Options.Validate states its
// range, and webplatform adds only the canvas's id.
func TestConfigValidate(t *testing.T) {
	if err := webplatform.DefaultConfig().Validate(); err != nil {
		t.Fatalf("DefaultConfig().Validate() = %v, want nil", err)
	}
	c := webplatform.DefaultConfig()
	c.Width, c.Height, c.Canvas = window.MaxSide+1, 0, ""
	var got []string
	var walk func(err error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		var e *option.Error
		if !errors.As(err, &e) {
			t.Fatalf("problem %q is not an *option.Error", err)
		}
		got = append(got, e.Pkg+"."+e.Field)
	}
	walk(c.Validate())
	want := []string{"window.Options.Width", "window.Options.Height", "webplatform.Config.Canvas"}
	if !slices.Equal(got, want) {
		t.Errorf("fields refused = %q, want %q", got, want)
	}
	var w window.Options = c.Options
	if err := w.Validate(); err == nil {
		t.Errorf("window.Options.Validate accepts %dx%d, which webplatform refuses", c.Width, c.Height)
	}
}
