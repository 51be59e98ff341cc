package rendertest

import (
	"image"
	"image/color"
	"slices"
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/shape"
)

// shapeFrame is a cleared 32x32 pass with an 8x8 filled square shape
// moving from (2, 4) to (22, 4), presented at alpha: halfway it covers
// (12, 4) to (20, 12).
func shapeFrame(t *testing.T, alpha float32) *render2d.Frame {
	t.Helper()
	f := &render2d.Frame{}
	w := render2d.NewFrameWriter(f)
	pw := w.BeginPass(render2d.PassDesc{Clear: true, ClearColor: render2d.Black, Camera: render2d.Camera{Viewport: geom.Rect{W: 32, H: 32}}})
	var tess shape.Tessellator
	sq := shape.Rect(8, 8)
	p := shape.Packet(geom.Vec2{X: 22, Y: 4}, render2d.Color{R: 1, G: 0.5, A: 1})
	p.Prev = p.Placement()
	p.Prev.Position.X = 2
	if err := tess.Draw(pw, &sq, p); err != nil {
		t.Fatal(err)
	}
	f.Present.Alpha = alpha
	return f
}

// testShapes: a shape packet is drawn at its placement resolved at the
// present's alpha, like a sprite, and a shape packet whose mesh lies
// outside its pass's vertices, or that names a texture, is refused.
func testShapes(t *testing.T, r render2d.Renderer) {
	f := shapeFrame(t, 0.5)
	if err := r.Render(f); err != nil {
		t.Fatalf("Render: %v", err)
	}
	if rec, ok := r.(*Recorder); ok {
		got := &rec.Frames[len(rec.Frames)-1]
		if !slices.Equal(got.Passes[0].Vertices, f.Passes[0].Vertices) || !slices.Equal(got.Passes[0].Indices, f.Passes[0].Indices) {
			t.Error("the recorded pass does not keep the shape's vertices and indices")
		}
		shown := got.Resolved()
		if pos := shown.Passes[0].Packets[0].Transform.Position; pos != (geom.Vec2{X: 12, Y: 4}) {
			t.Errorf("shape shown at %v, want (12, 4) halfway", pos)
		}
	} else {
		img, err := r.ReadPixels(render2d.TargetHandle{}, image.Rect(0, 0, 32, 32))
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range []struct {
			x, y int
			want color.RGBA
		}{{16, 8, color.RGBA{255, 128, 0, 255}}, {6, 8, color.RGBA{0, 0, 0, 255}}, {26, 8, color.RGBA{0, 0, 0, 255}}} {
			if got := img.RGBAAt(pr.x, pr.y); !near(got, pr.want) {
				t.Errorf("pixel (%d, %d) = %v, want %v", pr.x, pr.y, got, pr.want)
			}
		}
	}
	for _, tt := range []struct {
		name string
		edit func(*render2d.Pass)
	}{
		{"index beyond the mesh", func(p *render2d.Pass) { p.Indices[0] = p.Packets[0].Mesh.VertexCount }},
		{"mesh beyond the pass", func(p *render2d.Pass) { p.Packets[0].Mesh.FirstVertex = uint32(len(p.Vertices)) }},
		{"not whole triangles", func(p *render2d.Pass) { p.Packets[0].Mesh.IndexCount-- }},
		{"a texture", func(p *render2d.Pass) { p.Packets[0].Texture = render2d.TextureHandle{ID: 1, Gen: 1} }},
	} {
		f := shapeFrame(t, 1)
		tt.edit(&f.Passes[0])
		if err := r.Render(f); err == nil {
			t.Errorf("%s: Render succeeded, want an error", tt.name)
		}
	}
}
