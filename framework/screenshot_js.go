//go:build js

package framework

import (
	"errors"
	"image"
	"image/color"
	"syscall/js"
)

// encodePNG encodes a screenshot (--screenshot) as a PNG file's bytes
// with the browser's own encoder (a 2D canvas's convertToBlob or toBlob),
// so that a page links no PNG encoder: Go's would bring compress/flate's
// compressor, about 100 kB of the module, for this alone. The pixels go
// over unpremultiplied, as image/png writes an *image.RGBA, so an opaque
// picture is the same either way. It waits for the browser's promise, so
// it must not run inside a JavaScript callback (the platform thread's
// DeinitPlatform runs on the program's main goroutine).
func encodePNG(img *image.RGBA) ([]byte, error) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 {
		return nil, errors.New("encoding a PNG: the image is empty")
	}
	pix := make([]byte, 4*w*h)
	i := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.RGBAAt(x, y)
			if c.A != 0xff {
				n := color.NRGBAModel.Convert(c).(color.NRGBA)
				c = color.RGBA{R: n.R, G: n.G, B: n.B, A: n.A}
			}
			pix[i], pix[i+1], pix[i+2], pix[i+3] = c.R, c.G, c.B, c.A
			i += 4
		}
	}
	data := js.Global().Get("Uint8ClampedArray").New(len(pix))
	js.CopyBytesToJS(data, pix)
	g := js.Global()
	var canvas js.Value
	if oc := g.Get("OffscreenCanvas"); oc.Truthy() {
		canvas = oc.New(w, h)
	} else if doc := g.Get("document"); doc.Truthy() {
		canvas = doc.Call("createElement", "canvas")
		canvas.Set("width", w)
		canvas.Set("height", h)
	} else {
		return nil, errors.New("encoding a PNG: this JavaScript host has no canvas (OffscreenCanvas or document)")
	}
	ctx := canvas.Call("getContext", "2d")
	if !ctx.Truthy() {
		return nil, errors.New("encoding a PNG: the browser gave no 2D canvas context")
	}
	ctx.Call("putImageData", g.Get("ImageData").New(data, w, h), 0, 0)

	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	var onBytes, onBlob, onFail js.Func
	onBytes = js.FuncOf(func(_ js.Value, args []js.Value) any {
		u := g.Get("Uint8Array").New(args[0])
		out := make([]byte, u.Get("length").Int())
		js.CopyBytesToGo(out, u)
		done <- result{b: out}
		return nil
	})
	onFail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "the browser refused"
		if len(args) > 0 && args[0].Truthy() {
			msg = args[0].Call("toString").String()
		}
		done <- result{err: errors.New("encoding a PNG: " + msg)}
		return nil
	})
	onBlob = js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 || !args[0].Truthy() {
			done <- result{err: errors.New("encoding a PNG: the canvas gave no image")}
			return nil
		}
		args[0].Call("arrayBuffer").Call("then", onBytes, onFail)
		return nil
	})
	defer onBytes.Release()
	defer onBlob.Release()
	defer onFail.Release()
	if canvas.Get("convertToBlob").Truthy() {
		canvas.Call("convertToBlob", map[string]any{"type": "image/png"}).Call("then", onBlob, onFail)
	} else {
		canvas.Call("toBlob", onBlob, "image/png")
	}
	r := <-done
	return r.b, r.err
}
