package tilemap_test

import (
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/ecs/tilemap"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// TestMapGolden draws a map Tiled 1.8.2 wrote from our own content
// (tiled/testdata/tiled/scene.tmx: tiles flipped every way, an animated
// tile, a half-transparent layer with an offset, an image layer, tile
// objects of an image collection, one flipped and scaled) through a camera
// on its parallax origin, where Tiled lines every layer up, and compares
// the picture with the one Tiled's own tmxrasterizer drew of it
// (tiled/testdata/tiled/scene.png; testdata/README says how). The frame is
// drawn on the CPU from the recorded textures by drawPass, nearest texel,
// so the test checks what extraction wrote (regions, placement, flips,
// opacity, layer order), not a GPU.
func TestMapGolden(t *testing.T) {
	tm, lib, rec := loadedMap(t, "tiled/scene.tmx")
	a := newApp(t, ecs.Options{Assets: lib})
	ecs.AddTileMaps(a)
	spawnMap(t, a, tm, tilemap.Options{})
	// The map is 160x96; its parallax origin is its middle, so a 160x96
	// view centred there shows it from its top-left one to one.
	const w, h = 160, 96
	cam := a.World().Commands().Spawn()
	ecs.With(cam, ecs.At(80, 48))
	ecs.With(cam, ecs.Camera{Anchor: geom.V(0.5, 0.5), Viewport: geom.R(0, 0, w, h)})
	a.World().Apply()
	tk := tick(1, 0)
	tk.Window = input.Window{Size: input.Size{Width: w, Height: h}, Framebuffer: input.Size{Width: w, Height: h}}
	if err := a.Update(tk); err != nil {
		t.Fatal(err)
	}
	f := prepareWith(t, a, rec)
	got := drawPass(t, rec, &f.Passes[0], w, h)
	const golden = "../../tiled/testdata/tiled/scene.png"
	in, err := os.Open(golden)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	want, err := png.Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	// tmxrasterizer's picture is larger than the map by the layers'
	// offsets (right and bottom here); the map is its top-left w x h.
	if b := want.Bounds(); b.Min != (image.Point{}) || b.Dx() < w || b.Dy() < h {
		t.Fatalf("%s is %v, want at least %dx%d from the origin", golden, b, w, h)
	}
	// Qt turns the deco layer's 0.5 opacity into 8-bit alpha 127 where
	// we round to 128, and blends in 8-bit premultiplied ARGB where we use
	// float64: a channel of a half-transparent pixel may be one step
	// apart (256 pixels are, all in deco). More than that, anywhere, is a
	// wrong texel, flip or placement.
	const tolerance = 1
	bad := 0
	for y := range h {
		for x := range w {
			g := color.NRGBAModel.Convert(got.At(x, y)).(color.NRGBA)
			wt := color.NRGBAModel.Convert(want.At(x, y)).(color.NRGBA)
			if g.A == 0 && wt.A == 0 {
				continue
			}
			if absDiff(g.R, wt.R) > tolerance || absDiff(g.G, wt.G) > tolerance || absDiff(g.B, wt.B) > tolerance || absDiff(g.A, wt.A) > tolerance {
				if bad < 10 {
					t.Errorf("pixel (%d, %d) = %v, tmxrasterizer drew %v", x, y, g, wt)
				}
				bad++
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d pixels differ from %s by more than %d", bad, w*h, golden, tolerance)
	}
}

func absDiff(a, b uint8) uint8 {
	if a > b {
		return a - b
	}
	return b - a
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
