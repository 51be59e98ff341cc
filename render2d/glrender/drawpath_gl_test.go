//go:build !js

package glrender_test

import (
	"strings"
	"testing"

	"github.com/metronome-go/metronome/render2d/glrender"
	"github.com/metronome-go/metronome/render2d/glrender/gltest"
)

// TestSetDrawPath: New chooses from the device's name, an unknown path is
// refused with a message naming the allowed ones and changes nothing.
func TestSetDrawPath(t *testing.T) {
	r := gltest.Renderer(t)
	if r.Device() == "" {
		t.Error("Device is empty, want the driver's GL_RENDERER")
	}
	want := glrender.ChooseDrawPath(r.Device())
	if got := r.DrawPath(); got != want {
		t.Errorf("device %q: DrawPath = %v, want %v", r.Device(), got, want)
	}
	err := r.SetDrawPath(9)
	if err == nil || !strings.Contains(err.Error(), "DrawInstanced or DrawBatched") {
		t.Errorf("SetDrawPath(9) = %v, want an error naming the allowed paths", err)
	}
	if got := r.DrawPath(); got != want {
		t.Errorf("after a refused SetDrawPath: DrawPath = %v, want %v", got, want)
	}
	if err := r.SetDrawPath(glrender.DrawBatched); err != nil || r.DrawPath() != glrender.DrawBatched {
		t.Errorf("SetDrawPath(DrawBatched) = %v, DrawPath %v", err, r.DrawPath())
	}
}
