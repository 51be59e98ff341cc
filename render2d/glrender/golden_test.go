//go:build !js

package glrender_test

import (
	"flag"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender"
	"github.com/metronome-go/metronome/render2d/glrender/gltest"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// quadrants returns an 8x8 image with red, green, blue and white quadrants
// (clockwise from the top-left), so a flip or rotation shows in the output.
func quadrants() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	cs := [4]color.RGBA{{255, 0, 0, 255}, {0, 255, 0, 255}, {255, 255, 255, 255}, {0, 0, 255, 255}}
	for y := 0; y < 8; y++ {
		for x := 0; x < 8; x++ {
			q := 0
			switch {
			case x >= 4 && y < 4:
				q = 1
			case x >= 4 && y >= 4:
				q = 2
			case x < 4 && y >= 4:
				q = 3
			}
			img.SetRGBA(x, y, cs[q])
		}
	}
	return img
}

// disc returns a size x size image of a white disc with soft, premultiplied
// alpha edges.
func disc(size int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	c := float64(size) / 2
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			d := math.Hypot(float64(x)+0.5-c, float64(y)+0.5-c)
			a := uint8(255 * math.Max(0, math.Min(1, c-d)))
			img.SetRGBA(x, y, color.RGBA{a, a, a, a})
		}
	}
	return img
}

type scene struct {
	name  string
	build func(t *testing.T, r *glrender.Renderer) *render2d.Frame
}

func sprite(tex render2d.TextureHandle, x, y, w, h float32) render2d.DrawPacket2D {
	return render2d.Sprite(tex, geom.Rect{}, geom.Vec2{X: x, Y: y}, geom.Vec2{X: w, Y: h})
}

func solidQuad(x, y, w, h float32, c render2d.Color) render2d.DrawPacket2D {
	p := sprite(render2d.TextureHandle{}, x, y, w, h)
	p.Tint = c
	return p
}

func mustTexture(t *testing.T, r *glrender.Renderer, img *image.RGBA, opts render2d.TextureOptions) render2d.TextureHandle {
	t.Helper()
	h, err := r.CreateTexture(img, opts)
	if err != nil {
		t.Fatalf("CreateTexture: %v", err)
	}
	return h
}

var grey = render2d.Color{R: 0.2, G: 0.2, B: 0.25, A: 1}

func onePass(d render2d.PassDesc, ps ...render2d.DrawPacket2D) *render2d.Frame {
	return &render2d.Frame{Passes: []render2d.Pass{{PassDesc: d, Packets: ps}}}
}

var scenes = []scene{
	{"sprites", func(t *testing.T, r *glrender.Renderer) *render2d.Frame {
		q := mustTexture(t, r, quadrants(), render2d.TextureOptions{Filter: render2d.FilterNearest})
		sub := sprite(q, 72, 8, 48, 48)
		sub.Source = geom.Rect{X: 4, Y: 0, W: 4, H: 8} // right half: green over white
		return onePass(render2d.PassDesc{Clear: true, ClearColor: grey},
			sprite(q, 8, 8, 48, 48),
			sub,
			solidQuad(8, 72, 112, 16, render2d.White),
			sprite(q, 8, 96, 16, 16),
			sprite(q, 32, 96, 32, 24),
		)
	}},
	{"transform", func(t *testing.T, r *glrender.Renderer) *render2d.Frame {
		q := mustTexture(t, r, quadrants(), render2d.TextureOptions{Filter: render2d.FilterNearest})
		rot := sprite(q, 32, 32, 32, 32)
		rot.Transform.Origin = geom.Vec2{X: 16, Y: 16}
		rot.Transform.Rotation = math.Pi / 4
		scaled := sprite(q, 72, 8, 16, 16)
		scaled.Transform.Scale = geom.Vec2{X: 3, Y: 2}
		flipped := sprite(q, 40, 72, 32, 32)
		flipped.Transform.Origin = geom.Vec2{X: 16, Y: 16}
		flipped.Transform.Scale = geom.Vec2{X: -1, Y: 1}
		quarter := sprite(q, 96, 96, 24, 24)
		quarter.Transform.Rotation = math.Pi / 2 // about its top-left corner
		return onePass(render2d.PassDesc{Clear: true, ClearColor: grey}, rot, scaled, flipped, quarter)
	}},
	{"tint", func(t *testing.T, r *glrender.Renderer) *render2d.Frame {
		q := mustTexture(t, r, quadrants(), render2d.TextureOptions{Filter: render2d.FilterNearest})
		var ps []render2d.DrawPacket2D
		tints := []render2d.Color{render2d.White, {R: 1, G: 0.5, B: 0.5, A: 1}, {R: 0.5, G: 0.5, B: 1, A: 1}, {R: 1, G: 1, B: 1, A: 0.5}, {R: 0, G: 1, B: 0, A: 0.25}, render2d.Transparent}
		for i, c := range tints {
			p := sprite(q, float32(8+(i%3)*40), float32(16+(i/3)*56), 32, 32)
			p.Tint = c
			ps = append(ps, p)
		}
		return onePass(render2d.PassDesc{Clear: true, ClearColor: grey}, ps...)
	}},
	{"blend", func(t *testing.T, r *glrender.Renderer) *render2d.Frame {
		d := mustTexture(t, r, disc(32), render2d.TextureOptions{})
		ps := []render2d.DrawPacket2D{
			solidQuad(0, 0, 128, 64, render2d.Color{R: 0.8, G: 0.3, B: 0.1, A: 1}),
			solidQuad(0, 64, 128, 64, render2d.Color{R: 0.1, G: 0.3, B: 0.8, A: 1}),
		}
		for i := range render2d.BlendModeCount {
			x := float32(4 + int(i)*24)
			p := sprite(d, x, 16, 24, 24)
			p.Tint = render2d.Color{R: 0.5, G: 1, B: 0.5, A: 0.8}
			p.Blend = i
			ps = append(ps, p)
			p.Transform.Position.Y = 80
			ps = append(ps, p)
		}
		return onePass(render2d.PassDesc{Clear: true, ClearColor: grey}, ps...)
	}},
	{"camera", func(t *testing.T, r *glrender.Renderer) *render2d.Frame {
		q := mustTexture(t, r, quadrants(), render2d.TextureOptions{Filter: render2d.FilterNearest})
		cam := render2d.Camera{Position: geom.Vec2{X: 50, Y: 50}, Anchor: geom.Vec2{X: 0.5, Y: 0.5}, Zoom: 2, Rotation: math.Pi / 6}
		return onePass(render2d.PassDesc{Clear: true, ClearColor: grey, Camera: cam},
			sprite(q, 30, 30, 20, 20),
			solidQuad(50, 50, 10, 2, render2d.Color{R: 1, G: 1, B: 0, A: 1}),
			sprite(q, 55, 55, 10, 10),
		)
	}},
	{"passes", func(t *testing.T, r *glrender.Renderer) *render2d.Frame {
		q := mustTexture(t, r, quadrants(), render2d.TextureOptions{Filter: render2d.FilterNearest})
		left := render2d.PassDesc{Clear: true, ClearColor: render2d.Color{R: 0.1, G: 0.1, B: 0.3, A: 1}, Camera: render2d.Camera{Viewport: geom.Rect{W: 64, H: 128}}}
		right := render2d.PassDesc{Clear: true, ClearColor: render2d.Color{R: 0.3, G: 0.1, B: 0.1, A: 1}, Camera: render2d.Camera{Viewport: geom.Rect{X: 64, Y: 32, W: 64, H: 64}, Zoom: 0.5}}
		overlay := render2d.PassDesc{}
		// The window outside the two viewports is the frame's own clear:
		// a new window's content is undefined (the renderer's warm-up
		// clears it).
		return &render2d.Frame{Clear: true, ClearColor: grey, Passes: []render2d.Pass{
			{PassDesc: left, Packets: []render2d.DrawPacket2D{sprite(q, 8, 8, 48, 48), sprite(q, 40, 100, 48, 48)}},
			{PassDesc: right, Packets: []render2d.DrawPacket2D{sprite(q, 8, 8, 48, 48)}},
			{PassDesc: overlay, Packets: []render2d.DrawPacket2D{solidQuad(0, 60, 128, 8, render2d.Color{R: 1, G: 1, B: 1, A: 0.5})}},
		}}
	}},
	{"offscreen", func(t *testing.T, r *glrender.Renderer) *render2d.Frame {
		q := mustTexture(t, r, quadrants(), render2d.TextureOptions{Filter: render2d.FilterNearest})
		target, tex, err := r.CreateRenderTarget(32, 32, render2d.TextureOptions{Filter: render2d.FilterNearest})
		if err != nil {
			t.Fatalf("CreateRenderTarget: %v", err)
		}
		small := sprite(q, 0, 0, 16, 16)
		bar := solidQuad(0, 24, 32, 8, render2d.Color{R: 1, G: 1, B: 0, A: 1})
		big := sprite(tex, 8, 8, 64, 64)
		turned := sprite(tex, 96, 96, 48, 48)
		turned.Transform.Origin = geom.Vec2{X: 16, Y: 16}
		turned.Transform.Rotation = math.Pi / 8
		return &render2d.Frame{Passes: []render2d.Pass{
			{PassDesc: render2d.PassDesc{Target: target, Clear: true, ClearColor: render2d.Color{R: 0, G: 0.5, B: 0.5, A: 1}}, Packets: []render2d.DrawPacket2D{small, bar}},
			{PassDesc: render2d.PassDesc{Clear: true, ClearColor: grey}, Packets: []render2d.DrawPacket2D{big, turned}},
		}}
	}},
	{"material", func(t *testing.T, r *glrender.Renderer) *render2d.Frame {
		q := mustTexture(t, r, quadrants(), render2d.TextureOptions{Filter: render2d.FilterNearest})
		// Stripes whose count comes from the packet and whose colour mix
		// comes from the pass.
		m, err := r.CreateMaterial(render2d.MaterialDesc{Name: "stripes", Shade: `
	float s = step(0.5, fract(uv.x * params.x));
	vec3 c = mix(texel.rgb, pass0.rgb, s * pass0.a);
	return vec4(c, 1.0) * texel.a * tint.a;`})
		if err != nil {
			t.Fatalf("CreateMaterial: %v", err)
		}
		a := sprite(q, 8, 8, 112, 48)
		a.Material = m
		a.Params = [4]float32{4}
		b := sprite(q, 8, 72, 112, 48)
		b.Material = m
		b.Params = [4]float32{10}
		d := render2d.PassDesc{Clear: true, ClearColor: grey}
		d.Params = [8]float32{1, 1, 0, 0.75}
		return onePass(d, a, b)
	}},
	{"letterbox", func(t *testing.T, r *glrender.Renderer) *render2d.Frame {
		// A 40x30 logical screen integer-scaled into the 128x128 window:
		// factor 3, a 120x90 viewport with bars of 4 pixels left and right
		// and 19 above and below in the screen's clear colour. The world is
		// drawn in logical units; a quad reaching past the logical screen
		// is cut at its edge, and a second camera shows a corner of it.
		q := mustTexture(t, r, quadrants(), render2d.TextureOptions{Filter: render2d.FilterNearest})
		s := render2d.Screen{Width: 40, Height: 30, Scaling: render2d.ScaleInteger, ClearColor: render2d.Color{R: 0.5, G: 0.1, B: 0.6, A: 1}}
		w, h := gltest.FramebufferSize()
		l := s.Layout(w, h, w, h)
		world := render2d.Camera{Viewport: l.Place(geom.Rect{}), Size: l.Size}
		turned := sprite(q, 20, 15, 8, 8)
		turned.Transform.Origin = geom.Vec2{X: 4, Y: 4}
		turned.Transform.Rotation = math.Pi / 6
		inset := render2d.Camera{Viewport: l.Place(geom.Rect{X: 28, Y: 2, W: 10, H: 8}), Size: geom.Vec2{X: 10, Y: 8}, Position: geom.Vec2{X: 2, Y: 2}, Zoom: 0.5}
		return &render2d.Frame{Clear: true, ClearColor: s.ClearColor, Passes: []render2d.Pass{
			{PassDesc: render2d.PassDesc{Camera: world, Clear: true, ClearColor: grey}, Packets: []render2d.DrawPacket2D{
				sprite(q, 2, 2, 12, 12),
				turned,
				solidQuad(34, 24, 12, 12, render2d.Color{R: 1, G: 1, B: 0, A: 1}),
			}},
			{PassDesc: render2d.PassDesc{Camera: inset, Clear: true, ClearColor: render2d.Color{R: 0.1, G: 0.3, B: 0.1, A: 1}}, Packets: []render2d.DrawPacket2D{
				sprite(q, 2, 2, 12, 12),
			}},
		}}
	}},
}

// interpScene is drawn at alpha 0.5: every placement halfway.
var interpScene = scene{"interp", func(t *testing.T, r *glrender.Renderer) *render2d.Frame {
	q := mustTexture(t, r, quadrants(), render2d.TextureOptions{Filter: render2d.FilterNearest})
	moved := func(p render2d.DrawPacket2D, from geom.Vec2) render2d.DrawPacket2D {
		p.Prev = p.Placement()
		p.Prev.Position = from
		return p
	}
	var ps []render2d.DrawPacket2D
	for i := range 4 { // from x 8, sliding right by 16, 32, 48 and 64: shown 8 to 32 along
		p := sprite(q, float32(8+16*(i+1)), float32(4+14*i), 12, 12)
		ps = append(ps, moved(p, geom.Vec2{X: 8, Y: p.Transform.Position.Y}))
	}
	// Turning a quarter and growing from 1 to 2 about its centre: shown
	// an eighth turned at 1.5.
	spin := sprite(q, 96, 32, 16, 16)
	spin.Transform.Origin = geom.Vec2{X: 8, Y: 8}
	spin.Prev = spin.Placement()
	spin.Transform.Rotation, spin.Transform.Scale = math.Pi/2, geom.Vec2{X: 2, Y: 2}
	// From a little left of upright to a little right, the short way:
	// shown upright, not half a turn round.
	short := sprite(q, 96, 80, 16, 16)
	short.Transform.Origin = geom.Vec2{X: 8, Y: 8}
	short.Transform.Rotation = 2*math.Pi - 0.3
	short.Prev = short.Placement()
	short.Prev.Rotation = 0.3
	// Fading in from transparent white to red, stretching in x.
	fade := solidQuad(8, 100, 16, 16, render2d.Color{R: 1, A: 1})
	fade.Prev = fade.Placement()
	fade.Prev.Tint = render2d.Color{R: 1, G: 1, B: 1}
	fade.Transform.Scale = geom.Vec2{X: 3, Y: 1}
	still := sprite(q, 100, 108, 16, 16) // no Prev: where it is at every alpha
	// The row alone in its batch only slides; the fade between keeps the
	// batches apart.
	ps = append(ps, fade, spin, short, still)
	f := onePass(render2d.PassDesc{Clear: true, ClearColor: grey,
		PrevCamera: render2d.CameraPlacement{Position: geom.Vec2{X: 8, Y: -8}, Set: true}}, ps...)
	f.Present.Alpha = 0.5
	return f
}}

// drawPaths are the renderer's draw paths: each must draw every scene as
// the golden image shows it.
var drawPaths = []glrender.DrawPath{glrender.DrawInstanced, glrender.DrawBatched}

// rendererOn returns gltest's renderer drawing by path.
func rendererOn(t testing.TB, path glrender.DrawPath) *glrender.Renderer {
	t.Helper()
	r := gltest.Renderer(t)
	if err := r.SetDrawPath(path); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestGolden(t *testing.T) {
	for _, path := range drawPaths {
		for _, sc := range append(scenes[:len(scenes):len(scenes)], interpScene) {
			t.Run(path.String()+"/"+sc.name, func(t *testing.T) {
				r := rendererOn(t, path)
				// The golden images are the instanced path's; the other
				// path only compares with them.
				renderGolden(t, r, sc.build(t, r), sc.name, *update && path == glrender.DrawInstanced)
			})
		}
	}
}

// renderGolden renders f and compares the window with the golden image
// name (or rewrites it). A pixel matches when every channel is within 3
// of the golden one; at most 0.5% of pixels (rasterisation differences at
// edges between drivers) may differ.
func renderGolden(t *testing.T, r *glrender.Renderer, f *render2d.Frame, name string, update bool) {
	t.Helper()
	if err := r.Render(f); err != nil {
		t.Fatalf("Render: %v", err)
	}
	w, h := gltest.FramebufferSize()
	got, err := r.ReadPixels(render2d.TargetHandle{}, image.Rect(0, 0, w, h))
	if err != nil {
		t.Fatalf("ReadPixels: %v", err)
	}
	gltest.CompareGolden(t, "testdata", name, got, update, 3, 0.005)
}

// displaced returns a placement clearly different from pl.
func displaced(pl render2d.Placement) render2d.Placement {
	pl.Position.X += 17
	pl.Position.Y -= 9
	pl.Rotation += 1
	pl.Scale = geom.Vec2{X: pl.Scale.X * 0.5, Y: pl.Scale.Y * 1.5}
	pl.Tint = render2d.Color{R: 1 - pl.Tint.R, G: 1 - pl.Tint.G, B: pl.Tint.B, A: 1 - pl.Tint.A/2}
	return pl
}

func place(p *render2d.DrawPacket2D, pl render2d.Placement) {
	p.Transform.Position, p.Transform.Rotation, p.Transform.Scale, p.Tint = pl.Position, pl.Rotation, pl.Scale, pl.Tint
}

// TestGoldenInterpolationEnds draws every still scene with previous
// placements added to all its packets and cameras, at the alpha that must
// show the scene as it was: at alpha 1 with the previous placements
// elsewhere, at alpha 0 with the scene moved into the previous placements
// and the current ones elsewhere (the interpolating shaders at their far
// end), and at alpha 0.37 with both the same. Each must match the scene's
// golden image.
func TestGoldenInterpolationEnds(t *testing.T) {
	variants := []struct {
		name  string
		alpha float32
		edit  func(p *render2d.DrawPacket2D)
	}{
		{"current", 1, func(p *render2d.DrawPacket2D) { p.Prev = displaced(p.Placement()) }},
		{"previous", 0, func(p *render2d.DrawPacket2D) { p.Prev = p.Placement(); place(p, displaced(p.Prev)) }},
		{"same", 0.37, func(p *render2d.DrawPacket2D) { p.Prev = p.Placement() }},
	}
	for _, path := range drawPaths {
		for _, sc := range scenes {
			for _, v := range variants {
				t.Run(path.String()+"/"+sc.name+"/"+v.name, func(t *testing.T) {
					r := rendererOn(t, path)
					f := sc.build(t, r)
					for i := range f.Passes {
						ps := &f.Passes[i]
						c := ps.Camera
						pc := render2d.CameraPlacement{Position: c.Position, Zoom: c.Zoom, Rotation: c.Rotation, Set: true}
						switch v.alpha {
						case 1:
							pc.Position.X += 13
							pc.Zoom = c.EffectiveZoom() * 2
						case 0:
							ps.Camera.Position.Y -= 11
							ps.Camera.Rotation += 0.5
						}
						ps.PrevCamera = pc
						for j := range ps.Packets {
							v.edit(&ps.Packets[j])
						}
					}
					f.Present.Alpha = v.alpha
					renderGolden(t, r, f, sc.name, false)
				})
			}
		}
	}
}
