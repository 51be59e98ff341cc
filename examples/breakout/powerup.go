package main

import (
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
)

const (
	capsuleW, capsuleH = 36, 14
	// capsuleSpeed is how fast a capsule falls, in logical pixels a second.
	capsuleSpeed = 150
	// wideFactor is how much wider the wide paddle is.
	wideFactor = 1.5
)

// Capsule is a component: a falling power-up. Catch it with the paddle
// for a wide paddle.
type Capsule struct{}

// dropCapsule queues a capsule falling from a broken brick's centre.
func (g *game) dropCapsule(ctx *ecs.Sys, from geom.Vec2) {
	e := ctx.Commands.Spawn()
	ecs.With(e, ecs.At(from.X-capsuleW/2, from.Y-capsuleH/2))
	ecs.With(e, Body{Size: geom.V(capsuleW, capsuleH)})
	ecs.With(e, Capsule{})
	ecs.With(e, g.sprite("capsule", 2))
}

// moveCapsules lets capsules fall; the paddle catches one by touching it,
// and one that leaves the field is gone.
func (g *game) moveCapsules(ctx *ecs.Sys) {
	var bat geom.Rect
	p := g.paddles.Query()
	for p.Next() {
		t, b, _, _ := p.Get()
		bat = box(t, b)
	}
	fall := float32(capsuleSpeed * ctx.RunDeltaSeconds())
	caught := false
	q := g.capsules.Query()
	for q.Next() {
		t, b, _ := q.Get()
		// A capsule is slow: a plain overlap test per tick cannot miss.
		t.Position.Y += fall
		switch r := box(t, b); {
		case r.Intersects(bat):
			caught = true
			ctx.Commands.Despawn(q.Entity())
		case r.Y > fieldH:
			ctx.Commands.Despawn(q.Entity())
		}
	}
	if caught {
		g.widen(ctx)
	}
}

// widen makes the paddle wide and schedules its return to normal (eventNarrow) on the
// gameplay queue, WideTime from now in ticks (ctx.TicksFor: 120 a second at
// 120 Hz). The queue counts only ticks of play, so a pause holds it, and a
// replay narrows the paddle on the same tick. A second capsule while wide
// starts the time again.
func (g *game) widen(ctx *ecs.Sys) {
	g.play(ctx, g.sounds.powerUp)
	g.setPaddleWidth(paddleW * wideFactor)
	ctx.Queue.Cancel(g.progress.Narrow)
	h, err := ctx.Queue.After(ctx.TicksFor(g.settings.WideTime), ecs.Event{Kind: eventNarrow})
	if err != nil {
		ctx.Fail(err)
		return
	}
	g.progress.Narrow = h
}
