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

// The tileset image, assets/tiles.png, is drawn by drawTiles below, so the
// example ships no art it cannot explain. TestTiles checks the PNG still
// is that drawing; after changing drawTiles, write the PNG anew with
//
//	UPDATE_TILES=1 go test -run TestTiles ./examples/platformer

const tileSize = 16

// drawTiles draws the 8x2 cells of 16x16 pixels that tiles.tsx cuts.
func drawTiles() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 8*tileSize, 2*tileSize))
	cell := func(id int, f func(x, y int) (color.RGBA, bool)) {
		ox, oy := id%8*tileSize, id/8*tileSize
		for y := range tileSize {
			for x := range tileSize {
				if c, ok := f(x, y); ok {
					img.SetRGBA(ox+x, oy+y, c)
				}
			}
		}
	}
	dirt := color.RGBA{150, 96, 56, 255}
	speck := func(x, y int) bool { return (x*7+y*13)%11 == 0 }
	cell(tileGrass, func(x, y int) (color.RGBA, bool) {
		switch {
		case y < 3 || (y == 3 && x%3 != 0):
			return color.RGBA{72, 184, 64, 255}, true
		case speck(x, y):
			return color.RGBA{110, 70, 40, 255}, true
		}
		return dirt, true
	})
	cell(tileDirt, func(x, y int) (color.RGBA, bool) {
		if speck(x, y) {
			return color.RGBA{110, 70, 40, 255}, true
		}
		return dirt, true
	})
	cell(tileBrick, func(x, y int) (color.RGBA, bool) {
		// Two rows of bricks, the lower one shifted by half a brick.
		if y%8 == 7 || (x+4*(y/8))%8 == 0 {
			return color.RGBA{90, 40, 24, 255}, true
		}
		return color.RGBA{200, 88, 48, 255}, true
	})
	cell(tileStone, func(x, y int) (color.RGBA, bool) {
		switch {
		case x == 0 || y == 0:
			return color.RGBA{200, 200, 210, 255}, true
		case x == 15 || y == 15:
			return color.RGBA{80, 80, 96, 255}, true
		}
		return color.RGBA{140, 140, 156, 255}, true
	})
	white := color.RGBA{255, 255, 255, 255}
	cloud := func(cx float64) func(x, y int) (color.RGBA, bool) {
		return func(x, y int) (color.RGBA, bool) {
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-10
			return white, y < 14 && dx*dx+dy*dy*2 < 100
		}
	}
	cell(tileCloudL, cloud(16))
	cell(tileCloudR, cloud(0))
	cell(tileBush, func(x, y int) (color.RGBA, bool) {
		dx, dy := float64(x)+0.5-8, float64(y)+0.5-16
		return color.RGBA{40, 150, 56, 255}, dx*dx+dy*dy < 64
	})
	coin := func(rx float64) func(x, y int) (color.RGBA, bool) {
		return func(x, y int) (color.RGBA, bool) {
			dx, dy := (float64(x)+0.5-8)/rx, (float64(y)+0.5-8)/6
			d := dx*dx + dy*dy
			if d > 1 {
				return color.RGBA{}, false
			}
			if d > 0.55 {
				return color.RGBA{200, 140, 24, 255}, true // the rim
			}
			return color.RGBA{255, 220, 64, 255}, true
		}
	}
	cell(tileCoin, coin(6))
	cell(tileCoin2, coin(3))
	cell(tileExit, func(x, y int) (color.RGBA, bool) {
		switch {
		case x == 3 || x == 4:
			return color.RGBA{220, 220, 220, 255}, true // the pole
		case x > 4 && y >= 1 && y < 8 && x-5 < 10-(y-1)/2:
			return color.RGBA{240, 48, 64, 255}, true // the flag
		}
		return color.RGBA{}, false
	})
	cell(tilePlayer, func(x, y int) (color.RGBA, bool) {
		// A 12x14 figure in x 2..13, y 1..14: the player's box.
		switch {
		case x < 2 || x > 13 || y < 1 || y > 14:
			return color.RGBA{}, false
		case y <= 6 && (x == 9 || x == 11) && y >= 3 && y <= 4:
			return color.RGBA{20, 20, 40, 255}, true // eyes, looking right
		case y <= 6:
			return color.RGBA{255, 204, 160, 255}, true // head
		case y >= 12 && x >= 6 && x <= 9:
			return color.RGBA{}, false // between the legs
		case y >= 12:
			return color.RGBA{40, 56, 160, 255}, true // legs
		}
		return color.RGBA{224, 40, 48, 255}, true // shirt
	})
	cell(tileHillTop, func(x, y int) (color.RGBA, bool) {
		dx, dy := float64(x)+0.5-8, float64(y)+0.5-16
		return color.RGBA{56, 120, 72, 255}, dx*dx+dy*dy < 72
	})
	cell(tileHill, func(x, y int) (color.RGBA, bool) {
		return color.RGBA{56, 120, 72, 255}, true
	})
	return img
}

// TestTiles checks that assets/tiles.png is drawTiles' drawing.
func TestTiles(t *testing.T) {
	want := drawTiles()
	const path = "assets/tiles.png"
	if os.Getenv("UPDATE_TILES") != "" {
		var b bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&b, want); err != nil {
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
		t.Fatalf("%s: got size %v, want %v (UPDATE_TILES=1 rewrites it)", path, got.Bounds(), want.Bounds())
	}
	if !bytes.Equal(got.Pix, want.Pix) {
		t.Errorf("%s differs from drawTiles' drawing (UPDATE_TILES=1 rewrites it)", path)
	}
}
