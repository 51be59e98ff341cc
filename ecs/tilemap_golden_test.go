package ecs_test

import (
	"flag"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

var updateMap = flag.Bool("update-map", false, "rewrite testdata/forest.png")

// TestMapGolden draws Tiled's forest example (parallax backgrounds of
// tile objects, a tile layer, an animated squirrel) through a camera on
// its parallax origin and compares the picture with testdata/forest.png. The frame is
// drawn on the CPU from the recorded textures by drawPass, nearest texel,
// so the test checks what extraction wrote (regions, placement, flips,
// parallax, layer order), not a GPU.
func TestMapGolden(t *testing.T) {
	tm, lib, rec := loadedMap(t, "tiled/forest/forest.tmx")
	a := newApp(t, ecs.Options{Assets: lib})
	ecs.AddTileMaps(a)
	spawnMap(t, a, tm, ecs.MapOptions{})
	// A camera on the map's parallax origin, where Tiled lines every
	// layer up: its view maps world units to pixels one to one.
	cam := a.World().Commands().Spawn()
	ecs.With(cam, ecs.At(320, 128))
	ecs.With(cam, ecs.Camera{Anchor: geom.V(0.5, 0.5), Viewport: geom.R(0, 0, 640, 256)})
	a.World().Apply()
	tk := tick(1, 0)
	tk.Window = input.Window{Size: input.Size{Width: 640, Height: 256}, Framebuffer: input.Size{Width: 640, Height: 256}}
	if err := a.Update(tk); err != nil {
		t.Fatal(err)
	}
	f := prepareWith(t, a, rec)
	got := drawPass(t, rec, &f.Passes[0], 640, 256)
	const golden = "testdata/forest.png"
	if *updateMap {
		out, err := os.Create(golden)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		if err := png.Encode(out, got); err != nil {
			t.Fatal(err)
		}
		return
	}
	in, err := os.Open(golden)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	want, err := png.Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	// Texel-exact but for rounding at quad edges: at most 0.2% of the
	// pixels may differ (another machine may round a product differently).
	bad := 0
	for y := range 256 {
		for x := range 640 {
			r1, g1, b1, a1 := got.At(x, y).RGBA()
			r2, g2, b2, a2 := want.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				bad++
			}
		}
	}
	if bad > 640*256/500 {
		t.Errorf("%d pixels differ from %s (run with -update-map to rewrite it after checking the picture)", bad, golden)
	}
}

// drawPass draws a pass of textured quads seen through a camera whose
// view maps world units to pixels one to one from the top-left into a w x h image,
// sampling each pixel's centre, nearest texel, source-over.
func drawPass(t *testing.T, rec *rendertest.Recorder, pass *render2d.Pass, w, h int) *image.RGBA {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range pass.Packets {
		p := &pass.Packets[i]
		if p.IsShape() || p.Texture.IsZero() {
			continue
		}
		tex, err := rec.Texels(p.Texture)
		if err != nil {
			t.Fatal(err)
		}
		tr := p.Transform
		sin, cos := math.Sincos(-float64(tr.Rotation))
		for y := range h {
			for x := range w {
				// Back from the world to the quad's own units.
				dx, dy := float64(x)+0.5-float64(tr.Position.X), float64(y)+0.5-float64(tr.Position.Y)
				lx := (dx*cos-dy*sin)/float64(tr.Scale.X) + float64(tr.Origin.X)
				ly := (dx*sin+dy*cos)/float64(tr.Scale.Y) + float64(tr.Origin.Y)
				if lx < 0 || ly < 0 || lx >= float64(p.Size.X) || ly >= float64(p.Size.Y) {
					continue
				}
				tx := int(float64(p.Source.X) + lx*float64(p.Source.W)/float64(p.Size.X))
				ty := int(float64(p.Source.Y) + ly*float64(p.Source.H)/float64(p.Size.Y))
				s := tex.RGBAAt(tx, ty) // premultiplied
				k := float64(p.Tint.A)
				sr, sg, sb, sa := float64(s.R)*float64(p.Tint.R)*k, float64(s.G)*float64(p.Tint.G)*k, float64(s.B)*float64(p.Tint.B)*k, float64(s.A)*k
				d := img.RGBAAt(x, y)
				inv := 1 - sa/255
				img.SetRGBA(x, y, color.RGBA{
					uint8(sr + float64(d.R)*inv + 0.5), uint8(sg + float64(d.G)*inv + 0.5),
					uint8(sb + float64(d.B)*inv + 0.5), uint8(sa + float64(d.A)*inv + 0.5),
				})
			}
		}
	}
	return img
}
