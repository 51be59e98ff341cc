//go:build js && wasm && metronome_testhook

package webplatform

import (
	"syscall/js"
	"time"

	"github.com/metronome-go/metronome/render2d"
)

// hook is the page's view of the session, the JavaScript global
// metronome, for browser tests and measurements. Only a build with the tag
// metronome_testhook has it (cmd/webgame's browser tests build so, with
// --tags metronome_testhook); a game's own build has hook_off.go instead,
// and its page no global, no wrapped renderer and no work per present.
//
//	metronome.presents        frames presented so far
//	metronome.firstPresentMs  performance.now() at the first present (page load is 0)
//	metronome.refreshMs       the animation frame interval measured at start
//	metronome.inputs          key and mouse button records delivered
//	metronome.gamepadRecords  gamepad records (connection, buttons, axes)
//	metronome.sprites()       the last drawn frame's sprites: [x, y, w, h, ...]
//	                          (position, and size times scale, in world units)
//	metronome.onpresent       when the page sets it, a function called after
//	                          each present with the timestamp of the animation
//	                          frame that composites it (for latency figures)
//
// It is written at every present (a few property stores) and read only
// when a page asks.
type hook struct {
	obj      js.Value
	d        *Display
	src      *Source
	frame    *render2d.Frame
	presents int
	sprites  js.Func
}

func newHook(d *Display, src *Source) *hook {
	h := &hook{obj: js.Global().Get("Object").New(), d: d, src: src}
	h.obj.Set("presents", 0)
	h.sprites = js.FuncOf(func(js.Value, []js.Value) any { return h.spriteList() })
	h.obj.Set("sprites", h.sprites)
	js.Global().Set("metronome", h.obj)
	return h
}

// renderer wraps the renderer so that the hook sees each frame drawn.
func (h *hook) renderer(r render2d.Renderer) render2d.Renderer {
	return &hookRenderer{Renderer: r, hook: h}
}

// hookRenderer keeps the frame last drawn, for the hook's sprites.
type hookRenderer struct {
	render2d.Renderer
	hook *hook
}

func (r *hookRenderer) Render(f *render2d.Frame) error {
	r.hook.frame = f
	return r.Renderer.Render(f)
}

func (h *hook) setRefresh(d time.Duration) {
	h.obj.Set("refreshMs", float64(d)/float64(time.Millisecond))
}

// presented counts a present, whose frame the animation frame of
// timestamp at (performance.now() time) composites.
func (h *hook) presented(at float64) {
	h.presents++
	if h.presents == 1 {
		h.obj.Set("firstPresentMs", js.Global().Get("performance").Call("now"))
	}
	h.obj.Set("presents", h.presents)
	h.obj.Set("inputs", h.src.keyed)
	h.obj.Set("gamepadRecords", h.src.padded)
	if f := h.obj.Get("onpresent"); f.Type() == js.TypeFunction {
		f.Invoke(at)
	}
}

// spriteList lists the last drawn frame's sprites. The frame is still
// whole when a page reads it: the browser runs the page's code only while
// the program waits, never while it builds a frame.
func (h *hook) spriteList() any {
	var out []any
	if f := h.frame; f != nil {
		for i := range f.Passes {
			for j := range f.Passes[i].Packets {
				p := &f.Passes[i].Packets[j]
				if p.IsShape() {
					continue
				}
				t := &p.Transform
				out = append(out, t.Position.X, t.Position.Y, p.Size.X*t.Scale.X, p.Size.Y*t.Scale.Y)
			}
		}
	}
	return js.ValueOf(out)
}
