package render2d_test

import (
	"math"
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

func TestCameraWorldToTarget(t *testing.T) {
	centred := render2d.Camera{Position: v(50, 50), Anchor: v(0.5, 0.5)}
	tests := []struct {
		name   string
		cam    render2d.Camera
		world  geom.Vec2
		target geom.Vec2
	}{
		{"zero camera: world units are pixels", render2d.Camera{}, v(12, 34), v(12, 34)},
		{"position at the anchor", centred, v(50, 50), v(64, 64)},
		{"zoom 2 about the anchor", func() render2d.Camera { c := centred; c.Zoom = 2; return c }(), v(51, 49), v(66, 62)},
		// A positive rotation turns the world counter-clockwise on
		// screen: a point right of the camera appears above it.
		{"a quarter turn", func() render2d.Camera { c := centred; c.Rotation = math.Pi / 2; return c }(), v(60, 50), v(64, 54)},
		{"viewport", render2d.Camera{Viewport: r(100, 20, 28, 40)}, v(3, 4), v(103, 24)},
		{"logical size stretched over the viewport", render2d.Camera{Viewport: r(160, 0, 1280, 720), Size: v(320, 180)}, v(10, 20), v(200, 80)},
		{"stretched unevenly", render2d.Camera{Viewport: r(0, 0, 640, 720), Size: v(320, 180)}, v(10, 20), v(20, 80)},
		{"anchor in view units", render2d.Camera{Viewport: r(0, 0, 1280, 720), Size: v(320, 180), Anchor: v(0.5, 0.5), Position: v(-5, 0)}, v(-5, 0), v(640, 360)},
	}
	for _, tt := range tests {
		if got := tt.cam.WorldToTarget(tt.world, 128, 128); !nearVec(got, tt.target, 1e-4) {
			t.Errorf("%s: WorldToTarget(%v) = %v, want %v", tt.name, tt.world, got, tt.target)
		}
		if got := tt.cam.TargetToWorld(tt.target, 128, 128); !nearVec(got, tt.world, 1e-4) {
			t.Errorf("%s: TargetToWorld(%v) = %v, want %v", tt.name, tt.target, got, tt.world)
		}
	}
}

// TestCameraRoundTrip converts points to target pixels and back through
// cameras turned, zoomed, anchored and laid out on a logical screen.
func TestCameraRoundTrip(t *testing.T) {
	layout := render2d.Screen{Width: 320, Height: 180}.Layout(1001, 720, 0, 0)
	for _, rot := range []float32{0, 0.3, -1.2, math.Pi, 5} {
		for _, zoom := range []float32{0, 0.25, 1, 3.5} {
			for _, anchor := range []geom.Vec2{v(0, 0), v(0.5, 0.5), v(1, 0.25)} {
				cams := []render2d.Camera{
					{Position: v(17, -40), Anchor: anchor, Zoom: zoom, Rotation: rot},
					{Position: v(17, -40), Anchor: anchor, Zoom: zoom, Rotation: rot, Viewport: r(10, 20, 300, 100)},
					{Position: v(-3, 8), Anchor: anchor, Zoom: zoom, Rotation: rot, Viewport: layout.Viewport, Size: layout.Size},
				}
				for _, c := range cams {
					for _, p := range []geom.Vec2{v(0, 0), v(17, -40), v(100.5, 3.25), v(-250, 800)} {
						tp := c.WorldToTarget(p, 1001, 720)
						back := c.TargetToWorld(tp, 1001, 720)
						if !nearVec(back, p, 2e-3*max(1, float32(math.Hypot(float64(p.X), float64(p.Y))))) {
							t.Fatalf("camera %+v: %v -> %v -> %v", c, p, tp, back)
						}
					}
				}
			}
		}
	}
	empty := render2d.Camera{Position: v(3, 4), Size: v(0, 0), Viewport: r(5, 5, 0, 0)}
	if got := empty.TargetToWorld(v(9, 9), 0, 0); got != v(3, 4) {
		t.Errorf("TargetToWorld through a view of no area = %v, want the camera's position", got)
	}
}

func TestValidateCameraSize(t *testing.T) {
	for _, tt := range []struct {
		size geom.Vec2
		ok   bool
	}{
		{v(0, 0), true},
		{v(320, 180), true},
		{v(320, 0), false},
		{v(-1, 5), false},
		{v(float32(math.Inf(1)), 5), false},
		{v(float32(math.NaN()), 5), false},
	} {
		f := &render2d.Frame{Passes: []render2d.Pass{{PassDesc: render2d.PassDesc{Camera: render2d.Camera{Size: tt.size}}}}}
		if err := render2d.ValidateFrame(f, fakeRes{}); (err == nil) != tt.ok {
			t.Errorf("camera size %v: ValidateFrame = %v, want valid %v", tt.size, err, tt.ok)
		}
	}
}

func TestFrameClearReset(t *testing.T) {
	var f render2d.Frame
	w := render2d.NewFrameWriter(&f)
	w.SetClear(render2d.White)
	if !f.Clear || f.ClearColor != render2d.White {
		t.Fatalf("after SetClear: Clear %v, ClearColor %v; want true, white", f.Clear, f.ClearColor)
	}
	f.Reset()
	if f.Clear || f.ClearColor != (render2d.Color{}) {
		t.Errorf("after Reset: Clear %v, ClearColor %v; want neither", f.Clear, f.ClearColor)
	}
}
