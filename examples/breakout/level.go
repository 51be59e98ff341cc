package main

import (
	"embed"
	"fmt"
	"image"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
)

// art holds the game's images. Embedding them keeps the game one file to
// ship; assets load from any fs.FS, so a test could hand in another.
//
//go:embed assets/sheet.png
var art embed.FS

// The playing field, in logical pixels (window.logical_size in config.toml).
const (
	fieldW, fieldH = 960, 540
	// fieldTop is the top wall's face; the HUD lives above it.
	fieldTop = 48
)

// Brick layout: the sheet's brick size, the gap between bricks and where
// the first row starts.
const (
	brickW, brickH = 72, 24
	brickGap       = 6
	bricksTop      = 72
	brickColours   = 6 // rows of the sheet, one per colour
)

// sheetSpec cuts assets/sheet.png into named regions: one brick per colour
// ("brick0" at the top), the paddle, the ball and the power-up capsule.
// sheet_test.go draws the sheet and checks the PNG matches.
var sheetSpec = assets.SheetSpec{Regions: sheetRegions()}

func sheetRegions() map[string]image.Rectangle {
	regions := map[string]image.Rectangle{
		"paddle":  image.Rect(72, 0, 72+paddleW, paddleH),
		"ball":    image.Rect(72, 16, 72+ballSize, 16+ballSize),
		"capsule": image.Rect(88, 16, 88+capsuleW, 16+capsuleH),
	}
	for i := range brickColours {
		regions[brickRegion(i)] = image.Rect(0, i*brickH, brickW, (i+1)*brickH)
	}
	return regions
}

// brickRegion names the sheet region of brick colour i.
func brickRegion(i int) string { return fmt.Sprintf("brick%d", i) }

// Brick is a component: one brick of the wall, worth Points.
type Brick struct {
	Points int
}

// Body is a component: the size of an entity's box. Its Transform's
// Position is the box's top-left corner, so the two make a geom.Rect.
type Body struct {
	Size geom.Vec2
}

// box returns the rectangle an entity covers.
func box(t *ecs.Transform, b *Body) geom.Rect {
	return geom.Rect{X: t.Position.X, Y: t.Position.Y, W: b.Size.X, H: b.Size.Y}
}

// spawnLevel queues a fresh wall of rows x columns bricks, centred, top
// rows worth most, and returns how many it spawned.
func (g *game) spawnLevel(ctx *ecs.Sys) int {
	rows, cols := g.settings.Rows, g.settings.Columns
	width := cols*(brickW+brickGap) - brickGap
	left := float32(fieldW-width) / 2
	for r := range rows {
		// The bottom row is always brick0; higher rows take the next
		// colours, so a smaller wall keeps the colours of the bottom rows.
		colour := rows - 1 - r
		for c := range cols {
			e := ctx.Commands.Spawn()
			ecs.With(e, ecs.At(left+float32(c*(brickW+brickGap)), float32(bricksTop+r*(brickH+brickGap))))
			ecs.With(e, Body{Size: geom.V(brickW, brickH)})
			ecs.With(e, Brick{Points: 10 * (rows - r)})
			ecs.With(e, g.sprite(brickRegion(colour), 1))
		}
	}
	return rows * cols
}

// clearLevel queues the despawn of every brick and falling capsule.
func (g *game) clearLevel(ctx *ecs.Sys) {
	q := g.bricks.Query()
	for q.Next() {
		ctx.Commands.Despawn(q.Entity())
	}
	c := g.capsules.Query()
	for c.Next() {
		ctx.Commands.Despawn(c.Entity())
	}
}
