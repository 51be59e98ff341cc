package assets_test

import (
	"image"
	"image/color"
	"testing"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/nullrender"
)

// TextureImage hands back the pixels a frame's texture handle draws, none
// after ReleaseTextures until the next upload, and nothing for a handle
// the library never uploaded.
func TestTextureImage(t *testing.T) {
	lib, err := assets.NewLibrary(assets.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	src := image.NewRGBA(image.Rect(0, 0, 3, 2))
	src.SetRGBA(2, 1, color.RGBA{R: 10, G: 20, B: 30, A: 255})
	img, err := lib.AddImage("dot", src)
	if err != nil {
		t.Fatal(err)
	}
	r := nullrender.New()
	if err := lib.Upload(r); err != nil {
		t.Fatal(err)
	}
	reg, err := lib.Region(img)
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		page, ok := lib.TextureImage(reg.Texture)
		if !ok {
			t.Fatalf("%s: no image for %v", when, reg.Texture)
		}
		if got := page.RGBAAt(int(reg.Source.X)+2, int(reg.Source.Y)+1); got != (color.RGBA{R: 10, G: 20, B: 30, A: 255}) {
			t.Errorf("%s: texel (2, 1) of the image is %v", when, got)
		}
	}
	check("uploaded")
	if err := lib.ReleaseTextures(r); err != nil {
		t.Fatal(err)
	}
	if _, ok := lib.TextureImage(reg.Texture); ok {
		t.Errorf("TextureImage(%v) found a page after ReleaseTextures", reg.Texture)
	}
	// A replay's first renderer is gone when the inspector draws its frames:
	// a fresh one of the same kind issues the same handles in the same order.
	if err := lib.Upload(nullrender.New()); err != nil {
		t.Fatal(err)
	}
	check("uploaded again")
	for _, h := range []render2d.TextureHandle{{}, {ID: 99, Gen: 1}} {
		if _, ok := lib.TextureImage(h); ok {
			t.Errorf("TextureImage(%v) found a page", h)
		}
	}
}
