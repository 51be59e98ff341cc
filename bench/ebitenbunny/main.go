//go:build js && wasm

// Command ebitenbunny is the Ebitengine side of the browser bunnymark: a
// WebAssembly page drawing n moving bunnies (package bunnies) with
// DrawImage, one frame per animation frame. The page's address gives n and
// the bunny size (?n=10000&size=8); it counts frames drawn in the page's
// global bench.frames. bench/browserbunny builds, serves and measures it.
package main

import (
	"image/color"
	"strconv"
	"syscall/js"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/metronome-go/metronome/bench/internal/bunnies"
)

type game struct {
	b      *bunnies.Bunnies
	n      int
	size   int
	img    *ebiten.Image
	last   time.Time
	frames int
	bench  js.Value
	op     ebiten.DrawImageOptions
	w, h   int // the canvas, from Layout
}

var bg = color.RGBA{0x1a, 0x1a, 0x26, 0xff}

func (g *game) Update() error {
	now := time.Now()
	if g.b == nil {
		if g.w == 0 || g.h == 0 {
			return nil
		}
		g.b = bunnies.New(g.n, g.size, float32(g.w), float32(g.h))
		g.last = now
	}
	g.b.Step(float32(now.Sub(g.last).Seconds()))
	g.last = now
	return nil
}

func (g *game) Draw(screen *ebiten.Image) {
	if g.b == nil {
		return
	}
	screen.Fill(bg)
	pos := g.b.Pos
	for i := 0; i+1 < len(pos); i += 2 {
		g.op.GeoM.Reset()
		g.op.GeoM.Translate(float64(pos[i]), float64(pos[i+1]))
		screen.DrawImage(g.img, &g.op)
	}
	g.frames++
	g.bench.Set("frames", g.frames)
}

func (g *game) Layout(w, h int) (int, int) {
	g.w, g.h = w, h
	return w, h
}

func main() {
	q := js.Global().Get("URLSearchParams").New(js.Global().Get("location").Get("search"))
	g := &game{n: param(q, "n", 1000), size: param(q, "size", 8), bench: js.Global().Get("bench")}
	g.img = ebiten.NewImageFromImage(bunnies.Image(g.size))
	ebiten.SetTPS(ebiten.SyncWithFPS) // one update per frame, as the Metronome page
	if err := ebiten.RunGame(g); err != nil {
		g.bench.Set("error", err.Error())
	}
}

func param(q js.Value, name string, def int) int {
	if v := q.Call("get", name); v.Type() == js.TypeString {
		if n, err := strconv.Atoi(v.String()); err == nil && n > 0 {
			return n
		}
	}
	return def
}
