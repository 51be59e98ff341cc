package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"testing"

	"github.com/metronome-go/metronome/assets"
)

// The sprite sheet, assets/sheet.png, is drawn by drawSheet below, so the
// example ships no art it cannot explain. TestSheet checks the PNG still is
// that drawing; after changing drawSheet, write the PNG anew with
//
//	UPDATE_SHEET=1 go test -run TestSheet ./examples/breakout

// brickColourRGB are the brick colours, bottom row (brick0) first.
var brickColourRGB = [brickColours]color.RGBA{
	{200, 96, 240, 255}, // violet
	{64, 160, 255, 255}, // blue
	{64, 200, 120, 255}, // green
	{240, 220, 64, 255}, // yellow
	{255, 160, 48, 255}, // orange
	{240, 80, 64, 255},  // red
}

// drawSheet draws the sheet: bevelled bricks, a metallic paddle, a round
// ball and a green capsule with a white band.
func drawSheet() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 192, brickColours*brickH))
	shade := func(c color.RGBA, f float64) color.RGBA {
		m := func(v uint8) uint8 { return uint8(min(255, float64(v)*f)) }
		return color.RGBA{m(c.R), m(c.G), m(c.B), 255}
	}
	regions := sheetRegions()
	for i := range brickColours {
		r := regions[brickRegion(i)].Inset(1) // a transparent pixel of gap
		c := brickColourRGB[i]
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				f := 1.0
				switch {
				case y < r.Min.Y+3 || x < r.Min.X+3:
					f = 1.35 // the lit top and left edges
				case y >= r.Max.Y-3 || x >= r.Max.X-3:
					f = 0.6 // the shaded bottom and right edges
				}
				img.SetRGBA(x, y, shade(c, f))
			}
		}
	}
	pad := regions["paddle"]
	for y := pad.Min.Y; y < pad.Max.Y; y++ {
		for x := pad.Min.X; x < pad.Max.X; x++ {
			// Rounded ends: leave the corner pixels out.
			dx := min(x-pad.Min.X, pad.Max.X-1-x)
			dy := min(y-pad.Min.Y, pad.Max.Y-1-y)
			if dx+dy < 3 {
				continue
			}
			v := uint8(150 + 100*(pad.Max.Y-y)/pad.Dy())
			img.SetRGBA(x, y, color.RGBA{v, v, 255, 255})
		}
	}
	disc(img, regions["ball"], func(d float64) color.RGBA {
		v := uint8(255 - 60*d)
		return color.RGBA{255, 255, v, 255}
	})
	capsule := regions["capsule"]
	for y := capsule.Min.Y; y < capsule.Max.Y; y++ {
		for x := capsule.Min.X; x < capsule.Max.X; x++ {
			dx := min(x-capsule.Min.X, capsule.Max.X-1-x)
			dy := min(y-capsule.Min.Y, capsule.Max.Y-1-y)
			if dx+dy < 4 {
				continue
			}
			c := color.RGBA{48, 220, 96, 255}
			if mid := (capsule.Min.X + capsule.Max.X) / 2; x >= mid-3 && x < mid+3 {
				c = color.RGBA{255, 255, 255, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// disc fills the circle inscribed in r, coloured by the distance from the
// centre (0 to 1).
func disc(img *image.RGBA, r image.Rectangle, colour func(d float64) color.RGBA) {
	cx, cy := float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2
	rad := float64(r.Dx()) / 2
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			if d := (dx*dx + dy*dy) / (rad * rad); d <= 1 {
				img.SetRGBA(x, y, colour(d))
			}
		}
	}
}

// TestSheet checks that assets/sheet.png is drawSheet's drawing, and that
// every region of sheetSpec lies in it and is not empty.
func TestSheet(t *testing.T) {
	want := drawSheet()
	const path = "assets/sheet.png"
	if os.Getenv("UPDATE_SHEET") != "" {
		var b bytes.Buffer
		if err := png.Encode(&b, want); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := assets.DecodePNG(os.DirFS("."), path, 4096)
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds() != want.Bounds() {
		t.Fatalf("%s: got size %v, want %v (UPDATE_SHEET=1 rewrites it)", path, got.Bounds(), want.Bounds())
	}
	if !bytes.Equal(got.Pix, want.Pix) {
		t.Errorf("%s differs from drawSheet's drawing (UPDATE_SHEET=1 rewrites it)", path)
	}
	if err := sheetSpec.Validate(want.Bounds().Dx(), want.Bounds().Dy()); err != nil {
		t.Error(err)
	}
	for name, r := range sheetSpec.Regions {
		opaque := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if want.RGBAAt(x, y).A != 0 {
					opaque++
				}
			}
		}
		if opaque < r.Dx()*r.Dy()/2 {
			t.Errorf("region %s %v: %d opaque pixels, want at least half of %d", name, r, opaque, r.Dx()*r.Dy())
		}
	}
}
