package main

import (
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/shape"
)

type geom2 = geom.Vec2

// Ship is a player's ship. Facing is one of the eight directions of
// facings; Reload counts the ticks until the ship may fire again, Flash
// those it shows a hit.
type Ship struct {
	Player int32
	Facing int32
	Reload int32
	Flash  int32
}

// Shot is a projectile: who fired it, its motion per tick and the ticks
// it has left.
type Shot struct {
	Owner int32
	Step  geom.Vec2
	Life  int32
}

// facings are the eight directions a ship points in, as unit vectors and
// as rotations (y points down, so a positive rotation turns clockwise):
// constants, so no machine computes a sine of its own.
var facings = [8]struct {
	dir geom.Vec2
	rot float32
}{
	{geom.V(1, 0), 0},
	{geom.V(0.70710677, 0.70710677), 0.7853982},
	{geom.V(0, 1), 1.5707964},
	{geom.V(-0.70710677, 0.70710677), 2.3561945},
	{geom.V(-1, 0), 3.1415927},
	{geom.V(-0.70710677, -0.70710677), -2.3561945},
	{geom.V(0, -1), -1.5707964},
	{geom.V(0.70710677, -0.70710677), -0.7853982},
}

// facingOf maps a stick of -1, 0, 1 on each axis (dy+1, dx+1) to a
// facing; -1 for none.
var facingOf = [3][3]int32{
	{5, 6, 7},
	{4, -1, 0},
	{3, 2, 1},
}

const (
	shipRadius = 14
	shotRadius = 4
	shotLife   = 120 // ticks
	flashTicks = 30
	shipLayer  = 2
	shotLayer  = 1
)

var (
	shipColors = [2]render2d.Color{{R: 0.3, G: 0.8, B: 1, A: 1}, {R: 1, G: 0.6, B: 0.2, A: 1}}
	hitColor   = render2d.Color{R: 1, G: 1, B: 1, A: 1}
	spawnAt    = [2]geom.Vec2{geom.V(120, arenaH/2), geom.V(arenaW-120, arenaH/2)}
	spawnFace  = [2]int32{0, 4}
	shipShape  = shape.Polygon(geom.V(18, 0), geom.V(-12, -12), geom.V(-6, 0), geom.V(-12, 12))
)

// spawnShip places player p's ship at its side of the arena.
func (g *game) spawnShip(ctx *ecs.Sys, p int32) {
	e := ctx.Commands.Spawn()
	t := ecs.At(spawnAt[p].X, spawnAt[p].Y)
	t.Rotation = facings[spawnFace[p]].rot
	ecs.With(e, t)
	ecs.With(e, Ship{Player: p, Facing: spawnFace[p]})
	ecs.With(e, ecs.Shape{Shape: shipShape, Color: shipColors[p], Layer: shipLayer})
}

// sign is an axis's direction: -1, 0 or 1.
func sign(v float32) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// fly moves each ship by its player's input of the tick and fires.
func (g *game) fly(ctx *ecs.Sys) {
	lo, hi := geom.V(margin, margin), geom.V(arenaW-margin, arenaH-margin)
	q := g.ships.Query()
	for q.Next() {
		t, s := q.Get()
		in := g.players.Input(int(s.Player))
		dx, dy := sign(in[actX].Value), sign(in[actY].Value)
		if f := facingOf[dy+1][dx+1]; f >= 0 {
			s.Facing = f
			t.Rotation = facings[f].rot
			t.Position = t.Position.Add(facings[f].dir.Scale(g.shipStep)).Max(lo).Min(hi)
		}
		if s.Reload > 0 {
			s.Reload--
		}
		if s.Flash > 0 {
			s.Flash--
		}
		if in[actFire].Presses > 0 && s.Reload == 0 {
			s.Reload = g.reloadTicks
			dir := facings[s.Facing].dir
			e := ctx.Commands.Spawn()
			at := t.Position.Add(dir.Scale(shipRadius + shotRadius + 2))
			ecs.With(e, ecs.At(at.X, at.Y))
			ecs.With(e, Shot{Owner: s.Player, Step: dir.Scale(g.shotStep), Life: shotLife})
			ecs.With(e, ecs.Shape{Shape: shape.Circle(shotRadius), Color: shipColors[s.Player], Layer: shotLayer})
			g.play(ctx, g.sounds.shot)
		}
	}
}

// moveShots moves every shot, removes those that leave the arena or run
// out, and scores those that hit the other ship.
func (g *game) moveShots(ctx *ecs.Sys) {
	sq := g.ships.Query()
	for sq.Next() {
		t, s := sq.Get()
		g.shipAt[s.Player] = t.Position
	}
	g.hit = [2]bool{}
	const reach = (shipRadius + shotRadius) * (shipRadius + shotRadius)
	q := g.shots.Query()
	for q.Next() {
		t, s := q.Get()
		t.Position = t.Position.Add(s.Step)
		s.Life--
		other := 1 - s.Owner
		switch p := t.Position; {
		case t.Position.Sub(g.shipAt[other]).LenSqr() <= reach && !g.hit[other]:
			g.hit[other] = true
			g.round.Score[s.Owner]++
			ctx.Commands.Despawn(q.Entity())
		case s.Life <= 0 || p.X < 0 || p.Y < 0 || p.X > arenaW || p.Y > arenaH:
			ctx.Commands.Despawn(q.Entity())
		}
	}
	if !g.hit[0] && !g.hit[1] {
		return
	}
	g.play(ctx, g.sounds.hit)
	sq = g.ships.Query()
	for sq.Next() {
		t, s := sq.Get()
		if g.hit[s.Player] {
			s.Flash = flashTicks
			// Knocked back to its side, facing the arena.
			t.Position, t.Rotation, s.Facing = spawnAt[s.Player], facings[spawnFace[s.Player]].rot, spawnFace[s.Player]
			t.Teleport()
		}
	}
}
