package assets

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"math/rand/v2"
	"testing"
)

// toRGBA converts every image model a PNG decodes to, at any bounds,
// exactly as image/draw's Draw with Src did before it was written out by
// hand (so the library links no image/draw).
func TestToRGBAMatchesDraw(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	r := image.Rect(3, -2, 20, 9)
	pal := color.Palette{}
	for range 16 {
		pal = append(pal, color.NRGBA{uint8(rng.Uint32()), uint8(rng.Uint32()), uint8(rng.Uint32()), uint8(rng.Uint32())})
	}
	imgs := map[string]draw.Image{
		"NRGBA":    image.NewNRGBA(r),
		"NRGBA64":  image.NewNRGBA64(r),
		"RGBA":     image.NewRGBA(r),
		"RGBA64":   image.NewRGBA64(r),
		"Gray":     image.NewGray(r),
		"Gray16":   image.NewGray16(r),
		"Paletted": image.NewPaletted(r, pal),
	}
	for name, img := range imgs {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				c := color.NRGBA64{uint16(rng.Uint32()), uint16(rng.Uint32()), uint16(rng.Uint32()), uint16(rng.Uint32())}
				switch rng.IntN(4) {
				case 0:
					c.A = 0
				case 1:
					c.A = 0xffff
				}
				img.Set(x, y, c)
			}
		}
		// A sub-image: its pixels start inside a larger buffer.
		sub := img.(interface {
			SubImage(image.Rectangle) image.Image
		}).SubImage(image.Rect(5, 0, 17, 8))
		for _, src := range []image.Image{img, sub} {
			b := src.Bounds()
			want := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
			draw.Draw(want, want.Rect, src, b.Min, draw.Src)
			got := toRGBA(src)
			if got.Rect != want.Rect || !bytes.Equal(got.Pix, want.Pix) {
				t.Errorf("%s at %v: toRGBA differs from draw.Draw", name, b)
			}
		}
	}
}
