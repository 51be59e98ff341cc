// Command ebitenshapes draws the shape benchmark's scene (package scene)
// with Ebitengine's vector package and prints one result line:
//
//	ebitenshapes -kind lines|circles -n 1000 [-frames 300] [-aa=false]
//
// It opens an 800x600 window with vsync off; run it and metronomeshapes
// on the same machine (bench/run.sh runs both).
package main

import (
	"errors"
	"flag"
	"fmt"
	"image/color"
	"os"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"github.com/metronome-go/metronome/bench/internal/scene"
)

type game struct {
	kind           string
	aa             bool
	n, warm, total int
	frame          int
	t0             time.Time
	c0             time.Duration
	res            scene.Result
}

var errDone = errors.New("done")

func (g *game) Update() error {
	if g.frame == g.warm {
		g.t0, g.c0 = time.Now(), scene.CPU()
	}
	if g.frame == g.warm+g.total {
		engine := "ebitengine"
		if !g.aa {
			engine += "-noaa"
		}
		g.res = scene.Result{Engine: engine, Kind: g.kind, N: g.n, Frames: g.total, Wall: time.Since(g.t0), CPU: scene.CPU() - g.c0}
		return errDone
	}
	return nil
}

func (g *game) Draw(screen *ebiten.Image) {
	screen.Fill(color.RGBA{51, 51, 64, 255})
	for i := range g.n {
		x, y := scene.At(i, g.frame)
		r, gg, b, a := scene.Color(i)
		c := color.RGBA{r, gg, b, a}
		if g.kind == "lines" {
			vector.StrokeLine(screen, x, y, x+scene.LineDX, y+scene.LineDY, scene.LineWidth, c, g.aa)
		} else {
			vector.DrawFilledCircle(screen, x, y, scene.Radius, c, g.aa)
		}
	}
	g.frame++
}

func (g *game) Layout(int, int) (int, int) { return scene.W, scene.H }

func main() {
	kind := flag.String("kind", "lines", "lines or circles")
	n := flag.Int("n", 1000, "shapes per frame")
	frames := flag.Int("frames", 300, "frames measured (after 30 to warm up)")
	aa := flag.Bool("aa", true, "antialias (Metronome always does)")
	flag.Parse()
	if *kind != "lines" && *kind != "circles" {
		fmt.Fprintln(os.Stderr, "ebitenshapes: -kind is", *kind, "want lines or circles")
		os.Exit(2)
	}
	ebiten.SetWindowSize(scene.W, scene.H)
	ebiten.SetVsyncEnabled(false)
	ebiten.SetTPS(ebiten.SyncWithFPS)
	g := &game{kind: *kind, aa: *aa, n: *n, warm: 30, total: *frames}
	if err := ebiten.RunGame(g); err != nil && !errors.Is(err, errDone) {
		fmt.Fprintln(os.Stderr, "ebitenshapes:", err)
		os.Exit(1)
	}
	fmt.Println(g.res)
}
