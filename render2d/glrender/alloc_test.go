//go:build !race

package glrender_test

import (
	"image"
	"testing"

	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender/gltest"
)

// TestRenderAllocatesNothing renders a frame of several passes (offscreen
// target, material, every blend mode, several textures) repeatedly and
// requires zero allocations once the renderer's batch list has grown.
func TestRenderAllocatesNothing(t *testing.T) {
	r := gltest.Renderer(t)
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
	pw = w.BeginPass(render2d.PassDesc{Clear: true, ClearColor: grey, Camera: render2d.Camera{Zoom: 1.5, Rotation: 0.1}})
	for i := range 1000 {
		p := sprite(d, float32(i%100), float32(i%77), 8, 8)
		p.Blend = render2d.BlendMode(i / 200)
		pw.Draw(p)
	}
	big := sprite(tex, 0, 0, 64, 64)
	big.Material = m
	pw.Draw(big)
	pw.SetParam(0, 1)
	render := func() {
		if err := r.Render(&f); err != nil {
			t.Fatal(err)
		}
	}
	render()
	if got := testing.AllocsPerRun(20, render); got != 0 {
		t.Errorf("Render allocates %v times per frame, want 0", got)
	}
	if _, err := r.ReadPixels(render2d.TargetHandle{}, image.Rect(0, 0, 1, 1)); err != nil {
		t.Fatal(err) // also a sync point so the frames really ran
	}
}
