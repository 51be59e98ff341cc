//go:build js && wasm

package glrender_test

import (
	"strings"
	"syscall/js"
	"testing"

	"github.com/metronome-go/metronome/render2d/glrender"
)

// TestNewTakesThePagesContext: a canvas whose context the page made with
// New's attributes gets a renderer on that context; one made with other attributes is
// refused with an error naming the attribute, not drawn on as if it were
// New's. Runs in the page TestConformanceInBrowser serves.
func TestNewTakesThePagesContext(t *testing.T) {
	doc := js.Global().Get("document")
	if doc.IsUndefined() {
		t.Skip("no document: this test runs in a browser page (TestConformanceInBrowser serves it)")
	}
	canvas := func(attrs map[string]any) js.Value {
		c := doc.Call("createElement", "canvas")
		c.Set("width", 16)
		c.Set("height", 16)
		if c.Call("getContext", "webgl2", attrs).IsNull() {
			t.Fatal("no WebGL2 context")
		}
		return c
	}
	same := map[string]any{"alpha": true, "antialias": false, "premultipliedAlpha": true, "preserveDrawingBuffer": false, "powerPreference": "high-performance"}
	r, err := glrender.New(canvas(same))
	if err != nil {
		t.Fatalf("a page's context with New's attributes: %v", err)
	}
	r.Close()
	other := map[string]any{"alpha": true, "antialias": false, "premultipliedAlpha": true, "preserveDrawingBuffer": true}
	if _, err := glrender.New(canvas(other)); err == nil || !strings.Contains(err.Error(), "preserveDrawingBuffer") {
		t.Errorf("a page's context with preserveDrawingBuffer: true: error %v, want one naming preserveDrawingBuffer", err)
	}
}
