package assets_test

import (
	"errors"
	"image"
	"image/color"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/media"
)

// A mistyped region name suggests the closest region the sheet has.
func TestNamedRegionSuggests(t *testing.T) {
	lib := newLib(t, small())
	regions := map[string]image.Rectangle{
		"paddle": image.Rect(0, 0, 8, 2), "ball": image.Rect(0, 2, 2, 4), "brick": image.Rect(2, 2, 8, 4),
	}
	s, err := lib.AddSheet("breakout.png", solid(8, 4, color.RGBA{1, 2, 3, 255}), assets.SheetSpec{Regions: regions})
	if err != nil {
		t.Fatal(err)
	}
	bare, err := lib.AddSheet("bare.png", solid(8, 4, color.RGBA{1, 2, 3, 255}), assets.SheetSpec{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		sheet assets.Sheet
		name  string
		want  string
	}{
		{s, "paddel", `no region named "paddel" (did you mean "paddle"?)`},
		{s, "Ball", `no region named "Ball" (did you mean "ball"?)`},
		{s, "score", `no region named "score" (the sheet has ball, brick, paddle)`},
		{bare, "paddle", `no region named "paddle" (the sheet has no named regions)`},
	}
	for _, tt := range tests {
		_, err := lib.NamedRegion(tt.sheet, tt.name)
		if err == nil {
			t.Fatalf("NamedRegion(%q) found a region", tt.name)
		}
		if !errors.Is(err, media.ErrInvalid) {
			t.Errorf("NamedRegion(%q) = %v, want ErrInvalid", tt.name, err)
		}
		if got := err.Error(); !strings.Contains(got, tt.want) {
			t.Errorf("NamedRegion(%q) = %q, want it to contain %q", tt.name, got, tt.want)
		}
	}
}
