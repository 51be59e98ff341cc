//go:build !js

package glrender_test

import (
	"bytes"
	"image"
	"testing"

	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender"
	"github.com/metronome-go/metronome/render2d/glrender/gltest"
)

// TestWarmUp checks that warming up leaves nothing behind: the window is
// cleared, GL reports no error, and every golden scene, the material one
// among them (its material warmed at creation), draws exactly as on a
// renderer that never warmed up.
func TestWarmUp(t *testing.T) {
	for _, sc := range scenes {
		t.Run(sc.name, func(t *testing.T) {
			r := gltest.Renderer(t)
			if err := r.Render(&render2d.Frame{Clear: true, ClearColor: render2d.White}); err != nil {
				t.Fatal(err)
			}
			if err := r.WarmUp(); err != nil {
				t.Fatalf("WarmUp: %v", err)
			}
			w, h := gltest.FramebufferSize()
			got, err := r.ReadPixels(render2d.TargetHandle{}, image.Rect(0, 0, w, h))
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range got.Pix {
				if v != 0 {
					t.Fatalf("after WarmUp byte %d of the window is %d, want a cleared window", i, v)
				}
			}
			renderGolden(t, r, sc.build(t, r), sc.name, false)
		})
	}
}

func TestWarmUpAfterClose(t *testing.T) {
	r := gltest.Renderer(t)
	r.Close()
	if err := r.WarmUp(); err == nil {
		t.Fatal("WarmUp on a closed renderer: no error")
	}
}

// TestWarmUpTargets: after WarmUp, the first render target warms the
// targets' variants, built-in and of every live material, and is handed
// over cleared; a material made after it is warmed in a target too (a
// temporary one, released: the game's targets are the only live ones),
// and draws into a target as on a renderer that never warmed up.
func TestWarmUpTargets(t *testing.T) {
	shade := `return vec4(texel.rgb * params.x, texel.a) * tint.a;`
	draw := func(t *testing.T, warm bool) *image.RGBA {
		r := gltest.Renderer(t)
		if warm {
			if err := r.WarmUp(); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := r.CreateMaterial(render2d.MaterialDesc{Name: "before", Shade: shade}); err != nil {
			t.Fatal(err)
		}
		target, _, err := r.CreateRenderTarget(16, 16, render2d.TextureOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.ReadPixels(target, image.Rect(0, 0, 16, 16))
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range got.Pix {
			if v != 0 {
				t.Fatalf("a new target's byte %d is %d, want a cleared target", i, v)
			}
		}
		m, err := r.CreateMaterial(render2d.MaterialDesc{Name: "after", Shade: shade})
		if err != nil {
			t.Fatal(err)
		}
		if n := glrender.Textures(r); n != 1 {
			t.Fatalf("%d live textures after CreateMaterial, want the game's target's 1", n)
		}
		q := mustTexture(t, r, quadrants(), render2d.TextureOptions{Filter: render2d.FilterNearest})
		s := sprite(q, 0, 0, 16, 16)
		s.Material, s.Params = m, [4]float32{0.5}
		if err := r.Render(&render2d.Frame{Passes: []render2d.Pass{{PassDesc: render2d.PassDesc{Target: target, Clear: true, ClearColor: grey},
			Packets: []render2d.DrawPacket2D{s}}}}); err != nil {
			t.Fatal(err)
		}
		img, err := r.ReadPixels(target, image.Rect(0, 0, 16, 16))
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	cold, warm := draw(t, false), draw(t, true)
	if !bytes.Equal(cold.Pix, warm.Pix) {
		t.Fatal("a material drawn into a target after the warm-up differs from one on a renderer that never warmed up")
	}
}
