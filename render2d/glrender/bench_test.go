//go:build !js

package glrender_test

import (
	"image"
	"strconv"
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender"
	"github.com/metronome-go/metronome/render2d/glrender/gltest"
)

// BenchmarkRender draws frames of n 2x2 sprites from one texture into the
// 128x128 test window and waits for the GPU (glFinish) each frame, so the
// time includes rasterisation. See cmd/bunnymark for the 1280x720
// comparison with a plain instanced loop.
func BenchmarkRender(b *testing.B) {
	for _, n := range []int{0, 1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			r := gltest.Renderer(b)
			q := mustTextureB(b, r)
			var f render2d.Frame
			pw := render2d.NewFrameWriter(&f).BeginPass(render2d.PassDesc{Clear: true, ClearColor: grey})
			for i := range n {
				pw.Draw(sprite(q, float32(i%120), float32(i/120%120), 2, 2))
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := r.Render(&f); err != nil {
					b.Fatal(err)
				}
				gl.Finish()
			}
		})
	}
}

// BenchmarkRenderInterp draws frames of n 2x2 sprites (as BenchmarkRender)
// in pairs: the frame still (no previous placements), then the same frame
// moving (every packet has one; drawn at alpha 0.5 by the interpolating
// shaders), each followed by glFinish. Alternating frame by frame lets both
// see the same machine load; it reports the time per frame of each and
// moving/still, which the issue bounds at 1.05, and the same ratio of
// process CPU time (llvmpipe's threads included), which other processes on
// the machine disturb less.
func BenchmarkRenderInterp(b *testing.B) {
	for _, n := range []int{10000, 50000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			r := gltest.Renderer(b)
			q := mustTextureB(b, r)
			var still, moving render2d.Frame
			ws := render2d.NewFrameWriter(&still).BeginPass(render2d.PassDesc{Clear: true, ClearColor: grey})
			wm := render2d.NewFrameWriter(&moving).BeginPass(render2d.PassDesc{Clear: true, ClearColor: grey})
			for i := range n {
				p := sprite(q, float32(i%120), float32(i/120%120), 2, 2)
				ws.Draw(p)
				p.Prev = p.Placement()
				p.Prev.Position.X -= 3
				wm.Draw(p)
			}
			still.Present.Alpha, moving.Present.Alpha = 0.5, 0.5
			var tStill, tMoving, cStill, cMoving int64
			frame := func(f *render2d.Frame, wall, cpu *int64) {
				t0, c0 := time.Now(), glrender.CPUNanos()
				if err := r.Render(f); err != nil {
					b.Fatal(err)
				}
				gl.Finish()
				*wall += time.Since(t0).Nanoseconds()
				*cpu += glrender.CPUNanos() - c0
			}
			var discard int64
			frame(&still, &discard, &discard)
			frame(&moving, &discard, &discard)
			b.ReportAllocs()
			for b.Loop() {
				frame(&still, &tStill, &cStill)
				frame(&moving, &tMoving, &cMoving)
			}
			n := float64(b.N)
			b.ReportMetric(float64(tStill)/n, "still-ns/frame")
			b.ReportMetric(float64(tMoving)/n, "moving-ns/frame")
			b.ReportMetric(float64(tMoving)/float64(tStill), "moving/still")
			b.ReportMetric(float64(cMoving)/float64(cStill), "cpu-moving/still")
		})
	}
}

func mustTextureB(b *testing.B, r interface {
	CreateTexture(*image.RGBA, render2d.TextureOptions) (render2d.TextureHandle, error)
}) render2d.TextureHandle {
	h, err := r.CreateTexture(quadrants(), render2d.TextureOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return h
}

// BenchmarkFirstFrame times the first frame a new renderer draws (sprites
// tinted and white under two blend modes, sliding, and a shape), to the
// end of its rasterisation, without and with WarmUp before it (not
// timed), and with WarmUp drawing into a render target created after it.
// Drivers that compile shader variants at their first draw make the plain
// first frame slow: run it with MESA_SHADER_CACHE_DISABLE=true so that
// every renderer compiles afresh under llvmpipe, as on a machine whose
// shader cache is cold.
func BenchmarkFirstFrame(b *testing.B) {
	for k, name := range []string{"plain", "warmed", "warmed-target"} {
		b.Run(name, func(b *testing.B) {
			gltest.Use(b)
			for b.Loop() {
				b.StopTimer()
				r, err := glrender.New()
				if err != nil {
					b.Fatal(err)
				}
				if k >= 1 {
					if err := r.WarmUp(); err != nil {
						b.Fatal(err)
					}
				}
				f := firstFrame(b, r)
				if k == 2 {
					tgt, _, err := r.CreateRenderTarget(128, 128, render2d.TextureOptions{})
					if err != nil {
						b.Fatal(err)
					}
					f.Passes[0].Target = tgt
				}
				gl.Finish()
				b.StartTimer()
				if err := r.Render(f); err != nil {
					b.Fatal(err)
				}
				gl.Finish()
				b.StopTimer()
				r.Close()
				b.StartTimer()
			}
		})
	}
}

// firstFrame is a frame of a small game: a texture's sprites, white and
// tinted, alpha-blended and additive, sliding, and a filled triangle.
func firstFrame(b *testing.B, r *glrender.Renderer) *render2d.Frame {
	q := mustTextureB(b, r)
	f := &render2d.Frame{Clear: true, ClearColor: grey, Present: render2d.Presentation{Alpha: 0.5}}
	pw := render2d.NewFrameWriter(f).BeginPass(render2d.PassDesc{})
	for i, blend := range []render2d.BlendMode{render2d.BlendAlpha, render2d.BlendAdditive} {
		s := sprite(q, float32(10+40*i), 10, 32, 32)
		s.Blend = blend
		pw.Draw(s)
		s.Tint = render2d.Color{R: 1, G: 0.5, B: 0.5, A: 0.8}
		s.Prev = s.Placement()
		s.Prev.Position.X -= 4
		s.Transform.Position.Y += 40
		pw.Draw(s)
	}
	verts, idx := pw.Geometry()
	*verts = append(*verts, render2d.Vertex{Coverage: 1, Edge: render2d.NoEdge}, render2d.Vertex{Position: geom.Vec2{X: 30}, Coverage: 1, Edge: render2d.NoEdge},
		render2d.Vertex{Position: geom.Vec2{Y: 30}, Coverage: 1, Edge: render2d.NoEdge})
	*idx = append(*idx, 0, 1, 2)
	pw.Draw(render2d.DrawPacket2D{Transform: render2d.Transform{Position: geom.Vec2{X: 20, Y: 90}, Scale: geom.Vec2{X: 1, Y: 1}}, Tint: render2d.White,
		Mesh: render2d.Mesh{VertexCount: 3, IndexCount: 3}})
	return f
}

// BenchmarkDrawPaths draws frames of n 2x2 moving sprites (drawn at alpha
// 0.5, the sliding variant) on each draw path in turn, frame by frame so
// both see the same machine load, each followed by glFinish, and reports
// the time per frame of each and batched/instanced. New keeps instancing
// on a device where that ratio is above 1 (llvmpipe); on SwiftShader it is
// the other way round (cmd/bunnymark -browser measures there).
func BenchmarkDrawPaths(b *testing.B) {
	for _, n := range []int{1000, 10000, 50000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			r := gltest.Renderer(b)
			q := mustTextureB(b, r)
			var f render2d.Frame
			pw := render2d.NewFrameWriter(&f).BeginPass(render2d.PassDesc{Clear: true, ClearColor: grey})
			for i := range n {
				p := sprite(q, float32(i%120), float32(i/120%120), 2, 2)
				p.Prev = p.Placement()
				p.Prev.Position.X -= 3
				pw.Draw(p)
			}
			f.Present.Alpha = 0.5
			var ns [2]int64
			frame := func(p glrender.DrawPath, wall *int64) {
				if err := r.SetDrawPath(p); err != nil {
					b.Fatal(err)
				}
				t0 := time.Now()
				if err := r.Render(&f); err != nil {
					b.Fatal(err)
				}
				gl.Finish()
				*wall += time.Since(t0).Nanoseconds()
			}
			var discard int64
			frame(glrender.DrawInstanced, &discard)
			frame(glrender.DrawBatched, &discard)
			b.ReportAllocs()
			for b.Loop() {
				frame(glrender.DrawInstanced, &ns[0])
				frame(glrender.DrawBatched, &ns[1])
			}
			bn := float64(b.N)
			b.ReportMetric(float64(ns[0])/bn, "instanced-ns/frame")
			b.ReportMetric(float64(ns[1])/bn, "batched-ns/frame")
			b.ReportMetric(float64(ns[1])/float64(ns[0]), "batched/instanced")
		})
	}
}
