package rendertest

import (
	"fmt"
	"image"
	"image/color"
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// testFrameClear checks the frame's clear: the whole window before the
// passes (a pass's own clear wins inside its viewport), never an offscreen
// target, and nothing when the frame does not ask.
func testFrameClear(t *testing.T, r render2d.Renderer) {
	target, _, err := r.CreateRenderTarget(8, 8, render2d.TextureOptions{})
	if err != nil {
		t.Fatalf("CreateRenderTarget: %v", err)
	}
	bar := render2d.Color{R: 0.5, G: 0.25, B: 0, A: 1}
	f := &render2d.Frame{Clear: true, ClearColor: bar, Passes: []render2d.Pass{
		{PassDesc: render2d.PassDesc{Target: target, Clear: true, ClearColor: render2d.Color{G: 1, A: 1}}},
		{PassDesc: render2d.PassDesc{Clear: true, ClearColor: render2d.Color{B: 1, A: 1}, Camera: render2d.Camera{Viewport: geom.Rect{X: 8, Y: 8, W: 8, H: 8}}}},
	}}
	if err := r.Render(f); err != nil {
		t.Fatalf("Render: %v", err)
	}
	barPx := color.RGBA{128, 64, 0, 255}
	checkPixels(t, r, "after a frame clear", []pixel{
		{"window corner", render2d.TargetHandle{}, image.Pt(0, 0), barPx},
		{"window, right of the viewport", render2d.TargetHandle{}, image.Pt(20, 10), barPx},
		{"window, below the viewport", render2d.TargetHandle{}, image.Pt(10, 20), barPx},
		{"window, last pixel", render2d.TargetHandle{}, image.Pt(31, 31), barPx},
		{"the pass's viewport", render2d.TargetHandle{}, image.Pt(10, 10), color.RGBA{0, 0, 255, 255}},
		{"the offscreen target", target, image.Pt(3, 3), color.RGBA{0, 255, 0, 255}},
	})
	// Without Clear the window keeps what it had (no present in between).
	if err := r.Render(&render2d.Frame{ClearColor: render2d.White}); err != nil {
		t.Fatalf("Render without a clear: %v", err)
	}
	checkPixels(t, r, "after a frame without a clear", []pixel{{"window corner", render2d.TargetHandle{}, image.Pt(0, 0), barPx}})
	// A frame of no passes still clears, premultiplied.
	if err := r.Render(&render2d.Frame{Clear: true, ClearColor: render2d.Color{R: 1, G: 1, B: 1, A: 0.5}}); err != nil {
		t.Fatalf("Render of a clear alone: %v", err)
	}
	checkPixels(t, r, "after a clear alone", []pixel{{"window centre", render2d.TargetHandle{}, image.Pt(16, 16), color.RGBA{128, 128, 128, 128}}})
}

type pixel struct {
	name   string
	target render2d.TargetHandle
	at     image.Point
	want   color.RGBA
}

func checkPixels(t *testing.T, r render2d.Renderer, when string, ps []pixel) {
	t.Helper()
	for _, p := range ps {
		img, err := r.ReadPixels(p.target, image.Rectangle{Min: p.at, Max: p.at.Add(image.Pt(1, 1))})
		if err != nil {
			t.Errorf("%s: %s: ReadPixels: %v", when, p.name, err)
			continue
		}
		if got := img.RGBAAt(0, 0); !near(got, p.want) {
			t.Errorf("%s: %s: pixel at %v = %v, want %v", when, p.name, p.at, got, p.want)
		}
	}
}

// mappingCameras are cameras of every kind, each with a viewport inside a
// 32x32 corner of the framebuffer, with the number of framebuffer pixels per world unit along x and y.
var mappingCameras = []struct {
	name   string
	cam    render2d.Camera
	sx, sy float32
}{
	{"turned and zoomed about the centre", render2d.Camera{Position: geom.Vec2{X: 10, Y: 10}, Anchor: geom.Vec2{X: 0.5, Y: 0.5}, Zoom: 2, Rotation: 0.7, Viewport: geom.Rect{W: 32, H: 32}}, 2, 2},
	{"logical size in an offset viewport, turned", render2d.Camera{Viewport: geom.Rect{X: 4, Y: 8, W: 24, H: 16}, Size: geom.Vec2{X: 12, Y: 8}, Anchor: geom.Vec2{X: 0.25, Y: 0.5}, Rotation: -0.4}, 2, 2},
	{"stretched unevenly", render2d.Camera{Viewport: geom.Rect{W: 32, H: 16}, Size: geom.Vec2{X: 16, Y: 16}, Position: geom.Vec2{X: 2, Y: 1}, Anchor: geom.Vec2{X: 0.5, Y: 0.5}}, 2, 1},
}

// testCameraMapping draws a small quad about a world point through each
// camera and reads back the pixel [render2d.Camera.WorldToTarget] gives for
// it (it must be the quad's colour) and one a few quads away (the clear
// colour). The recorder, which does not rasterise, must keep the camera
// and the frame's clear as given.
func testCameraMapping(t *testing.T, r render2d.Renderer) {
	rec, recording := r.(*Recorder)
	red := render2d.Color{R: 1, A: 1}
	for _, tt := range mappingCameras {
		c := tt.cam
		for _, at := range []geom.Vec2{c.Position, {X: c.Position.X + 2, Y: c.Position.Y - 1.5}} {
			// A quad about 4 pixels across wherever it lands.
			size := geom.Vec2{X: 4 / tt.sx, Y: 4 / tt.sy}
			q := render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, at, size)
			q.Transform.Origin = geom.Vec2{X: size.X / 2, Y: size.Y / 2}
			q.Tint = red
			f := &render2d.Frame{Clear: true, ClearColor: render2d.Black, Passes: []render2d.Pass{{PassDesc: render2d.PassDesc{Camera: c}, Packets: []render2d.DrawPacket2D{q}}}}
			if err := r.Render(f); err != nil {
				t.Fatalf("%s: Render: %v", tt.name, err)
			}
			if recording {
				got := rec.Frames[len(rec.Frames)-1]
				if got.Passes[0].Camera != c || !got.Clear || got.ClearColor != render2d.Black {
					t.Errorf("%s: recorded camera %+v, clear %v %v; want %+v, true, black", tt.name, got.Passes[0].Camera, got.Clear, got.ClearColor, c)
				}
				continue
			}
			p := c.WorldToTarget(at, 32, 32)
			ps := []pixel{{fmt.Sprintf("world point %v", at), render2d.TargetHandle{}, image.Pt(int(p.X), int(p.Y)), color.RGBA{255, 0, 0, 255}}}
			// A quad and a half away diagonally, on the framebuffer.
			for _, d := range [4]geom.Vec2{{X: 1, Y: 1}, {X: -1, Y: 1}, {X: 1, Y: -1}, {X: -1, Y: -1}} {
				a := c.WorldToTarget(geom.Vec2{X: at.X + 1.5*d.X*size.X, Y: at.Y + 1.5*d.Y*size.Y}, 32, 32)
				if a.X >= 0 && a.X < 32 && a.Y >= 0 && a.Y < 32 {
					ps = append(ps, pixel{fmt.Sprintf("next to world point %v", at), render2d.TargetHandle{}, image.Pt(int(a.X), int(a.Y)), color.RGBA{0, 0, 0, 255}})
					break
				}
			}
			if len(ps) != 2 {
				t.Fatalf("%s: no point next to %v on the framebuffer: the test's cameras are wrong", tt.name, at)
			}
			checkPixels(t, r, tt.name, ps)
		}
	}
}
