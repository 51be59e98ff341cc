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
	if err := gl.Init(c); err != nil {
		return nil, fmt.Errorf("glrender: %w", err)
	}
	return newRenderer()
}
