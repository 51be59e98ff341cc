package main

import (
	"math"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// The two effects show the two kinds of emitter. Dust is presentation:
// a CosmeticEmitter, not hashed, not rolled back, with a random source of
// its own, so it can never change the game. Sparkles are game state: an
// Emitter stepped from the seeded ctx.Rand, so a replay and a rollback
// show the same sparkles as the first run did (and a sync-test checks it).

// dustEffect puffs from the player's feet while running and on landing.
var dustEffect = ecs.ParticleEffect{
	Rate:     24,
	Lifetime: ecs.DurationRange{Min: 250 * time.Millisecond, Max: 400 * time.Millisecond},
	Speed:    ecs.Range{Min: 10, Max: 30},
	Angle:    ecs.Range{Min: -math.Pi, Max: 0}, // upwards, either side
	Gravity:  geom.V(0, -20),
	Drag:     0.8,
	Size:     ecs.Curve{Start: 2, End: 4},
	Color:    ecs.ColorCurve{Start: render2d.Color{R: 0.85, G: 0.78, B: 0.65, A: 1}, End: render2d.Color{R: 0.85, G: 0.78, B: 0.65, A: 1}},
	// A puff thickens for its first fifth, then thins out: a keyframed
	// curve, "0:0.3, 0.2:0.8, 1:0" as config text.
	Alpha:  ecs.Curve{Start: 0.3, End: 0, Stops: [ecs.MaxCurveStops]ecs.Stop{{At: 0.2, Value: 0.8}}},
	Shape:  ecs.SpawnRect,
	Extent: geom.V(8, 1),
	Layer:  particleLayer,
}

// sparkleEffect bursts where a coin was taken.
var sparkleEffect = ecs.ParticleEffect{
	Lifetime: ecs.DurationRange{Min: 300 * time.Millisecond, Max: 600 * time.Millisecond},
	Speed:    ecs.Range{Min: 30, Max: 90},
	Angle:    ecs.Range{Min: -math.Pi, Max: math.Pi},
	Gravity:  geom.V(0, 120),
	Size:     ecs.Curve{Start: 3, End: 1},
	Color:    ecs.ColorCurve{Start: render2d.Color{R: 1, G: 1, B: 0.7, A: 1}, End: render2d.Color{R: 1, G: 0.75, B: 0.2, A: 1}},
	Alpha:    ecs.Curve{Start: 1, End: 0},
	Shape:    ecs.SpawnCircle,
	Radius:   4,
	Blend:    render2d.BlendAdditive,
	Layer:    particleLayer,
}

// sparkleBurst is the particles one coin gives.
const sparkleBurst = 16

// spawnEffects makes one entity per effect; the systems move them to
// where the effect is wanted. Particles live in the world (not Local), so
// those already emitted stay where they were born.
func (g *game) spawnEffects(ctx *ecs.Sys) error {
	dust, err := ecs.NewCosmeticEmitter(dustEffect, 64)
	if err != nil {
		return err
	}
	dust.Off = true
	sparkle, err := ecs.NewEmitter(sparkleEffect, 128)
	if err != nil {
		return err
	}
	e := ctx.Commands.Spawn()
	ecs.With(e, ecs.At(g.level.start.X, g.level.start.Y))
	ecs.With(e, dust)
	e = ctx.Commands.Spawn()
	ecs.With(e, ecs.At(g.level.start.X, g.level.start.Y))
	ecs.With(e, sparkle)
	return nil
}

// updateDust keeps the dust at the player's feet: on while running on the
// ground, a puff on landing.
func (g *game) updateDust(c geom.Vec2, p *Player, wasGrounded bool) {
	q := g.dust.Query()
	for q.Next() {
		t, e := q.Get()
		t.Position = geom.V(c.X, c.Y+playerHalfH)
		e.Off = !p.Grounded || p.Vel.X == 0
		if p.Grounded && !wasGrounded {
			e.Burst = 6
		}
	}
}

// sparkleAt bursts sparkles at at.
func (g *game) sparkleAt(at geom.Vec2) {
	q := g.sparkle.Query()
	for q.Next() {
		t, e := q.Get()
		t.Position = at
		e.Burst += sparkleBurst
	}
}
