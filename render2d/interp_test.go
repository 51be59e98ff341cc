package render2d_test

import (
	"math"
	"testing"
	"time"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/timing"
)

func TestSpanAlphaAt(t *testing.T) {
	s := render2d.Span{Start: 1000, End: 1100, Step: 100 * time.Nanosecond}
	tests := []struct {
		name string
		span render2d.Span
		at   timing.Instant
		want float32
	}{
		{"before the end", s, 1050, 0},
		{"at the end: previous placements", s, 1100, 0},
		{"a quarter step later", s, 1125, 0.25},
		{"one step later: current placements", s, 1200, 1},
		{"late: held, never extrapolated", s, 5000, 1},
		{"no step: no interpolation", render2d.Span{End: 1100}, 1100, 1},
		{"negative step", render2d.Span{End: 1100, Step: -1}, 1150, 1},
		{"difference overflows", render2d.Span{End: math.MinInt64, Step: time.Second}, math.MaxInt64, 1},
	}
	for _, tt := range tests {
		if got := tt.span.AlphaAt(tt.at); got != tt.want {
			t.Errorf("%s: AlphaAt(%d) = %v, want %v", tt.name, tt.at, got, tt.want)
		}
	}
	f := render2d.Frame{Span: s}
	f.PresentAt(1150)
	if want := (render2d.Presentation{At: 1150, Alpha: 0.5}); f.Present != want {
		t.Errorf("PresentAt(1150): Present = %+v, want %+v", f.Present, want)
	}
}

func TestLerpAngle(t *testing.T) {
	tests := []struct {
		a, b, t, want float32
	}{
		{0, 1, 0.5, 0.5},
		{0, 3 * math.Pi / 2, 0.5, 3*math.Pi/2 + math.Pi/4}, // a quarter turn back, not three forward
		{3, -3, 0.5, -3 - (2*math.Pi-6)/2},                 // across ±π
		{0.25, 7, 1, 7},                                    // exactly b at 1
		{2, 2, 0.3, 2},
	}
	for _, tt := range tests {
		if got := render2d.LerpAngle(tt.a, tt.b, tt.t); math.Abs(float64(got-tt.want)) > 1e-5 {
			t.Errorf("LerpAngle(%v, %v, %v) = %v, want %v", tt.a, tt.b, tt.t, got, tt.want)
		}
	}
	if got := render2d.Lerp(3, 7, 0.25); got != 4 {
		t.Errorf("Lerp(3, 7, 0.25) = %v, want 4", got)
	}
}

func movingPacket() render2d.DrawPacket2D {
	p := render2d.Sprite(render2d.TextureHandle{ID: 1, Gen: 1}, geom.Rect{W: 4, H: 4}, geom.Vec2{X: 10, Y: 20}, geom.Vec2{X: 8, Y: 8})
	p.Transform.Rotation = 1
	p.Transform.Scale = geom.Vec2{X: 2, Y: 4}
	p.Transform.Origin = geom.Vec2{X: 4, Y: 4}
	p.Tint = render2d.Color{R: 1, G: 1, B: 1, A: 1}
	p.Prev = render2d.Placement{Position: geom.Vec2{X: 2, Y: 0}, Rotation: 0, Scale: geom.Vec2{X: 1, Y: 1}, Tint: render2d.Color{A: 0}, Set: true}
	return p
}

func TestResolved(t *testing.T) {
	p := movingPacket()
	still := p
	still.Prev = render2d.Placement{}
	tests := []struct {
		name   string
		p      render2d.DrawPacket2D
		alpha  float32
		pos    geom.Vec2
		rot    float32
		scale  geom.Vec2
		tint   render2d.Color
		origin geom.Vec2
	}{
		{"moving at 0: previous", p, 0, geom.Vec2{X: 2}, 0, geom.Vec2{X: 1, Y: 1}, render2d.Color{}, geom.Vec2{X: 4, Y: 4}},
		{"moving at 0.25", p, 0.25, geom.Vec2{X: 4, Y: 5}, 0.25, geom.Vec2{X: 1.25, Y: 1.75}, render2d.Color{R: 0.25, G: 0.25, B: 0.25, A: 0.25}, geom.Vec2{X: 4, Y: 4}},
		{"moving at 1: current", p, 1, geom.Vec2{X: 10, Y: 20}, 1, geom.Vec2{X: 2, Y: 4}, render2d.White, geom.Vec2{X: 4, Y: 4}},
		{"unset Prev at 0: current", still, 0, geom.Vec2{X: 10, Y: 20}, 1, geom.Vec2{X: 2, Y: 4}, render2d.White, geom.Vec2{X: 4, Y: 4}},
		{"unset Prev at 0.5: current", still, 0.5, geom.Vec2{X: 10, Y: 20}, 1, geom.Vec2{X: 2, Y: 4}, render2d.White, geom.Vec2{X: 4, Y: 4}},
	}
	for _, tt := range tests {
		got := tt.p.Resolved(tt.alpha)
		tr := got.Transform
		if tr.Position != tt.pos || tr.Rotation != tt.rot || tr.Scale != tt.scale || got.Tint != tt.tint || tr.Origin != tt.origin {
			t.Errorf("%s: Resolved = %+v tint %+v; want position %v rotation %v scale %v origin %v tint %+v", tt.name, tr, got.Tint, tt.pos, tt.rot, tt.scale, tt.origin, tt.tint)
		}
		if got.Prev.Set || got.Size != tt.p.Size || got.Source != tt.p.Source || got.Texture != tt.p.Texture {
			t.Errorf("%s: Resolved changed more than the placement: %+v", tt.name, got)
		}
	}
	if got := p.Placement(); got.Position != p.Transform.Position || got.Scale != p.Transform.Scale || got.Rotation != 1 || got.Tint != p.Tint || !got.Set {
		t.Errorf("Placement() = %+v, want the current placement, set", got)
	}
}

func TestResolvedCamera(t *testing.T) {
	d := render2d.PassDesc{Camera: render2d.Camera{Position: geom.Vec2{X: 10}, Anchor: geom.Vec2{X: 0.5, Y: 0.5}, Zoom: 3, Rotation: 1, Viewport: geom.Rect{W: 8, H: 8}}}
	if got := d.ResolvedCamera(0.5); got != d.Camera {
		t.Errorf("unset PrevCamera: ResolvedCamera(0.5) = %+v, want the camera %+v", got, d.Camera)
	}
	d.PrevCamera = render2d.CameraPlacement{Position: geom.Vec2{X: 2, Y: 4}, Set: true} // zoom 0 means 1
	got := d.ResolvedCamera(0.5)
	want := d.Camera
	want.Position, want.Zoom, want.Rotation = geom.Vec2{X: 6, Y: 2}, 2, 0.5
	if got != want {
		t.Errorf("ResolvedCamera(0.5) = %+v, want %+v (anchor and viewport unchanged)", got, want)
	}
	d.Camera.Zoom = 0
	if got := d.ResolvedCamera(1); got.Zoom != 1 {
		t.Errorf("ResolvedCamera(1) with zoom 0 (1): zoom %v, want 1", got.Zoom)
	}
}

func TestFrameResolvedAndReset(t *testing.T) {
	var f render2d.Frame
	w := render2d.NewFrameWriter(&f)
	pw := w.BeginPass(render2d.PassDesc{PrevCamera: render2d.CameraPlacement{Position: geom.Vec2{X: -8}, Set: true}})
	pw.Draw(movingPacket())
	f.Span = render2d.Span{Start: 1, End: 2, Step: 1}
	f.Present = render2d.Presentation{At: 7, Alpha: 0.25}
	r := f.Resolved()
	if got, want := r.Passes[0].Packets[0], f.Passes[0].Packets[0].Resolved(0.25); got != want {
		t.Errorf("Frame.Resolved packet = %+v, want %+v", got, want)
	}
	if got := r.Passes[0].Camera.Position.X; got != -6 || r.Passes[0].PrevCamera.Set {
		t.Errorf("Frame.Resolved camera x = %v (previous set %v), want -6 and unset", got, r.Passes[0].PrevCamera.Set)
	}
	if r.Present != f.Present || r.Span != f.Span {
		t.Errorf("Frame.Resolved present %+v span %+v, want them kept", r.Present, r.Span)
	}
	r.Passes[0].Packets[0].Layer = 5
	if f.Passes[0].Packets[0].Layer == 5 {
		t.Error("Frame.Resolved shares packet storage with the frame")
	}
	f.Reset()
	if f.Span != (render2d.Span{}) || f.Present != (render2d.Presentation{}) {
		t.Errorf("after Reset: span %+v present %+v, want zero", f.Span, f.Present)
	}
}

// FuzzInterpolation checks the resolution rules on arbitrary placements:
// alpha 1 is exactly the current placement, alpha 0 exactly the previous
// position, scale and tint (and its angle up to whole turns), an unset
// Prev is the current placement at every alpha, positions stay between
// their ends, and the turn left to go is never more than half a turn.
func FuzzInterpolation(f *testing.F) {
	f.Add(float32(0), float32(0), float32(10), float32(5), float32(0), float32(3*math.Pi/2), float32(1), float32(2), float32(0.5), true)
	f.Add(float32(-3), float32(1e6), float32(4), float32(-1e-3), float32(100), float32(-100), float32(0), float32(-1), float32(0.999), true)
	f.Add(float32(1), float32(2), float32(3), float32(4), float32(5), float32(6), float32(7), float32(8), float32(0.3), false)
	f.Fuzz(func(t *testing.T, px, py, cx, cy, prot, crot, pscale, cscale, alpha float32, set bool) {
		for _, v := range []float32{px, py, cx, cy, prot, crot, pscale, cscale} {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) || math.Abs(float64(v)) > 1e7 {
				return
			}
		}
		if !(alpha >= 0 && alpha <= 1) {
			return
		}
		p := render2d.DrawPacket2D{
			Transform: render2d.Transform{Position: geom.Vec2{X: cx, Y: cy}, Rotation: crot, Scale: geom.Vec2{X: cscale, Y: cscale}},
			Tint:      render2d.Color{R: 1, G: 0.5, A: 1},
			Prev:      render2d.Placement{Position: geom.Vec2{X: px, Y: py}, Rotation: prot, Scale: geom.Vec2{X: pscale, Y: pscale}, Tint: render2d.Color{B: 1, A: 0.5}, Set: set},
		}
		cur := p
		cur.Prev = render2d.Placement{}
		if !set {
			if got := p.Resolved(alpha); got != cur {
				t.Fatalf("unset Prev at alpha %v: Resolved = %+v, want the packet unchanged %+v", alpha, got, cur)
			}
			return
		}
		if got := p.Resolved(1); got != cur {
			t.Fatalf("alpha 1: Resolved = %+v, want exactly the current placement %+v", got, cur)
		}
		z := p.Resolved(0)
		if z.Transform.Position != p.Prev.Position || z.Transform.Scale != p.Prev.Scale || z.Tint != p.Prev.Tint {
			t.Fatalf("alpha 0: Resolved = %+v, want the previous placement %+v", z, p.Prev)
		}
		if d := math.Remainder(float64(z.Transform.Rotation-prot), 2*math.Pi); math.Abs(d) > 1e-6*math.Max(1, math.Abs(float64(prot))+math.Abs(float64(crot))) {
			t.Fatalf("alpha 0: rotation %v, want %v up to whole turns (off by %v)", z.Transform.Rotation, prot, d)
		}
		g := p.Resolved(alpha)
		between := func(v, a, b float32) bool {
			lo, hi := min(a, b), max(a, b)
			slack := 1e-6 * (math.Abs(float64(lo)) + math.Abs(float64(hi)))
			return float64(v) >= float64(lo)-slack && float64(v) <= float64(hi)+slack
		}
		if !between(g.Transform.Position.X, px, cx) || !between(g.Transform.Position.Y, py, cy) || !between(g.Transform.Scale.X, pscale, cscale) {
			t.Fatalf("alpha %v: position %v scale %v, want between %v and %v, %v and %v", alpha, g.Transform.Position, g.Transform.Scale, p.Prev.Position, p.Transform.Position, pscale, cscale)
		}
		left := math.Abs(float64(crot - g.Transform.Rotation))
		if left > math.Pi*float64(1-alpha)+1e-5*math.Max(1, math.Abs(float64(prot))+math.Abs(float64(crot))) {
			t.Fatalf("alpha %v: rotation %v is %v from the current %v, more than half a turn times %v", alpha, g.Transform.Rotation, left, crot, 1-alpha)
		}
	})
}

func TestFrameMoves(t *testing.T) {
	still := func() render2d.DrawPacket2D {
		p := render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{X: 3, Y: 4}, geom.Vec2{X: 8, Y: 8})
		p.Prev = p.Placement()
		return p
	}
	tests := []struct {
		name   string
		change func(f *render2d.Frame)
		want   bool
	}{
		{"every packet where it was", func(f *render2d.Frame) {}, false},
		{"no previous placement", func(f *render2d.Frame) { f.Passes[0].Packets[1].Prev = render2d.Placement{} }, false},
		{"a packet moved", func(f *render2d.Frame) { f.Passes[1].Packets[0].Prev.Position.X-- }, true},
		{"a packet turned", func(f *render2d.Frame) { f.Passes[0].Packets[1].Prev.Rotation = 1 }, true},
		{"a packet grew", func(f *render2d.Frame) { f.Passes[0].Packets[0].Prev.Scale.Y = 2 }, true},
		{"a tint faded", func(f *render2d.Frame) { f.Passes[0].Packets[0].Prev.Tint.A = 0.5 }, true},
		{"camera where it was, zoom 0 read as 1", func(f *render2d.Frame) {
			f.Passes[0].PrevCamera = render2d.CameraPlacement{Zoom: 1, Set: true}
		}, false},
		{"camera moved", func(f *render2d.Frame) {
			f.Passes[0].PrevCamera = render2d.CameraPlacement{Position: geom.Vec2{X: 1}, Set: true}
		}, true},
		{"camera zoomed", func(f *render2d.Frame) {
			f.Passes[1].PrevCamera = render2d.CameraPlacement{Zoom: 2, Set: true}
		}, true},
		{"camera placement unset", func(f *render2d.Frame) {
			f.Passes[1].PrevCamera = render2d.CameraPlacement{Zoom: 2}
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &render2d.Frame{Passes: []render2d.Pass{
				{Packets: []render2d.DrawPacket2D{still(), still()}},
				{Packets: []render2d.DrawPacket2D{still()}},
			}}
			tt.change(f)
			if got := f.Moves(); got != tt.want {
				t.Errorf("Moves() = %v, want %v", got, tt.want)
			}
		})
	}
}

// BenchmarkFrameMovesStill is the whole scan a still scene of 10,000
// sprites costs once per update (a moving scene stops at its first
// moving packet).
func BenchmarkFrameMovesStill(b *testing.B) {
	ps := make([]render2d.DrawPacket2D, 10000)
	for i := range ps {
		ps[i] = render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{X: float32(i)}, geom.Vec2{X: 8, Y: 8})
		ps[i].Prev = ps[i].Placement()
	}
	f := &render2d.Frame{Passes: []render2d.Pass{{Packets: ps}}}
	b.ReportAllocs()
	for b.Loop() {
		if f.Moves() {
			b.Fatal("moves")
		}
	}
}
