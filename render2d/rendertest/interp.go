package rendertest

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/timing"
)

// movingFrame is the scene of the interpolation test, in a 32x32
// framebuffer: a camera that pans and zooms, a quad that moves and fades
// from blue to red, a bar that grows and turns a quarter turn the short way
// (its target angle is written as three quarters the other way), a quad
// that only slides (drawn additively, so that it is a batch of its own, on
// black), a still quad without a previous placement, and a bar whose
// heading wraps across ±π.
func movingFrame() *render2d.Frame {
	mover := render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{X: 12, Y: 2}, geom.Vec2{X: 4, Y: 4})
	mover.Tint = render2d.Color{R: 1, A: 1}
	mover.Prev = render2d.Placement{Position: geom.Vec2{X: 2, Y: 2}, Scale: geom.Vec2{X: 1, Y: 1}, Tint: render2d.Color{B: 1, A: 1}, Set: true}
	bar := render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{X: 4, Y: 20}, geom.Vec2{X: 8, Y: 3})
	bar.Tint = render2d.Color{R: 1, G: 1, A: 1}
	bar.Transform.Origin = geom.Vec2{Y: 1.5}
	bar.Transform.Rotation = 3 * math.Pi / 2 // the same as -π/2: up, a quarter turn from the previous angle
	bar.Transform.Scale = geom.Vec2{X: 1.5, Y: 1}
	bar.Prev = render2d.Placement{Position: bar.Transform.Position, Scale: geom.Vec2{X: 1, Y: 1}, Tint: bar.Tint, Set: true}
	slider := render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{X: 14, Y: 14}, geom.Vec2{X: 3, Y: 3})
	slider.Tint = render2d.Color{R: 1, B: 1, A: 1}
	slider.Blend = render2d.BlendAdditive
	slider.Prev = slider.Placement()
	slider.Prev.Position = geom.Vec2{X: 20, Y: 12}
	still := render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{X: 20, Y: 6}, geom.Vec2{X: 3, Y: 3})
	still.Tint = render2d.Color{G: 1, A: 1}
	// A heading kept in (-π, π] that wraps: from a little below pointing
	// left (π-0.2) to a little above (-π+0.2), the short way through π,
	// never half a turn round through 0.
	heading := render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{X: 24, Y: 20}, geom.Vec2{X: 6, Y: 2})
	heading.Tint = render2d.Color{G: 1, B: 1, A: 1}
	heading.Transform.Origin = geom.Vec2{Y: 1}
	heading.Transform.Rotation = -math.Pi + 0.2
	heading.Prev = heading.Placement()
	heading.Prev.Rotation = math.Pi - 0.2
	desc := render2d.PassDesc{
		Clear: true, ClearColor: render2d.Black,
		Camera:     render2d.Camera{Zoom: 1.25},
		PrevCamera: render2d.CameraPlacement{Position: geom.Vec2{X: -4, Y: -2}, Set: true},
	}
	return &render2d.Frame{Passes: []render2d.Pass{{PassDesc: desc, Packets: []render2d.DrawPacket2D{mover, bar, slider, still, heading}}}}
}

// probe is a point of a packet in its own unit square ({0.5, 0.5}: the
// centre), where the test expects the packet's colour.
type probe struct {
	packet int
	at     geom.Vec2
}

var movingProbes = []probe{{0, geom.Vec2{X: 0.5, Y: 0.5}}, {1, geom.Vec2{X: 0.3, Y: 0.5}}, {1, geom.Vec2{X: 0.8, Y: 0.5}}, {2, geom.Vec2{X: 0.5, Y: 0.5}}, {3, geom.Vec2{X: 0.5, Y: 0.5}},
	{4, geom.Vec2{X: 0.8, Y: 0.5}}}

// screenPoint maps a point of packet p (resolved) in its unit square to
// target pixels through camera c (viewport at the origin, anchor zero).
func screenPoint(c render2d.Camera, p render2d.DrawPacket2D, u geom.Vec2) (float64, float64) {
	t := p.Transform
	lx := float64((u.X*p.Size.X - t.Origin.X) * t.Scale.X)
	ly := float64((u.Y*p.Size.Y - t.Origin.Y) * t.Scale.Y)
	s, co := math.Sincos(float64(t.Rotation))
	wx := float64(t.Position.X) + lx*co - ly*s
	wy := float64(t.Position.Y) + lx*s + ly*co
	z := float64(c.EffectiveZoom())
	s, co = math.Sincos(-float64(c.Rotation))
	dx, dy := wx-float64(c.Position.X), wy-float64(c.Position.Y)
	return z * (dx*co - dy*s), z * (dx*s + dy*co)
}

func testInterpolation(t *testing.T, r render2d.Renderer) {
	rec, recording := r.(*Recorder)
	alphas := []float32{0, 0.25, 0.5, 1}
	for i, alpha := range alphas {
		f := movingFrame()
		f.Present = render2d.Presentation{At: timing.Instant(1000 * (i + 1)), Alpha: alpha}
		if err := r.Render(f); err != nil {
			t.Fatalf("alpha %v: Render: %v", alpha, err)
		}
		want := f.Resolved()
		cam := want.Passes[0].Camera
		if recording {
			checkRecorded(t, rec, f, &want)
			continue
		}
		img, err := r.ReadPixels(render2d.TargetHandle{}, image.Rect(0, 0, 32, 32))
		if err != nil {
			t.Fatalf("alpha %v: ReadPixels: %v", alpha, err)
		}
		for _, pr := range movingProbes {
			p := want.Passes[0].Packets[pr.packet]
			x, y := screenPoint(cam, p, pr.at)
			if got, w := img.RGBAAt(int(x), int(y)), premultiplied(p.Tint); !near(got, w) {
				t.Errorf("alpha %v: packet %d at %v of its quad, pixel (%.1f, %.1f) = %v, want its resolved tint %v", alpha, pr.packet, pr.at, x, y, got, w)
			}
		}
		// Where the mover is at the other end of its motion must be clear.
		other := movingFrame()
		other.Present.Alpha = 1
		if alpha >= 0.5 {
			other.Present.Alpha = 0
		}
		o := other.Resolved()
		x, y := screenPoint(o.Passes[0].Camera, o.Passes[0].Packets[0], geom.Vec2{X: 0.5, Y: 0.5})
		if got := img.RGBAAt(int(x), int(y)); !near(got, color.RGBA{0, 0, 0, 255}) {
			t.Errorf("alpha %v: pixel (%.1f, %.1f), where the moving quad is at alpha %v, = %v, want the clear colour", alpha, x, y, other.Present.Alpha, got)
		}
	}
	for _, tt := range []struct {
		name string
		edit func(*render2d.Frame)
	}{
		{"alpha above 1", func(f *render2d.Frame) { f.Present.Alpha = 1.5 }},
		{"alpha below 0", func(f *render2d.Frame) { f.Present.Alpha = -0.1 }},
		{"alpha NaN", func(f *render2d.Frame) { f.Present.Alpha = float32(math.NaN()) }},
		{"previous zoom", func(f *render2d.Frame) { f.Passes[0].PrevCamera.Zoom = -2 }},
	} {
		f := movingFrame()
		tt.edit(f)
		if err := r.Render(f); err == nil {
			t.Errorf("%s: Render succeeded, want an error", tt.name)
		}
	}
}

// checkRecorded checks what the recording renderer kept of the frame just
// rendered: the present and, through ShownAt, the placements resolved by
// render2d's functions.
func checkRecorded(t *testing.T, rec *Recorder, f *render2d.Frame, want *render2d.Frame) {
	t.Helper()
	last := &rec.Frames[len(rec.Frames)-1]
	if last.Present != f.Present {
		t.Errorf("recorded present %+v, want %+v", last.Present, f.Present)
	}
	got, ok := rec.ShownAt(f.Present.At)
	if !ok {
		t.Fatalf("ShownAt(%v) found no frame", f.Present.At)
	}
	if g, w := got.Passes[0].Camera, want.Passes[0].Camera; g != w {
		t.Errorf("alpha %v: shown camera %+v, want %+v", f.Present.Alpha, g, w)
	}
	for i, w := range want.Passes[0].Packets {
		if g := got.Passes[0].Packets[i]; g != w {
			t.Errorf("alpha %v: shown packet %d = %+v, want %+v", f.Present.Alpha, i, g, w)
		}
	}
	if before, ok := rec.ShownAt(f.Present.At - 1); ok && before.Present == f.Present {
		t.Errorf("ShownAt(%v) returned the frame presented at %v", f.Present.At-1, f.Present.At)
	}
}
