// Package cff lets package assets read OpenType fonts with CFF
// (PostScript) outlines, the .otf files most type foundries ship. A game
// that loads one imports it for its side effect:
//
//	import _ "github.com/metronome-go/metronome/assets/cff"
//
// Without it [github.com/metronome-go/metronome/assets.Library.LoadFont] refuses such a font with an error
// that names this package. The reader (golang.org/x/image/font/sfnt) is a
// few hundred kilobytes of a browser build, which a game that draws
// TrueType faces (the Go fonts among them) does not link.
package cff

import "github.com/metronome-go/metronome/assets/internal/cffont"

func init() {
	cffont.Parse = func(data []byte) (cffont.Outlines, error) {
		f, err := cffont.ParseFont(data)
		if err != nil {
			return nil, err // not a typed nil in the interface
		}
		return f, nil
	}
}
