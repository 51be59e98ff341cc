//go:build !race && !js

package glrender_test

import (
	"image"
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender"
)

// TestRenderAllocatesNothing renders a frame of several passes (offscreen
// target, material, every blend mode, several textures, packets and a
// camera with previous placements and a logical size, after a clear of the
// whole window) repeatedly, at alpha 0.5 and 1, and
// requires zero allocations once the renderer's scratch slices have grown.
func TestRenderAllocatesNothing(t *testing.T) {
	for _, path := range drawPaths {
		t.Run(path.String(), func(t *testing.T) { renderAllocatesNothing(t, rendererOn(t, path)) })
	}
}

func renderAllocatesNothing(t *testing.T, r *glrender.Renderer) {
	q := mustTexture(t, r, quadrants(), render2d.TextureOptions{})
	d := mustTexture(t, r, disc(16), render2d.TextureOptions{})
	target, tex, err := r.CreateRenderTarget(64, 64, render2d.TextureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.CreateMaterial(render2d.MaterialDesc{Name: "grey", Shade: "float g = dot(texel.rgb, vec3(0.3, 0.59, 0.11)); return vec4(g, g, g, texel.a) * tint.a;"})
	if err != nil {
		t.Fatal(err)
	}
	var f render2d.Frame
	w := render2d.NewFrameWriter(&f)
	pw := w.BeginPass(render2d.PassDesc{Target: target, Clear: true})
	for i := range 200 {
		pw.Draw(sprite(q, float32(i%64), float32(i/4), 4, 4))
	}
	w.SetClear(render2d.Color{R: 0.5, B: 0.5, A: 1})
	pw = w.BeginPass(render2d.PassDesc{Clear: true, ClearColor: grey, Camera: render2d.Camera{Zoom: 1.5, Rotation: 0.1, Viewport: geom.Rect{X: 4, Y: 19, W: 120, H: 90}, Size: geom.Vec2{X: 40, Y: 30}},
		PrevCamera: render2d.CameraPlacement{Position: geom.Vec2{X: 3}, Zoom: 1.25, Set: true}})
	for i := range 1000 {
		p := sprite(d, float32(i%100), float32(i%77), 8, 8)
		p.Blend = render2d.BlendMode(i / 200)
		if i%3 != 0 {
			p.Prev = p.Placement()
			p.Prev.Position.X -= 2
			p.Prev.Rotation = 0.5
		}
		pw.Draw(p)
	}
	big := sprite(tex, 0, 0, 64, 64)
	big.Material = m
	big.Prev = big.Placement()
	big.Prev.Tint.A = 0
	pw.Draw(big)
	pw.SetParam(0, 1)
	for _, alpha := range []float32{0.5, 1} {
		f.Present.Alpha = alpha
		render := func() {
			if err := r.Render(&f); err != nil {
				t.Fatal(err)
			}
		}
		render()
		if got := testing.AllocsPerRun(20, render); got != 0 {
			t.Errorf("alpha %v: Render allocates %v times per frame, want 0", alpha, got)
		}
	}
	if _, err := r.ReadPixels(render2d.TargetHandle{}, image.Rect(0, 0, 1, 1)); err != nil {
		t.Fatal(err) // also a sync point so the frames really ran
	}
}
