//go:build js && wasm

// Command metronomebunny is the Metronome side of the browser bunnymark:
// a WebAssembly page drawing n moving bunnies (package bunnies) through
// render2d's frame slots and render2d/glrender's WebGL2 build, one frame
// per animation frame. The page's address gives n, the bunny size and,
// optionally, the renderer's draw path (?n=10000&size=8&path=instanced;
// without path, the one glrender chose for the device). It counts frames
// drawn in the page's global bench.frames, names the device and draw
// path in bench.device and bench.path, and the time glrender's WarmUp
// took in bench.warmMs. bench/browserbunny builds, serves
// and measures it.
package main

import (
	"strconv"
	"syscall/js"

	"github.com/metronome-go/metronome/bench/internal/bunnies"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender"
)

func main() {
	global := js.Global()
	bench := global.Get("bench")
	fail := func(err error) { bench.Set("error", err.Error()) }
	q := global.Get("URLSearchParams").New(global.Get("location").Get("search"))
	n, size := param(q, "n", 1000), param(q, "size", 8)

	doc := global.Get("document")
	canvas := doc.Call("createElement", "canvas")
	w, h := global.Get("innerWidth").Int(), global.Get("innerHeight").Int()
	canvas.Set("width", w)
	canvas.Set("height", h)
	st := canvas.Get("style")
	st.Set("display", "block")
	doc.Get("body").Call("appendChild", canvas)

	r, err := glrender.New(canvas)
	if err != nil {
		fail(err)
		return
	}
	switch p := q.Call("get", "path"); {
	case p.Type() != js.TypeString:
	case p.String() == glrender.DrawInstanced.String():
		err = r.SetDrawPath(glrender.DrawInstanced)
	case p.String() == glrender.DrawBatched.String():
		err = r.SetDrawPath(glrender.DrawBatched)
	}
	if err == nil {
		t0 := global.Get("performance").Call("now").Float()
		err = r.WarmUp()
		bench.Set("warmMs", global.Get("performance").Call("now").Float()-t0)
	}
	if err != nil {
		fail(err)
		return
	}
	bench.Set("device", r.Device())
	bench.Set("path", r.DrawPath().String())
	r.SetFramebufferSize(w, h)
	tex, err := r.CreateTexture(bunnies.Image(size), render2d.TextureOptions{Filter: render2d.FilterNearest})
	if err != nil {
		fail(err)
		return
	}
	b := bunnies.New(n, size, float32(w), float32(h))
	slots := render2d.NewSlots(render2d.Sequential, render2d.SlotOptions{})
	sz := geom.Vec2{X: b.Size, Y: b.Size}
	frames, last := 0, -1.0
	var step js.Func
	step = js.FuncOf(func(_ js.Value, args []js.Value) any {
		now := args[0].Float()
		if last >= 0 {
			b.Step(float32((now - last) / 1000))
		}
		last = now
		fw, _ := slots.Begin()
		ps := fw.BeginPass(render2d.PassDesc{Clear: true, ClearColor: render2d.Color{R: 0.1, G: 0.1, B: 0.15, A: 1}}).Append(n)
		for i := range ps {
			p := &ps[i]
			p.Texture = tex
			p.Transform.Position = geom.Vec2{X: b.Pos[2*i], Y: b.Pos[2*i+1]}
			p.Transform.Scale = geom.Vec2{X: 1, Y: 1}
			p.Size = sz
			p.Tint = render2d.White
		}
		slots.Publish(fw)
		f, _ := slots.Acquire()
		f.Present.Alpha = 1
		if err := r.Render(f); err != nil {
			fail(err)
			return nil
		}
		frames++
		bench.Set("frames", frames)
		global.Call("requestAnimationFrame", step)
		return nil
	})
	global.Call("requestAnimationFrame", step)
	select {} // the page's animation frames run the loop
}

func param(q js.Value, name string, def int) int {
	if v := q.Call("get", name); v.Type() == js.TypeString {
		if n, err := strconv.Atoi(v.String()); err == nil && n > 0 {
			return n
		}
	}
	return def
}
