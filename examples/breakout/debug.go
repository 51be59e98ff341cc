package main

import (
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// Debug drawing (game.debug = true): every body's collision box, the
// ball's circle and where its velocity takes it in a tenth of a second,
// drawn with ctx.Draw on top of the scene. The drawings last until the
// next tick starts, so the system draws them every tick; it is not
// cosmetic, since a tick that skipped it would show no boxes.

var (
	boxColour      = render2d.RGBA8(0, 255, 120, 200)
	velocityColour = render2d.RGBA8(255, 80, 80, 255)
)

func (g *game) drawDebug(ctx *ecs.Sys) {
	q := g.bodies.Query()
	for q.Next() {
		t, b := q.Get()
		r := box(t, b)
		ctx.Draw.Rect(geom.Rect{X: r.X, Y: r.Y, W: r.W, H: r.H}, 1, boxColour)
	}
	bq := g.balls.Query()
	for bq.Next() {
		t, b, ball := bq.Get()
		c := geom.Vec2{X: t.Position.X + b.Size.X/2, Y: t.Position.Y + b.Size.Y/2}
		ctx.Draw.Circle(c, b.Size.X/2+2, 1, boxColour)
		ctx.Draw.Line(c, geom.Vec2{X: c.X + ball.Vel.X/10, Y: c.Y + ball.Vel.Y/10}, 1, velocityColour)
	}
}
