package main

import (
	"strconv"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// The view: the logical screen of config.toml, in world pixels.
const viewW, viewH = 480, 270

// hudOrigin is where the HUD lives in the world: far from the level, so
// the level's camera never sees it, and the HUD's camera sees nothing
// else. Two cameras, two passes: the HUD stays put while the level
// scrolls under it.
var hudOrigin = geom.V(-10000, -10000)

// LevelCamera is a component marking the camera that follows the player.
type LevelCamera struct{}

// Label is a component naming what a HUD text shows.
type Label struct {
	Shows labelKind
}

type labelKind uint8

const (
	coinsLabel labelKind = iota
	bannerLabel
)

// spawnCameras makes the level's camera, which followPlayer moves, and
// the HUD's, drawn after it without clearing.
func (g *game) spawnCameras(ctx *ecs.Sys) {
	e := ctx.Commands.Spawn()
	ecs.With(e, ecs.At(g.cameraFor(geom.V(g.level.start.X, g.level.start.Y))))
	ecs.With(e, ecs.Camera{Anchor: geom.V(0.5, 0.5)})
	ecs.With(e, LevelCamera{})
	h := ctx.Commands.Spawn()
	ecs.With(h, ecs.At(hudOrigin.X, hudOrigin.Y))
	ecs.With(h, ecs.Camera{Order: 1})
}

// cameraFor returns where the level's camera looks to show the player
// at p: centred on the player, but never past the map's edges.
func (g *game) cameraFor(p geom.Vec2) (float32, float32) {
	size := g.level.size
	x := geom.Clamp(p.X, viewW/2, max(viewW/2, size.X-viewW/2))
	y := geom.Clamp(p.Y, viewH/2, max(viewH/2, size.Y-viewH/2))
	return x, y
}

// followPlayer moves the level's camera with the player. The camera is an
// entity with a Transform like the player's, so between ticks both are
// interpolated alike and the player holds still on the screen.
func (g *game) followPlayer(*ecs.Sys) {
	var at geom.Vec2
	q := g.players.Query()
	for q.Next() {
		t, _, _ := q.Get()
		at = t.Position
	}
	c := g.cameras.Query()
	for c.Next() {
		t, _ := c.Get()
		t.Position.X, t.Position.Y = g.cameraFor(at)
	}
}

// spawnHUD makes the coin counter and the banner, on the HUD camera.
func (g *game) spawnHUD(ctx *ecs.Sys) {
	add := func(x, y float32, font assets.Font, width float32, align assets.Align, shows labelKind) {
		e := ctx.Commands.Spawn()
		ecs.With(e, ecs.At(hudOrigin.X+x, hudOrigin.Y+y))
		ecs.With(e, ecs.Text{Font: font, Width: width, Align: align, Layer: hudLayer, Color: render2d.White})
		ecs.With(e, Label{Shows: shows})
	}
	add(8, 6, g.hudFont, 0, assets.AlignLeft, coinsLabel)
	add(0, 90, g.bigFont, viewW, assets.AlignCenter, bannerLabel)
}

// updateHUD writes the coin count and the banner. It is cosmetic, and
// allocates nothing while the count stays the same.
func (g *game) updateHUD(*ecs.Sys) {
	q := g.texts.Query()
	for q.Next() {
		text, l := q.Get()
		switch l.Shows {
		case coinsLabel:
			text.Content = count(text.Content, "COINS ", g.progress.Coins, g.progress.Total)
		case bannerLabel:
			if g.screens.Current() == Cleared {
				text.Content = g.banner
			} else {
				text.Content = ""
			}
		}
	}
}

// count returns prefix and n/of as text, reusing old when it already
// says so: a HUD that does not change allocates nothing.
func count(old, prefix string, n, of int) string {
	var buf [48]byte
	b := strconv.AppendInt(append(buf[:0], prefix...), int64(n), 10)
	b = strconv.AppendInt(append(b, '/'), int64(of), 10)
	if string(b) == old {
		return old
	}
	return string(b)
}

func itoa(n int) string { return strconv.Itoa(n) }

// seconds formats ticks at rate as seconds with one decimal.
func seconds(ticks int, rate ecs.TickRate) string {
	d := time.Duration(ticks) * rate.Step()
	return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + " s"
}
