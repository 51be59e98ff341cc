//go:build !js

package glrender_test

import (
	"image"
	"strconv"
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender/gltest"
)

// BenchmarkTextureAlloc measures what a new atlas page costs the graphics
// thread, in three parts each followed by glFinish: creating the texture
// without texels (create-ns), sending its first 64 KiB band (band-ns) and
// drawing a frame that samples it (draw-ns), for a 1024 page (the
// assets default) and a 256 one. Eight textures are held before they are
// released, so each creation gets fresh memory, as a load's new page does.
// On llvmpipe the creation is what stalls a frame: 14-25 ms for 1024 under
// load, as much as touching 4 MB of fresh memory costs this machine's
// virtual memory (glTexStorage2D measured the same); the band and the draw
// take microseconds to a couple of milliseconds.
func BenchmarkTextureAlloc(b *testing.B) {
	for _, size := range []int{1024, 256} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			r := gltest.Renderer(b)
			empty := &image.RGBA{Rect: image.Rect(0, 0, size, size)}
			band := image.NewRGBA(image.Rect(0, 0, size, (64<<10)/(4*size)))
			for i := range band.Pix {
				band.Pix[i] = 0xff
			}
			var f render2d.Frame
			var tCreate, tBand, tDraw int64
			held := make([]render2d.TextureHandle, 0, 8)
			b.ReportAllocs()
			for b.Loop() {
				t0 := time.Now()
				h, err := r.CreateTexture(empty, render2d.TextureOptions{})
				if err != nil {
					b.Fatal(err)
				}
				gl.Finish()
				t1 := time.Now()
				if err := r.UpdateTexture(h, 0, 0, band); err != nil {
					b.Fatal(err)
				}
				gl.Finish()
				t2 := time.Now()
				f.Reset()
				pw := render2d.NewFrameWriter(&f).BeginPass(render2d.PassDesc{Clear: true, ClearColor: grey})
				pw.Draw(sprite(h, 0, 0, 64, 64))
				if err := r.Render(&f); err != nil {
					b.Fatal(err)
				}
				gl.Finish()
				t3 := time.Now()
				// Pages of a load stay: held ones make each create
				// take fresh memory, as a load's new page does.
				if held = append(held, h); len(held) == cap(held) {
					for _, h := range held {
						if err := r.ReleaseTexture(h); err != nil {
							b.Fatal(err)
						}
					}
					held = held[:0]
				}
				tCreate += t1.Sub(t0).Nanoseconds()
				tBand += t2.Sub(t1).Nanoseconds()
				tDraw += t3.Sub(t2).Nanoseconds()
			}
			n := float64(b.N)
			b.ReportMetric(float64(tCreate)/n, "create-ns")
			b.ReportMetric(float64(tBand)/n, "band-ns")
			b.ReportMetric(float64(tDraw)/n, "draw-ns")
		})
	}
}
