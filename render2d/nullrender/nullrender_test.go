package nullrender_test

import (
	"errors"
	"image"
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/nullrender"
)

// TestHandlesAndFrames: the null renderer keeps handles with the same
// checks as every renderer, validates frames, and refuses pixels.
func TestHandlesAndFrames(t *testing.T) {
	r := nullrender.New()
	tex, err := r.CreateTexture(image.NewRGBA(image.Rect(0, 0, 8, 4)), render2d.TextureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w, h, err := r.TextureSize(tex); err != nil || w != 8 || h != 4 {
		t.Errorf("TextureSize: %d, %d, %v; want 8, 4", w, h, err)
	}
	var f render2d.Frame
	render2d.NewFrameWriter(&f).BeginPass(render2d.PassDesc{}).Draw(render2d.Sprite(tex, geom.Rect{}, geom.Vec2{}, geom.Vec2{X: 8, Y: 4}))
	if err := r.Render(&f); err != nil {
		t.Fatalf("Render: %v", err)
	}
	if err := r.ReleaseTexture(tex); err != nil {
		t.Fatal(err)
	}
	if err := r.Render(&f); !errors.Is(err, render2d.ErrStaleHandle) {
		t.Errorf("Render with a released texture: got %v, want ErrStaleHandle", err)
	}
	if _, err := r.ReadPixels(render2d.TargetHandle{}, image.Rect(0, 0, 1, 1)); err == nil {
		t.Error("ReadPixels succeeded on a renderer that draws nothing")
	}
	if got := r.Rendered(); got != 1 {
		t.Errorf("Rendered: %d, want 1", got)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Render(&render2d.Frame{}); !errors.Is(err, render2d.ErrClosed) {
		t.Errorf("Render after Close: got %v, want ErrClosed", err)
	}
}
