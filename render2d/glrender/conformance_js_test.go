//go:build js && wasm

package glrender_test

import (
	"syscall/js"
	"testing"

	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// TestConformance runs the conformance suite on the WebGL2 build, in the
// page TestConformanceInBrowser serves. Every renderer draws on one
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
	rendertest.TestRenderer(t, func(t *testing.T) render2d.Renderer {
		r, err := glrender.New(canvas)
		if err != nil {
			t.Fatal(err)
		}
		// The viewport, which New reads its size from, is the context's
		// state and may be a previous renderer's: size it as gltest does.
		r.SetFramebufferSize(128, 128)
		return r
	})
}
