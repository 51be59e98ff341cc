package ui_test

import (
	"testing"

	"github.com/metronome-go/metronome/ui"
)

// TestSliderNumber: a slider's number has the decimals of its step and
// base, and no float's rounding error.
func TestSliderNumber(t *testing.T) {
	for _, tc := range []struct {
		w    ui.Widget
		want string
	}{
		{ui.Slider("v", 5, 0, 10, 1, 0), "5"},
		{ui.Slider("v", -3, -5, 5, 1, 0), "-3"},
		{ui.Slider("v", 4, 0, 20, 1, 0).Showing(30, 30), "150"},
		{ui.Slider("v", 7, 0, 20, 1, 0).Showing(0, 0.05), "0.35"},
		{ui.Slider("v", 6, 0, 20, 1, 0).Showing(0.5, 0.1), "1.1"},
		{ui.Slider("v", 2, 0, 20, 1, 0).Showing(-1, 0.25), "-0.50"},
		{ui.Slider("v", 3, 0, 20, 1, 0).Showing(1.5, 2), "7.5"},
		{ui.Slider("v", 1, 0, 3, 1, 0).Showing(0, 1.0/3), "0.3333"},
	} {
		if got := tc.w.Number(); got != tc.want {
			t.Errorf("value %d showing %v + value×%v: Number() = %q, want %q", tc.w.Value, tc.w.Base, tc.w.Unit, got, tc.want)
		}
	}
}
