//go:build !js

package glrender_test

import (
	"image"
	"image/color"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender"
	"github.com/metronome-go/metronome/render2d/glrender/gltest"
)

func TestReleaseDeletesGLObjects(t *testing.T) {
	r := gltest.Renderer(t)
	a := mustTexture(t, r, quadrants(), render2d.TextureOptions{})
	b := mustTexture(t, r, quadrants(), render2d.TextureOptions{})
	_, ttex, err := r.CreateRenderTarget(8, 8, render2d.TextureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ida, idb, idt := glrender.GLTexture(r, a), glrender.GLTexture(r, b), glrender.GLTexture(r, ttex)
	for _, id := range []uint32{ida, idb, idt} {
		if !gl.IsTexture(id) {
			t.Fatalf("texture %d is not a GL texture after creation", id)
		}
	}
	if err := r.ReleaseTexture(a); err != nil {
		t.Fatal(err)
	}
	if gl.IsTexture(ida) {
		t.Errorf("GL texture %d still exists after ReleaseTexture", ida)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	for _, id := range []uint32{idb, idt} {
		if gl.IsTexture(id) {
			t.Errorf("GL texture %d still exists after Close", id)
		}
	}
}

func TestUpdateTextureShowsOnScreen(t *testing.T) {
	r := gltest.Renderer(t)
	red := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for i := 0; i < len(red.Pix); i += 4 {
		copy(red.Pix[i:], []byte{255, 0, 0, 255})
	}
	h := mustTexture(t, r, red, render2d.TextureOptions{Filter: render2d.FilterNearest})
	green := image.NewRGBA(image.Rect(0, 0, 2, 2))
	for i := 0; i < len(green.Pix); i += 4 {
		copy(green.Pix[i:], []byte{0, 255, 0, 255})
	}
	if err := r.UpdateTexture(h, 2, 2, green); err != nil {
		t.Fatal(err)
	}
	// 16 pixels per texel: texel (3, 3) covers pixels 48..63.
	if err := r.Render(onePass(render2d.PassDesc{Clear: true}, sprite(h, 0, 0, 64, 64))); err != nil {
		t.Fatal(err)
	}
	img, err := r.ReadPixels(render2d.TargetHandle{}, image.Rect(0, 0, 64, 64))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		x, y int
		want color.RGBA
	}{
		{8, 8, color.RGBA{255, 0, 0, 255}},
		{40, 40, color.RGBA{0, 255, 0, 255}},
		{56, 8, color.RGBA{255, 0, 0, 255}},
		{8, 56, color.RGBA{255, 0, 0, 255}},
	}
	for _, tt := range tests {
		if got := img.RGBAAt(tt.x, tt.y); got != tt.want {
			t.Errorf("pixel (%d, %d) = %v, want %v", tt.x, tt.y, got, tt.want)
		}
	}
}

// TestRenderIgnoresForeignState enables state another library might leave
// behind (culling, scissor, depth test, another program) and checks the
// frame still draws in full, flipped quad included.
func TestRenderIgnoresForeignState(t *testing.T) {
	r := gltest.Renderer(t)
	gl.Enable(gl.CULL_FACE)
	gl.Enable(gl.SCISSOR_TEST)
	gl.Scissor(0, 0, 1, 1)
	gl.Enable(gl.DEPTH_TEST)
	flipped := solidQuad(48, 0, 16, 16, render2d.White)
	flipped.Transform.Scale.X = -1 // covers x 32..48, wound the other way
	f := onePass(render2d.PassDesc{Clear: true, ClearColor: render2d.Black}, solidQuad(0, 0, 16, 16, render2d.White), flipped)
	if err := r.Render(f); err != nil {
		t.Fatal(err)
	}
	img, err := r.ReadPixels(render2d.TargetHandle{}, image.Rect(0, 0, 64, 64))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []image.Point{{8, 8}, {40, 8}} {
		if got := img.RGBAAt(p.X, p.Y); got != (color.RGBA{255, 255, 255, 255}) {
			t.Errorf("pixel %v = %v, want white", p, got)
		}
	}
	if got := img.RGBAAt(60, 60); got != (color.RGBA{0, 0, 0, 255}) {
		t.Errorf("pixel (60, 60) = %v, want the black clear colour", got)
	}
}
