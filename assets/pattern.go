package assets

import (
	"context"
	"fmt"
	"image"
	"math"

	"github.com/metronome-go/metronome/media"
)

// PatternFiles returns n [GeneratedImage] files of w x h pixels, named
// prefix followed by the index in four or more digits, each drawing
// [Pattern] for its index. They make a deliberately large atlas without
// shipping any file: a loading screen's test load, a stress test of
// packing and upload. Drawing costs a few sines per pixel, about as much
// CPU per pixel as decoding a PNG, and each draw stops early once its
// load's context is done.
func PatternFiles(prefix string, n, w, h int) []File {
	files := make([]File, n)
	for i := range files {
		files[i] = GeneratedImage(fmt.Sprintf("%s%04d", prefix, i), func(ctx context.Context) (image.Image, error) {
			return drawPattern(ctx, i, w, h)
		})
	}
	return files
}

// Pattern returns the w x h image number i of [PatternFiles]: interfering
// waves in a hue of its own, opaque, different for every i. Safe from any
// goroutine.
func Pattern(i, w, h int) *image.RGBA {
	img, _ := drawPattern(context.Background(), i, w, h)
	return img
}

func drawPattern(ctx context.Context, i, w, h int) (*image.RGBA, error) {
	if w <= 0 || h <= 0 {
		return nil, media.Detail(ErrEmpty, "pattern is %dx%d, both sides must be at least 1", w, h)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	// The golden ratio spreads consecutive hues around the circle.
	hue := math.Mod(float64(i)*0.6180339887498949, 1)
	r0, g0, b0 := hueRGB(hue)
	r1, g1, b1 := hueRGB(math.Mod(hue+0.5, 1))
	fx := 2 + float64(i%7)
	fy := 3 + float64(i%5)
	fr := 4 + float64(i%11)
	for y := range h {
		if y%16 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		v := (float64(y) + 0.5) / float64(h)
		for x := range w {
			u := (float64(x) + 0.5) / float64(w)
			d := math.Hypot(u-0.5, v-0.5)
			s := math.Sin(2*math.Pi*fx*u) + math.Sin(2*math.Pi*fy*v) + math.Sin(2*math.Pi*fr*d+float64(i))
			t := 0.5 + s/6 // in [0, 1]
			o := img.PixOffset(x, y)
			img.Pix[o+0] = uint8(255 * (r0*t + r1*(1-t)))
			img.Pix[o+1] = uint8(255 * (g0*t + g1*(1-t)))
			img.Pix[o+2] = uint8(255 * (b0*t + b1*(1-t)))
			img.Pix[o+3] = 255
		}
	}
	return img, nil
}

// hueRGB returns the fully saturated colour of hue h in [0, 1).
func hueRGB(h float64) (r, g, b float64) {
	k := func(n float64) float64 {
		x := math.Mod(n+h*6, 6)
		return 1 - math.Max(0, math.Min(1, math.Min(x, 4-x)))
	}
	return k(5), k(3), k(1)
}
