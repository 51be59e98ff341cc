//go:build js && wasm

package glrender

import (
	"errors"
	"fmt"
	"syscall/js"

	"github.com/metronome-go/metronome/internal/gl"
)

// ErrNoWebGL2 is [New]'s error in a browser that offers no WebGL2 context
// (WebGL2 switched off, or no graphics driver the browser accepts).
var ErrNoWebGL2 = errors.New("glrender: this browser offers no WebGL2 context (canvas.getContext(\"webgl2\") returned null): WebGL2 may be switched off or the graphics driver blocked; try another browser")

// New returns a renderer drawing into canvas, through a WebGL2 context it
// asks the canvas for: without multisampling, with an alpha channel as
// the desktop's framebuffer has (so a frame reads back the same there and
// here, translucent clears included), premultiplied as the renderer
// blends. The page shows through only where a frame leaves alpha below 1:
// an opaque clear covers it. The
// initial framebuffer size is the canvas's; call SetFramebufferSize when
// the platform resizes it. A browser without WebGL2 gets [ErrNoWebGL2].
// A context the page made on the canvas beforehand is the one New gets:
// it must have these attributes, or New says which differs.
func New(canvas js.Value) (*Renderer, error) {
	if canvas.IsUndefined() || canvas.IsNull() {
		return nil, errors.New("glrender: New: no canvas element")
	}
	attrs := map[string]any{"alpha": true, "antialias": false, "premultipliedAlpha": true,
		"preserveDrawingBuffer": false, "powerPreference": "high-performance"}
	c := canvas.Call("getContext", "webgl2", attrs)
	if c.IsNull() || c.IsUndefined() {
		return nil, ErrNoWebGL2
	}
	if err := checkAttributes(c, attrs); err != nil {
		return nil, err
	}
	if err := gl.Init(c); err != nil {
		return nil, fmt.Errorf("glrender: %w", err)
	}
	return newRenderer()
}

// checkAttributes reports a context whose attributes are not the ones New
// asks for: a page may make the canvas's context before the program runs
// (to start the browser's GPU side while the module downloads, say), and
// getContext then returns that context whatever New asks, so a page
// asking for others would change how frames blend and read back.
func checkAttributes(c js.Value, want map[string]any) error {
	got := c.Call("getContextAttributes")
	if got.IsNull() || got.IsUndefined() {
		return nil // a lost context: the first draw reports it
	}
	for _, k := range []string{"alpha", "antialias", "premultipliedAlpha", "preserveDrawingBuffer"} {
		if g := got.Get(k); g.Type() == js.TypeBoolean && g.Bool() != want[k].(bool) {
			return fmt.Errorf("glrender: the canvas already has a WebGL2 context with %s: %v, and the renderer needs %v (the page made the context with other attributes: make it with those of glrender.New, or not at all)", k, g.Bool(), want[k])
		}
	}
	return nil
}
