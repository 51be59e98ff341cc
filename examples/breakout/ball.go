package main

import (
	"math"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
)

const (
	// ballSize is the ball's box: it collides as a square.
	ballSize = 12
	// maxAngle is how far from straight up the paddle sends the ball when
	// it hits the paddle's very end; the centre sends it straight up.
	maxAngle = 60 * math.Pi / 180
	// maxBounces caps the contacts resolved in one tick (a ball in a corner
	// meets two walls in one step).
	maxBounces = 8
)

// Ball is a component: the ball's velocity in logical pixels per second.
type Ball struct {
	Vel geom.Vec2
}

// targetKind says what the ball hit.
type targetKind uint8

const (
	wall targetKind = iota
	paddle
	brick
)

// target is one box the ball can hit this tick.
type target struct {
	box    geom.Rect
	kind   targetKind
	entity ecs.Entity
	points int
	gone   bool // broken earlier in this tick
}

// walls are the field's left, right and top sides, as thick boxes outside
// it: thick so that nothing can pass through them. The bottom is open.
var walls = [...]geom.Rect{
	{X: -200, Y: -200, W: 200, H: fieldH + 400},
	{X: fieldW, Y: -200, W: 200, H: fieldH + 400},
	{X: -200, Y: -200, W: fieldW + 400, H: fieldTop + 200},
}

func (g *game) spawnBall(ctx *ecs.Sys) {
	e := ctx.Commands.Spawn()
	ecs.With(e, ecs.At((fieldW-ballSize)/2, paddleY-ballSize))
	ecs.With(e, Body{Size: geom.V(ballSize, ballSize)})
	ecs.With(e, Ball{})
	s := g.sprite("ball", 3)
	s.Hidden = true // until the first serve
	ecs.With(e, s)
}

// restBall puts the ball on the middle of the paddle and shows it. jump
// says the ball comes from elsewhere (a lost ball, a new game): it is
// teleported, so the frame does not slide it there from where it was, and
// stopped until the launch; following the paddle while it waits is
// ordinary motion.
func (g *game) restBall(jump bool) {
	var on geom.Rect
	p := g.paddles.Query()
	for p.Next() {
		t, b, _, _ := p.Get()
		on = box(t, b)
	}
	q := g.balls.Query()
	for q.Next() {
		t, _, b := q.Get()
		t.Position = geom.Vec2{X: on.Center().X - ballSize/2, Y: on.Y - ballSize}
		if jump {
			t.Teleport()
			b.Vel = geom.Vec2{}
		}
	}
	g.showBall(true)
}

// showBall shows or hides the ball's sprite.
func (g *game) showBall(show bool) {
	q := g.ballSprites.Query()
	for q.Next() {
		q.Get().Hidden = !show
	}
}

// launch is the serve, on the eventLaunch the timers deliver when the
// serve delay is up: the ball leaves upwards at a random angle of up to 30
// degrees (ctx.Rand is seeded by Game.Seed, so a replay serves the same).
func (g *game) launch(ctx *ecs.Sys) {
	if g.screens.Current() != Serve {
		return
	}
	angle := (float64(ctx.Rand.Float64()*2) - 1) * math.Pi / 6
	q := g.balls.Query()
	for q.Next() {
		_, _, b := q.Get()
		b.Vel = velocity(float32(g.settings.BallSpeed), angle)
	}
	g.play(ctx, g.sounds.paddle)
	g.screens.Set(Playing)
}

// velocity points speed at angle radians from straight up (y grows down).
func velocity(speed float32, angle float64) geom.Vec2 {
	return geom.V(speed*float32(math.Sin(angle)), -speed*float32(math.Cos(angle)))
}

// moveBall moves the ball by its velocity for one tick with swept boxes:
// each step finds the first box in its way over the whole move
// (geom.Rect.Sweep), stops there, bounces and goes on with what is left of
// the move. However fast the ball, it cannot skip a brick between ticks.
func (g *game) moveBall(ctx *ecs.Sys) {
	g.collectTargets()
	lost := false
	q := g.balls.Query()
	for q.Next() {
		t, body, ball := q.Get()
		g.fly(ctx, t, body, ball, float32(ctx.RunDeltaSeconds()))
		lost = lost || t.Position.Y > fieldH
	}
	switch {
	case g.progress.Bricks == 0:
		g.screens.Set(Won)
	case lost:
		g.lostBall(ctx)
	}
}

// collectTargets lists the walls, the paddle and the standing bricks.
func (g *game) collectTargets() {
	g.targets = g.targets[:0]
	for _, w := range walls {
		g.targets = append(g.targets, target{box: w, kind: wall})
	}
	p := g.paddles.Query()
	for p.Next() {
		t, b, _, _ := p.Get()
		g.targets = append(g.targets, target{box: box(t, b), kind: paddle, entity: p.Entity()})
	}
	q := g.bricks.Query()
	for q.Next() {
		t, b, br := q.Get()
		g.targets = append(g.targets, target{box: box(t, b), kind: brick, entity: q.Entity(), points: br.Points})
	}
}

// fly moves one ball through dt seconds, bouncing off what it meets.
func (g *game) fly(ctx *ecs.Sys, t *ecs.Transform, body *Body, ball *Ball, dt float32) {
	left := dt // seconds of the move still to go
	for range maxBounces {
		move := ball.Vel.Scale(left)
		r := box(t, body)
		first, hit := -1, geom.Hit{}
		for i := range g.targets {
			if g.targets[i].gone {
				continue
			}
			if h, ok := r.Sweep(move, g.targets[i].box); ok && (first < 0 || h.Time < hit.Time) {
				first, hit = i, h
			}
		}
		if first < 0 { // a free flight to the end of the tick
			t.Position = t.Position.Add(move)
			return
		}
		tg := &g.targets[first]
		if hit.Overlapping {
			// Already inside: the paddle moved into the ball. Step out the
			// shortest way; bounce only if the ball was heading in.
			out, _ := r.Penetration(tg.box)
			t.Position = t.Position.Add(out)
			if ball.Vel.Dot(hit.Normal) >= 0 {
				continue
			}
		} else {
			t.Position = t.Position.Add(move.Scale(hit.Time))
			left *= 1 - hit.Time
		}
		g.bounce(ctx, ball, tg, hit.Normal, box(t, body))
	}
}

// bounce turns the ball off what it hit and scores a brick.
func (g *game) bounce(ctx *ecs.Sys, ball *Ball, tg *target, normal geom.Vec2, at geom.Rect) {
	switch tg.kind {
	case wall:
		ball.Vel = ball.Vel.Reflect(normal)
		g.play(ctx, g.sounds.wall)
	case paddle:
		if normal.Y < 0 { // the top face: aim by where it landed
			half := tg.box.W/2 + ballSize/2
			offset := geom.Clamp((at.Center().X-tg.box.Center().X)/half, -1, 1)
			ball.Vel = velocity(ball.Vel.Len(), float64(offset)*maxAngle)
		} else {
			ball.Vel = ball.Vel.Reflect(normal)
		}
		g.play(ctx, g.sounds.paddle)
	case brick:
		ball.Vel = ball.Vel.Reflect(normal)
		tg.gone = true
		ctx.Commands.Despawn(tg.entity)
		g.progress.Score += tg.points
		g.progress.Bricks--
		g.play(ctx, g.sounds.brick)
		if ctx.Rand.Float64() < g.settings.PowerUpChance {
			g.dropCapsule(ctx, tg.box.Center())
		}
	}
}
