//go:build js && wasm

package glrender_test

import (
	"syscall/js"
	"testing"

	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// TestConformance runs the conformance suite on the WebGL2 build, on
// both draw paths, in the page TestConformanceInBrowser serves; it logs
// the device and the draw path New chose for it. Every renderer draws on one
// canvas: the canvas hands out the same context each time, and each
// renderer deletes what it made when it closes.
func TestConformance(t *testing.T) {
	doc := js.Global().Get("document")
	if doc.IsUndefined() {
		t.Skip("no document: this test runs in a browser page (TestConformanceInBrowser serves it)")
	}
	canvas := doc.Call("createElement", "canvas")
	canvas.Set("width", 128)
	canvas.Set("height", 128)
	doc.Get("body").Call("appendChild", canvas)
	probe, err := glrender.New(canvas)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("device %q: draw path %v", probe.Device(), probe.DrawPath())
	if want := glrender.ChooseDrawPath(probe.Device()); probe.DrawPath() != want {
		t.Errorf("New chose draw path %v for %q, want %v", probe.DrawPath(), probe.Device(), want)
	}
	probe.Close()
	for _, path := range []glrender.DrawPath{glrender.DrawInstanced, glrender.DrawBatched} {
		t.Run(path.String(), func(t *testing.T) {
			rendertest.TestRenderer(t, func(t *testing.T) render2d.Renderer {
				r, err := glrender.New(canvas)
				if err != nil {
					t.Fatal(err)
				}
				if err := r.SetDrawPath(path); err != nil {
					t.Fatal(err)
				}
				// The viewport, which New reads its size from, is the
				// context's state and may be a previous renderer's: size
				// it as gltest does.
				r.SetFramebufferSize(128, 128)
				return r
			})
		})
	}
}
