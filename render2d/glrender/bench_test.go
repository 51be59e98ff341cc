package glrender_test

import (
	"image"
	"strconv"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/metronome-go/metronome/render2d"
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

func mustTextureB(b *testing.B, r interface {
	CreateTexture(*image.RGBA, render2d.TextureOptions) (render2d.TextureHandle, error)
}) render2d.TextureHandle {
	h, err := r.CreateTexture(quadrants(), render2d.TextureOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return h
}
