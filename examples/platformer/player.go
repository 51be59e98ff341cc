package main

import (
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
)

// The player's collision box: 12x14 pixels, the figure on its tile. The
// player's Transform is the box's centre, so the sprite turns about it.
const (
	playerHalfW, playerHalfH = 6, 7
	// fallLimit is how far below the map's bottom a fall ends in a respawn.
	fallLimit = 64
)

// Player is a component: the player's motion, all in pixels per tick and
// whole ticks, so that a tick adds and never multiplies.
type Player struct {
	Vel geom.Vec2
	// Grounded says the player stood on a tile at the end of the last tick.
	Grounded bool
	// Coyote counts the ticks left in which a jump still works after
	// leaving the ground; Buffer those in which a jump pressed in the air
	// is still waiting for the ground.
	Coyote, Buffer int
	// Rising is set by a jump and cleared at its top or by letting go of
	// jump: a release while rising halves the speed, for a lower jump.
	Rising bool
}

// tuning is the settings in per-tick units, made once at set-up.
type tuning struct {
	rate               ecs.TickRate
	run, jump, maxFall float32 // pixels per tick
	gravity            float32 // pixels per tick per tick
	coyote, buffer     int     // ticks, at least 1
}

func tuneFor(s *Settings, rate ecs.TickRate) tuning {
	return tuning{
		rate:    rate,
		run:     rate.PerTick(s.RunSpeed),
		jump:    rate.PerTick(s.JumpSpeed),
		maxFall: rate.PerTick(s.MaxFall),
		gravity: rate.PerTick(float64(rate.PerTick(s.Gravity))),
		coyote:  max(1, rate.Ticks(s.CoyoteTime)),
		buffer:  max(1, rate.Ticks(s.JumpBuffer)),
	}
}

func (g *game) spawnPlayer(ctx *ecs.Sys) error {
	r, err := g.level.tm.Region(g.level.playerGID)
	if err != nil {
		return err
	}
	e := ctx.Commands.Spawn()
	ecs.With(e, ecs.At(g.level.start.X, g.level.start.Y-playerHalfH))
	ecs.With(e, Player{})
	s := ecs.SpriteOf(r)
	s.Origin = geom.V(s.Size.X/2, s.Size.Y/2)
	s.Layer = playerLayer
	ecs.With(e, s)
	return nil
}

// respawn puts the player back at the start, standing still. The move is
// a teleport, so the frame does not slide the sprite there.
func (g *game) respawn() {
	q := g.players.Query()
	for q.Next() {
		t, p, _ := q.Get()
		t.Position = geom.V(g.level.start.X, g.level.start.Y-playerHalfH)
		t.Teleport()
		*p = Player{}
	}
}

// playerBox returns the player's collision box.
func (g *game) playerBox() (geom.Rect, bool) {
	q := g.players.Query()
	if !q.Next() {
		return geom.Rect{}, false
	}
	t, _, _ := q.Get()
	q.Close()
	return boxAt(t.Position), true
}

func boxAt(c geom.Vec2) geom.Rect {
	return geom.R(c.X-playerHalfW, c.Y-playerHalfH, 2*playerHalfW, 2*playerHalfH)
}

// movePlayer runs, jumps and falls, then moves the player along each axis
// in turn against the solid rectangles of the map: first across, pushed
// out sideways by what it runs into, then up or down, pushed out
// vertically, which is where landing and bumping a ceiling happen.
// Resolving the axes apart means a corner never catches the player, and a
// step never exceeds a tile (a tick's fall is capped at max_fall), so
// nothing is tunnelled through.
func (g *game) movePlayer(ctx *ecs.Sys) {
	tu := &g.tuning
	in := ctx.Input
	q := g.players.Query()
	for q.Next() {
		t, p, _ := q.Get()
		var move float32
		pressed, down := false, false
		if in != nil {
			move = in.Value(g.move)
			if in.Down(g.left) {
				move--
			}
			if in.Down(g.right) {
				move++
			}
			move = geom.Clamp(move, -1, 1)
			pressed, down = in.Pressed(g.jump), in.Down(g.jump)
		}

		// Coyote time and the jump buffer: a jump happens when both a
		// press and the ground are recent enough.
		p.Coyote, p.Buffer = max(p.Coyote-1, 0), max(p.Buffer-1, 0)
		if p.Grounded {
			p.Coyote = tu.coyote
		}
		if pressed {
			p.Buffer = tu.buffer
		}
		if p.Buffer > 0 && p.Coyote > 0 {
			p.Vel.Y = -tu.jump
			p.Buffer, p.Coyote, p.Rising = 0, 0, true
			g.play(ctx, g.sounds.jump)
		}
		if p.Rising && (!down || p.Vel.Y >= 0) {
			if p.Vel.Y < 0 {
				p.Vel.Y /= 2
			}
			p.Rising = false
		}
		p.Vel.X = float32(move * tu.run)
		p.Vel.Y = min(p.Vel.Y+tu.gravity, tu.maxFall)
		if move < 0 {
			t.Scale.X = -1
		} else if move > 0 {
			t.Scale.X = 1
		}

		wasGrounded := p.Grounded
		t.Position.X = g.slide(t.Position, p.Vel.X, true)
		y := g.slide(t.Position, p.Vel.Y, false)
		p.Grounded = p.Vel.Y > 0 && y < t.Position.Y+p.Vel.Y
		if y != t.Position.Y+p.Vel.Y {
			p.Vel.Y = 0 // landed, or bumped a ceiling
		}
		t.Position.Y = y
		g.updateDust(t.Position, p, wasGrounded)

		if t.Position.Y > g.level.size.Y+fallLimit {
			g.progress.Falls++
			g.play(ctx, g.sounds.fall)
			t.Position = geom.V(g.level.start.X, g.level.start.Y-playerHalfH)
			t.Teleport()
			*p = Player{}
		}
	}
}

// slide moves a box centred at c by d along one axis and returns the
// centre's new coordinate on that axis, stopped at the first solid
// rectangle in the way.
func (g *game) slide(c geom.Vec2, d float32, horizontal bool) float32 {
	if horizontal {
		c.X += d
	} else {
		c.Y += d
	}
	box := boxAt(c)
	for _, r := range g.level.solid {
		if !box.Intersects(r) {
			continue
		}
		switch {
		case horizontal && d > 0:
			c.X = r.X - playerHalfW
		case horizontal && d < 0:
			c.X = r.X + r.W + playerHalfW
		case !horizontal && d > 0:
			c.Y = r.Y - playerHalfH
		case !horizontal && d < 0:
			c.Y = r.Y + r.H + playerHalfH
		}
		box = boxAt(c)
	}
	if horizontal {
		return c.X
	}
	return c.Y
}
