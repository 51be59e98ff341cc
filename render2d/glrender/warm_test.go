//go:build !js

package glrender_test

import (
	"image"
	"testing"

	"github.com/metronome-go/metronome/render2d"
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
