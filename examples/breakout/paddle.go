package main

import (
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
)

// The paddle's size on the sheet and where it rides.
const (
	paddleW, paddleH = 104, 16
	paddleY          = 500
)

// Paddle is a component: the player's bat. Its width is in its Body; the
// sprite stretches to it.
type Paddle struct{}

func (g *game) spawnPaddle(ctx *ecs.Sys) {
	e := ctx.Commands.Spawn()
	ecs.With(e, ecs.At((fieldW-paddleW)/2, paddleY))
	ecs.With(e, Body{Size: geom.V(paddleW, paddleH)})
	ecs.With(e, Paddle{})
	ecs.With(e, g.sprite("paddle", 2))
}

// movePaddle steers by the "move" axis: its integral over the tick, so a
// stick half over moves at half speed and a key tap shorter than a tick
// still moves a little. In demo mode the computer steers instead.
func (g *game) movePaddle(ctx *ecs.Sys) {
	dt := ctx.RunDelta()
	step := float32(g.settings.PaddleSpeed * ctx.RunDeltaSeconds())
	var ball geom.Rect
	if q := g.balls.Query(); q.Next() {
		t, b, _ := q.Get()
		ball = box(t, b)
		q.Close()
	}
	q := g.paddles.Query()
	for q.Next() {
		t, b, _, _ := q.Get()
		var dx float32
		if g.settings.Demo {
			// Meet the ball a quarter of the way in from one end or the
			// other (by the bricks left), for returns at ±30 degrees.
			// While serving, the ball rides on the paddle: nothing to chase.
			if g.screens.Current() == Playing {
				at := 0.25 + float32(0.5*float32(g.progress.Bricks%2))
				want := ball.Center().X - (t.Position.X + float32(b.Size.X*at))
				dx = geom.Clamp(want, -step, step)
			}
		} else if ctx.Input != nil {
			dx = float32(g.settings.PaddleSpeed * ctx.Input.SimulationSeconds(g.move, dt))
		}
		t.Position.X = geom.Clamp(t.Position.X+dx, 0, fieldW-b.Size.X)
	}
	if g.screens.Current() == Serve {
		g.restBall(false)
	}
}

// setPaddleWidth resizes the paddle about its centre, staying on the
// field; the sprite stretches the sheet's paddle to the new width.
func (g *game) setPaddleWidth(w float32) {
	q := g.paddles.Query()
	for q.Next() {
		t, b, _, s := q.Get()
		centre := t.Position.X + b.Size.X/2
		b.Size.X = w
		s.Size = b.Size
		t.Position.X = geom.Clamp(centre-w/2, 0, fieldW-w)
	}
}
