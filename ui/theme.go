package ui

import (
	"errors"
	"fmt"
	"math"

	"github.com/metronome-go/metronome/render2d"
)

// Theme is how widgets look and how big they are by default, in logical
// units. Its fields carry toml names and ranges, so a game can put a
// Theme in its settings struct and let players restyle the menus from the
// [game] table of config.toml (see package framework/config):
//
//	type Settings struct {
//		Theme ui.Theme // [game.theme] focus = "#ffcc00"
//	}
//
// The zero Theme is not usable; start from [DefaultTheme].
type Theme struct {
	// ItemWidth and ItemHeight size a widget whose Size leaves them zero.
	ItemWidth  float32 `toml:"item_width" range:"1,4096"`
	ItemHeight float32 `toml:"item_height" range:"1,4096"`
	// Gap separates the children of a stack; Padding surrounds them
	// inside their panel.
	Gap     float32 `toml:"gap" range:"0,1024"`
	Padding float32 `toml:"padding" range:"0,1024"`
	// Text colours captions and values, Dim those of disabled widgets.
	Text render2d.Color `toml:"text"`
	Dim  render2d.Color `toml:"dim"`
	// Panel is a panel's background, Widget a widget's, Focus the
	// focused widget's, and Accent a slider's fill, a toggle that is on
	// and a text field being edited.
	Panel  render2d.Color `toml:"panel"`
	Widget render2d.Color `toml:"widget"`
	Focus  render2d.Color `toml:"focus"`
	Accent render2d.Color `toml:"accent"`
	// Layer is the draw layer of the UI's pass packets: the UI draws in a
	// pass of its own, on top of the game's, in tree order.
	Layer int16 `toml:"layer"`
}

// DefaultTheme returns a dark theme with 160x20 items.
func DefaultTheme() Theme {
	return Theme{
		ItemWidth: 160, ItemHeight: 20, Gap: 4, Padding: 8,
		Text:   render2d.RGBA8(0xee, 0xee, 0xee, 0xff),
		Dim:    render2d.RGBA8(0x80, 0x80, 0x88, 0xff),
		Panel:  render2d.RGBA8(0x18, 0x18, 0x20, 0xe0),
		Widget: render2d.RGBA8(0x30, 0x30, 0x3c, 0xff),
		Focus:  render2d.RGBA8(0x50, 0x60, 0xa0, 0xff),
		Accent: render2d.RGBA8(0xe0, 0xb0, 0x30, 0xff),
	}
}

// Validate reports every field out of its range at once, each naming the
// field and what it allows.
func (t Theme) Validate() error {
	var errs []error
	size := func(name string, v, lo, hi float32) {
		if !(v >= lo && v <= hi) || math.IsNaN(float64(v)) {
			errs = append(errs, fmt.Errorf("ui: Theme.%s = %g: out of range; allowed: %g to %g", name, v, lo, hi))
		}
	}
	size("ItemWidth", t.ItemWidth, 1, 4096)
	size("ItemHeight", t.ItemHeight, 1, 4096)
	size("Gap", t.Gap, 0, 1024)
	size("Padding", t.Padding, 0, 1024)
	return errors.Join(errs...)
}
