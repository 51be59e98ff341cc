package rendertest_test

import (
	"image"
	"testing"

	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

func TestRecorderConformance(t *testing.T) {
	rendertest.TestRenderer(t, func(t *testing.T) render2d.Renderer {
		return rendertest.NewRecorder(32, 32, 4096)
	})
}

func TestRecorderKeepsDeepCopies(t *testing.T) {
	r := rendertest.NewRecorder(8, 8, 64)
	f := render2d.Frame{Passes: []render2d.Pass{{Packets: []render2d.DrawPacket2D{{Layer: 1}}}}}
	if err := r.Render(&f); err != nil {
		t.Fatal(err)
	}
	f.Passes[0].Packets[0].Layer = 2
	if got := r.Frames[0].Passes[0].Packets[0].Layer; got != 1 {
		t.Errorf("recorded packet changed with the caller's frame: layer %d, want 1", got)
	}
	h, err := r.CreateTexture(image.NewRGBA(image.Rect(0, 0, 4, 4)), render2d.TextureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	patch := image.NewRGBA(image.Rect(0, 0, 1, 1))
	patch.Pix[0], patch.Pix[3] = 200, 255
	if err := r.UpdateTexture(h, 3, 2, patch); err != nil {
		t.Fatal(err)
	}
	texels, err := r.Texels(h)
	if err != nil {
		t.Fatal(err)
	}
	if got := texels.RGBAAt(3, 2); got.R != 200 || got.A != 255 {
		t.Errorf("texel (3, 2) after UpdateTexture = %v, want R 200 A 255", got)
	}
	if got := r.Textures(); got != 1 {
		t.Errorf("Textures() = %d, want 1", got)
	}
}

// A runtime closes its renderer at shutdown; the frames a test wants to
// inspect must survive that.
func TestRecorderKeepsFramesAfterClose(t *testing.T) {
	r := rendertest.NewRecorder(8, 8, 64)
	for i := range 3 {
		f := render2d.Frame{Sequence: uint64(i + 1), Passes: []render2d.Pass{{Packets: []render2d.DrawPacket2D{{Layer: int16(i)}}}}}
		if err := r.Render(&f); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if got := len(r.Frames); got != 3 {
		t.Fatalf("after Close: %d recorded frames, want 3", got)
	}
	for i, f := range r.Frames {
		if f.Sequence != uint64(i+1) || f.Passes[0].Packets[0].Layer != int16(i) {
			t.Errorf("frame %d after Close: sequence %d layer %d, want %d and %d", i, f.Sequence, f.Passes[0].Packets[0].Layer, i+1, i)
		}
	}
	if err := r.Render(&render2d.Frame{}); err == nil {
		t.Error("Render after Close succeeded, want ErrClosed")
	}
	if got := len(r.Frames); got != 3 {
		t.Errorf("a refused Render after Close changed Frames to %d entries, want 3", got)
	}
}
