//go:build !js

package glrender_test

import (
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender"
	"github.com/metronome-go/metronome/render2d/glrender/gltest"
	"github.com/metronome-go/metronome/render2d/shape"
)

func xy(x, y float32) geom.Vec2 { return geom.Vec2{X: x, Y: y} }

// shapeFrame builds a one-pass frame cleared grey whose packets draw
// writes, through a tessellator.
func shapeFrame(t *testing.T, draw func(d func(s shape.Shape, x, y float32, c render2d.Color), pw *render2d.PassWriter)) *render2d.Frame {
	f := &render2d.Frame{}
	w := render2d.NewFrameWriter(f)
	pw := w.BeginPass(render2d.PassDesc{Clear: true, ClearColor: grey})
	var tess shape.Tessellator
	draw(func(s shape.Shape, x, y float32, c render2d.Color) {
		t.Helper()
		if err := tess.Draw(pw, &s, shape.Packet(xy(x, y), c)); err != nil {
			t.Fatal(err)
		}
	}, pw)
	return f
}

var (
	orange = render2d.RGBA8(255, 160, 40, 255)
	cyan   = render2d.RGBA8(60, 220, 230, 255)
	pink   = render2d.RGBA8(240, 90, 160, 255)
)

// shapeScenes are the golden images of every primitive, cap and join.
var shapeScenes = []scene{
	{"shape-lines", func(t *testing.T, r *glrender.Renderer) *render2d.Frame {
		return shapeFrame(t, func(d func(shape.Shape, float32, float32, render2d.Color), _ *render2d.PassWriter) {
			for i, c := range []shape.Cap{shape.CapButt, shape.CapSquare, shape.CapRound} {
				s := shape.Line(xy(0, 0), xy(80, 0), 10)
				s.Cap = c
				d(s, 24, float32(20+i*22), orange)
			}
			d(shape.Line(xy(0, 0), xy(100, 40), 1), 14, 84, render2d.White) // a hairline
			d(shape.Line(xy(0, 40), xy(100, 0), 3), 14, 84, cyan)
		})
	}},
	{"shape-joins", func(t *testing.T, r *glrender.Renderer) *render2d.Frame {
		return shapeFrame(t, func(d func(shape.Shape, float32, float32, render2d.Color), _ *render2d.PassWriter) {
			for i, j := range []shape.Join{shape.JoinMiter, shape.JoinBevel, shape.JoinRound} {
				s := shape.Polyline([]geom.Vec2{xy(0, 30), xy(16, 0), xy(32, 30)}, 8)
				s.Join = j
				d(s, float32(8+i*40), 14, orange)
			}
			// A translucent zigzag: its joins must not darken where they meet.
			z := shape.Polyline([]geom.Vec2{xy(0, 20), xy(20, 0), xy(40, 20), xy(60, 0), xy(80, 20), xy(100, 0)}, 10)
			z.Join = shape.JoinBevel
			d(z, 14, 70, render2d.Color{R: 1, G: 1, B: 1, A: 0.5})
			// A hairpin past the miter limit becomes a bevel.
			d(shape.Polyline([]geom.Vec2{xy(0, 0), xy(100, 6), xy(0, 12)}, 4), 14, 104, cyan)
		})
	}},
	{"shape-fills", func(t *testing.T, r *glrender.Renderer) *render2d.Frame {
		return shapeFrame(t, func(d func(shape.Shape, float32, float32, render2d.Color), _ *render2d.PassWriter) {
			d(shape.Circle(16), 22, 22, orange)
			d(shape.Ellipse(20, 10), 66, 22, cyan)
			d(shape.Pie(16, -math.Pi/2, 1.5*math.Pi), 106, 24, pink)
			d(shape.Rect(30, 20), 6, 48, cyan)
			d(shape.RoundRect(36, 24, 8), 44, 46, render2d.White)
			d(shape.Polygon(xy(0, 0), xy(30, 0), xy(30, 30), xy(15, 10), xy(0, 30)), 90, 46, orange) // concave
			holed := shape.Polygon(xy(0, 0), xy(40, 0), xy(40, 40), xy(0, 40))
			holed.Holes = [][]geom.Vec2{{xy(10, 10), xy(10, 30), xy(30, 30), xy(30, 10)}}
			d(holed, 6, 82, pink)
			star := shape.Polygon(xy(20, 0), xy(31.8, 36.2), xy(1, 13.8), xy(39, 13.8), xy(8.2, 36.2))
			d(star, 50, 84, render2d.White)
			star.Rule = shape.EvenOdd
			d(star, 88, 84, render2d.White)
		})
	}},
	{"shape-strokes", func(t *testing.T, r *glrender.Renderer) *render2d.Frame {
		return shapeFrame(t, func(d func(shape.Shape, float32, float32, render2d.Color), _ *render2d.PassWriter) {
			d(shape.Circle(20).Stroked(3), 30, 30, orange)
			arc := shape.Arc(20, 0, 1.25*math.Pi, 6)
			arc.Cap = shape.CapRound
			d(arc, 90, 30, cyan)
			d(shape.Rect(40, 30).Stroked(4), 10, 70, render2d.White)
			rr := shape.RoundRect(40, 30, 10).Stroked(2)
			d(rr, 70, 70, pink)
			d(shape.Ellipse(50, 8).Stroked(1), 64, 116, render2d.Color{R: 1, G: 1, B: 1, A: 0.6})
		})
	}},
	{"shape-placed", func(t *testing.T, r *glrender.Renderer) *render2d.Frame {
		// Shapes between sprites, turned, scaled and pivoted like them.
		f := shapeFrame(t, func(d func(shape.Shape, float32, float32, render2d.Color), pw *render2d.PassWriter) {
			pw.Draw(solidQuad(8, 8, 112, 24, render2d.Color{R: 0.3, G: 0.3, B: 0.9, A: 1}))
			d(shape.Rect(40, 40), 64, 64, orange)
			pw.Draw(solidQuad(40, 56, 48, 16, render2d.Color{R: 0.2, G: 0.8, B: 0.3, A: 0.7}))
			d(shape.Circle(10), 24, 104, cyan)
		})
		ps := f.Passes[0].Packets
		sq := &ps[1]
		sq.Transform.Origin = xy(20, 20)
		sq.Transform.Rotation = math.Pi / 6
		sq.Transform.Scale = xy(1.5, 0.75)
		ps[3].Transform.Scale = xy(2, 1)
		return f
	}},
}

func init() { scenes = append(scenes, shapeScenes...) }

// TestShapesBatch: a hundred shapes between two sprites draw as three
// batches, and shapes of another blend mode start a fourth.
func TestShapesBatch(t *testing.T) {
	f := shapeFrame(t, func(d func(shape.Shape, float32, float32, render2d.Color), pw *render2d.PassWriter) {
		pw.Draw(solidQuad(0, 0, 4, 4, render2d.White))
		for i := range 100 {
			d(shape.Circle(2), float32(i), 10, orange)
		}
		pw.Draw(solidQuad(0, 0, 4, 4, render2d.White))
	})
	ps := f.Passes[0].Packets
	if got := len(render2d.AppendBatches(nil, ps)); got != 3 {
		t.Errorf("batches: got %d, want 3", got)
	}
	ps[50].Blend = render2d.BlendAdditive
	if got := len(render2d.AppendBatches(nil, ps)); got != 5 {
		t.Errorf("batches with one additive shape in the middle: got %d, want 5", got)
	}
}

// BenchmarkShapesVsSprites draws n shapes a frame into the 128x128 test
// window, tessellated anew every frame as extraction does, alternating
// frame by frame with n sprites covering the same area (a disc texture of
// the circle's size, a solid quad turned like the line), each frame ended
// by glFinish, so both see the same machine load. It reports the time
// and process CPU time per frame of each and shapes/sprites, which the
// issue bounds at 2.
func BenchmarkShapesVsSprites(b *testing.B) {
	for _, kind := range []string{"circles", "lines"} {
		for _, n := range []int{1000, 10000} {
			b.Run(kind+"/"+strconv.Itoa(n), func(b *testing.B) {
				r := gltest.Renderer(b)
				discTex, err := r.CreateTexture(disc(12), render2d.TextureOptions{})
				if err != nil {
					b.Fatal(err)
				}
				var shapes, sprites render2d.Frame
				fw := render2d.NewFrameWriter(&shapes)
				var tess shape.Tessellator
				circle := shape.Circle(6)
				line := shape.Line(xy(0, 0), xy(24, 10), 2)
				at := func(i int) geom.Vec2 { return xy(float32(i*37%128), float32(i*53%128)) }
				pw := render2d.NewFrameWriter(&sprites).BeginPass(render2d.PassDesc{Clear: true, ClearColor: grey})
				for i := range n {
					if kind == "circles" {
						p := sprite(discTex, at(i).X, at(i).Y, 12, 12)
						p.Transform.Origin = xy(6, 6)
						pw.Draw(p)
					} else {
						p := solidQuad(at(i).X, at(i).Y, 26, 2, orange)
						p.Transform.Origin = xy(0, 1)
						p.Transform.Rotation = float32(math.Atan2(10, 24))
						pw.Draw(p)
					}
				}
				drawShapes := func() {
					shapes.Reset()
					sp := fw.BeginPass(render2d.PassDesc{Clear: true, ClearColor: grey})
					s := &circle
					if kind == "lines" {
						s = &line
					}
					for i := range n {
						if err := tess.Draw(sp, s, shape.Packet(at(i), orange)); err != nil {
							b.Fatal(err)
						}
					}
				}
				var tShapes, tSprites, cShapes, cSprites int64
				frame := func(f *render2d.Frame, build func(), wall, cpu *int64) {
					t0, c0 := time.Now(), glrender.CPUNanos()
					if build != nil {
						build()
					}
					if err := r.Render(f); err != nil {
						b.Fatal(err)
					}
					gl.Finish()
					*wall += time.Since(t0).Nanoseconds()
					*cpu += glrender.CPUNanos() - c0
				}
				var discard int64
				frame(&shapes, drawShapes, &discard, &discard)
				frame(&sprites, nil, &discard, &discard)
				b.ReportAllocs()
				for b.Loop() {
					frame(&shapes, drawShapes, &tShapes, &cShapes)
					frame(&sprites, nil, &tSprites, &cSprites)
				}
				k := float64(b.N)
				b.ReportMetric(float64(tShapes)/k, "shapes-ns/frame")
				b.ReportMetric(float64(tSprites)/k, "sprites-ns/frame")
				b.ReportMetric(float64(tShapes)/float64(tSprites), "shapes/sprites")
				b.ReportMetric(float64(cShapes)/float64(cSprites), "cpu-shapes/sprites")
			})
		}
	}
}
