package assets_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
	"testing/fstest"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// solid returns a w x h image of one colour.
func solid(w, h int, c color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

// pattern returns an image whose every pixel is distinct, to catch
// misplaced copies.
func pattern(w, h int, seed uint8) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, color.RGBA{uint8(x*7) + seed, uint8(y*13) + seed, seed, 255})
		}
	}
	return img
}

func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func newLib(t testing.TB, opts assets.Options) *assets.Library {
	t.Helper()
	lib, err := assets.NewLibrary(opts)
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

// fsWith builds a MapFS of PNG files.
func fsWith(t testing.TB, files map[string]image.Image) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, img := range files {
		fsys[name] = &fstest.MapFile{Data: encodePNG(t, img)}
	}
	return fsys
}

// regionPixels reads back the texels a region names from the recorder.
func regionPixels(t testing.TB, rec *rendertest.Recorder, r assets.Region) *image.RGBA {
	t.Helper()
	tex, err := rec.Texels(r.Texture)
	if err != nil {
		t.Fatalf("Texels(%v): %v", r.Texture, err)
	}
	src := image.Rect(int(r.Source.X), int(r.Source.Y), int(r.Source.X+r.Source.W), int(r.Source.Y+r.Source.H))
	out := image.NewRGBA(image.Rect(0, 0, src.Dx(), src.Dy()))
	for y := 0; y < src.Dy(); y++ {
		copy(out.Pix[y*out.Stride:(y+1)*out.Stride], tex.Pix[tex.PixOffset(src.Min.X, src.Min.Y+y):])
	}
	return out
}

func samePixels(a, b *image.RGBA) bool {
	return a.Rect.Size() == b.Rect.Size() && bytes.Equal(a.Pix, b.Pix)
}

// small is DefaultOptions with 256-texel pages, which keep tests (and the
// race detector) quick where the page size does not matter.
func small() assets.Options {
	o := assets.DefaultOptions()
	o.PageSize = 256
	return o
}
