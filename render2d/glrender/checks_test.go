//go:build !js && !gldebug

package glrender_test

import (
	"strings"
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/internal/gl"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender"
	"github.com/metronome-go/metronome/render2d/glrender/gltest"
)

func checksFrame() *render2d.Frame {
	return &render2d.Frame{Clear: true, Passes: []render2d.Pass{
		{Packets: []render2d.DrawPacket2D{render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{X: 8, Y: 8}, geom.Vec2{X: 4, Y: 4})}},
		{Packets: []render2d.DrawPacket2D{render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{X: 20, Y: 8}, geom.Vec2{X: 4, Y: 4})}},
	}}
}

// TestRenderAsksForErrorsAfterChangesOnly: Render asks GL for errors in
// the first frames after the renderer is made and after a change to its
// resources or framebuffer size, and not in the frames after those (in a
// browser every question is a round trip to the GPU process).
func TestRenderAsksForErrorsAfterChangesOnly(t *testing.T) {
	r := gltest.Renderer(t)
	asked := 0
	glrender.SetGetError(t, func() uint32 { asked++; return gl.GetError() })
	f := checksFrame()
	frames := func(n int) int {
		t.Helper()
		asked = 0
		for range n {
			if err := r.Render(f); err != nil {
				t.Fatal(err)
			}
		}
		return asked
	}
	// gltest's renderer may have drawn already: let its checks run out.
	frames(glrender.CheckFrames)
	if got := frames(20); got != 0 {
		t.Errorf("20 frames in steady state asked for GL errors %d times, want 0", got)
	}
	changes := []struct {
		name   string
		change func()
	}{
		{"a new render target", func() {
			if _, _, err := r.CreateRenderTarget(8, 8, render2d.TextureOptions{}); err != nil {
				t.Fatal(err)
			}
		}},
		{"a new material", func() {
			if _, err := r.CreateMaterial(render2d.MaterialDesc{Name: "m", Shade: "return texel;"}); err != nil {
				t.Fatal(err)
			}
		}},
		{"a new framebuffer size", func() { r.SetFramebufferSize(100, 90) }},
	}
	for _, c := range changes {
		c.change()
		// The clear and two passes, in each of the checked frames.
		if got, want := frames(glrender.CheckFrames), 3*glrender.CheckFrames; got < want {
			t.Errorf("after %s, %d frames asked %d times, want at least %d (the clear and each pass)", c.name, glrender.CheckFrames, got, want)
		}
		if got := frames(5); got != 0 {
			t.Errorf("after %s had been checked, 5 more frames asked %d times, want 0", c.name, got)
		}
	}
	r.SetFramebufferSize(gltest.FramebufferSize())
}

// TestRenderReportsErrorInCheckedFrame: an error GL reports in a checked
// frame stops the frame and names the pass.
func TestRenderReportsErrorInCheckedFrame(t *testing.T) {
	r := gltest.Renderer(t)
	calls := 0
	// The clear is fine; pass 1 raises an error.
	glrender.SetGetError(t, func() uint32 {
		calls++
		if calls == 3 {
			return gl.INVALID_OPERATION
		}
		return gl.GetError()
	})
	r.SetFramebufferSize(100, 100) // a change: the next frames are checked
	err := r.Render(checksFrame())
	r.SetFramebufferSize(gltest.FramebufferSize())
	if err == nil || !strings.Contains(err.Error(), "pass 1") || !strings.Contains(err.Error(), "GL_INVALID_OPERATION") {
		t.Errorf("Render with GL_INVALID_OPERATION after pass 1: %v, want an error naming pass 1 and GL_INVALID_OPERATION", err)
	}
}

// TestWarmUpAsksForErrorsOnce: the warm-up's frame of every program
// variant asks GL for errors once at its end, not after each of its
// passes (in a browser each question waits for the GPU process to run
// everything queued before it, which made the warm-up's passes wait one
// by one).
func TestWarmUpAsksForErrorsOnce(t *testing.T) {
	r := gltest.Renderer(t)
	asked := 0
	glrender.SetGetError(t, func() uint32 { asked++; return gl.GetError() })
	if err := r.WarmUp(); err != nil {
		t.Fatal(err)
	}
	t.Logf("WarmUp asked for GL errors %d times", asked)
	if asked > 1 {
		t.Errorf("WarmUp asked for GL errors %d times, want once", asked)
	}
}
