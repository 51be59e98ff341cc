package demo

import (
	"math"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/schedule"
)

// MaxSprites bounds the bunny count.
const MaxSprites = 1_000_000

// Scene constants, in pixels and seconds.
const (
	gravity      = 500  // px/s²
	bounce       = 0.85 // share of vertical speed kept by a floor bounce
	playerSpeed  = 320  // px/s
	dashFactor   = 4    // dash speed multiplier
	shotSpeed    = 700  // px/s
	dashDuration = 200 * time.Millisecond
	dashCooldown = time.Second
	shotCooldown = 150 * time.Millisecond
	shotLife     = 1500 * time.Millisecond
	// Bunnies added or removed per key press and per click.
	bunniesPerKey   = 100
	bunniesPerClick = 10
)

// Layers of the scene; the overlay draws above all of them.
const (
	layerBunny int16 = iota
	layerPlayer
	layerBackdrop = 10
	layerBar      = 11
	layerText     = 12
)

// Velocity moves an entity, in pixels per simulated second.
type Velocity struct{ X, Y float32 }

// Bunny marks the bunnymark's sprites.
type Bunny struct{}

// Shot marks the player's projectiles; an event on the gameplay queue
// carrying its serial number removes it when its life is over.
type Shot struct{ Serial uint64 }

// Player is the sprite the keyboard moves. Its dash recharges through the
// gameplay queue: a dash schedules its own end and the moment the dash is
// ready again as events some ticks ahead (Dash tracks the same span for the
// display). Shots wait on a plain tick cooldown.
type Player struct {
	Dash, Fire schedule.Cooldown
	DashReady  bool
	Dashing    bool
	Facing     geom.Vec2
	// Dashes and Shots count what the player did, for tests and the overlay.
	Dashes, Shots int
}

// sceneState is the scene's state that belongs to no entity. It is a
// world resource registered with ecs.HashResource, so that snapshots
// restore it and the world hash covers it: kept in a field of Game, a
// replay or a sync-test would run the pulse and the shots' serial numbers
// on from where the first run left them.
type sceneState struct {
	ShotSerial uint64
	Pulse      float64 // seconds of the player's cosmetic pulse
}

// Gameplay event kinds on the App's queue. The events say what is due
// and eventSystem acts on them: plain values, so a snapshot with events
// pending can travel to another process, which a Run function could not.
const (
	eventDashEnd = iota + 1
	eventDashReady
	eventShotExpire
)

// ticksFor converts a duration into whole ticks of the nominal tick length
// (the fixed step, or 1/60 s for variable updates), at least one.
func ticksFor(d, step time.Duration) uint64 {
	if step <= 0 {
		step = 16_666_667
	}
	return max(1, uint64((d+step/2)/step))
}

// bunnyMover moves every bunny by the tick's simulation delta, under gravity,
// bouncing off the edges of the framebuffer.
func (g *Game) bunnyMover() ecs.System {
	return ecs.System{Name: "bunnies", Run: func(ctx *ecs.Sys) {
		if g.opts.Still {
			return
		}
		dt := float32(ctx.RunDeltaSeconds())
		w, h := g.arena(ctx)
		size := float32(g.opts.SpriteSize)
		maxX, maxY := w-size, h-size
		q := g.bunnies.Query()
		for q.Next() {
			t, v := q.Get()
			v.Y += gravity * dt
			x, y := t.Position.X+v.X*dt, t.Position.Y+v.Y*dt
			if x < 0 {
				x, v.X = 0, -v.X
			} else if x > maxX {
				x, v.X = maxX, -v.X
			}
			if y > maxY {
				y, v.Y = maxY, -v.Y*bounce
			} else if y < 0 {
				y, v.Y = 0, 0
			}
			t.Position.X, t.Position.Y = x, y
		}
	}}
}

// arena is the area bunnies live in: the framebuffer, or a default before
// the first window size arrives.
func (g *Game) arena(ctx *ecs.Sys) (w, h float32) {
	w, h = float32(ctx.Window.Framebuffer.Width), float32(ctx.Window.Framebuffer.Height)
	if w <= 0 || h <= 0 {
		return 1280, 720
	}
	return w, h
}

// spawnBunnies queues n bunnies at (x, y), or at random places when x < 0.
func (g *Game) spawnBunnies(ctx *ecs.Sys, n int, x, y float32) {
	n = min(n, MaxSprites-g.bunnies.Count())
	w, h := g.arena(ctx)
	size := float32(g.opts.SpriteSize)
	sprite := ecs.SpriteOf(g.bunnyRegion)
	sprite.Size = geom.Vec2{X: size, Y: size}
	sprite.Layer = layerBunny
	for range n {
		px, py := x, y
		if x < 0 {
			px = ctx.Rand.Float32() * max(w-size, 1)
			py = ctx.Rand.Float32() * max(h-size, 1) * 0.6
		}
		p := ctx.Commands.Spawn()
		ecs.With(p, ecs.At(px, py))
		ecs.With(p, Velocity{X: (ctx.Rand.Float32() - 0.5) * 400, Y: (ctx.Rand.Float32() - 0.5) * 400})
		ecs.With(p, sprite)
		ecs.With(p, Bunny{})
	}
}

// despawnBunnies queues the removal of up to n bunnies.
func (g *Game) despawnBunnies(ctx *ecs.Sys, n int) {
	q := g.bunnies.Query()
	for n > 0 && q.Next() {
		ctx.Commands.Despawn(q.Entity())
		n--
	}
	q.Close()
}

// spawnPlayer queues the player in the middle of the arena.
func (g *Game) spawnPlayer(ctx *ecs.Sys) {
	w, h := g.arena(ctx)
	s := ecs.SpriteOf(g.playerRegion)
	s.Size = geom.Vec2{X: 40, Y: 40}
	s.Origin = geom.Vec2{X: 20, Y: 20}
	s.Layer = layerPlayer
	p := ctx.Commands.Spawn()
	ecs.With(p, ecs.At(w/2, h/2))
	ecs.With(p, s)
	ecs.With(p, Player{Facing: geom.Vec2{X: 1}, DashReady: true})
}

// playerSystem moves the player by the share of the tick each direction
// key was held (TickContext's SimulationSeconds policy), starts dashes and
// fires shots when their cooldowns allow.
func (g *Game) playerSystem() ecs.System {
	return ecs.System{Name: "player", Run: func(ctx *ecs.Sys) {
		in := ctx.Input
		now := ctx.Queue.Now()
		step := ctx.Time.Timing.Step
		w, h := g.arena(ctx)
		q := g.players.Query()
		for q.Next() {
			t, s, p := q.Get()
			var dx, dy float64
			if in != nil {
				d := ctx.Time.Delta
				dx = in.SimulationSeconds(g.act.right, d) - in.SimulationSeconds(g.act.left, d)
				dy = in.SimulationSeconds(g.act.down, d) - in.SimulationSeconds(g.act.up, d)
				if in.Presses(g.act.dash) > 0 && p.DashReady {
					cooldown := ticksFor(dashCooldown, step)
					p.Dashing, p.DashReady = true, false
					p.Dash.Start(now, cooldown)
					p.Dashes++
					g.playEffect(ctx, g.sounds.dash, dashVolume, t.Position.X, w)
					e := q.Entity()
					_, err := ctx.Queue.After(ticksFor(dashDuration, step), ecs.Event{Kind: eventDashEnd, Entity: e})
					if err == nil {
						_, err = ctx.Queue.After(cooldown, ecs.Event{Kind: eventDashReady, Entity: e})
					}
					if err != nil {
						ctx.Fail(err)
					}
				}
				if in.Presses(g.act.fire) > 0 && p.Fire.Use(now, ticksFor(shotCooldown, step)) {
					p.Shots++
					g.playEffect(ctx, g.sounds.fire, fireVolume, t.Position.X, w)
					g.fire(ctx, t.Position, p.Facing, step)
				}
			}
			if l := math.Hypot(dx, dy); l > 0 {
				p.Facing = geom.Vec2{X: float32(dx / l), Y: float32(dy / l)}
				t.Rotation = float32(math.Atan2(dy, dx))
			}
			speed := float64(playerSpeed)
			if p.Dashing {
				speed *= dashFactor
			}
			t.Position.X = clamp(t.Position.X+float32(dx*speed), 0, w)
			t.Position.Y = clamp(t.Position.Y+float32(dy*speed), 0, h)
			// The player dims while the dash recharges.
			shade := float32(0.45 + 0.55*p.Dash.Progress(now))
			if p.DashReady {
				shade = 1
			}
			s.Tint = render2d.Color{R: shade, G: shade, B: shade, A: 1}
		}
	}}
}

// eventSystem acts on the gameplay events delivered at the start of the
// tick, in the order they fell due. It is the first system of the tick,
// so an event's effect comes before anything else the tick does.
func (g *Game) eventSystem() ecs.System {
	return ecs.System{Name: "events", Gameplay: true, Run: func(ctx *ecs.Sys) {
		for _, d := range ctx.Events() {
			switch d.Payload.Kind {
			case eventDashEnd:
				if p := g.playerMap.Get(d.Payload.Entity); p != nil {
					p.Dashing = false
				}
			case eventDashReady:
				if p := g.playerMap.Get(d.Payload.Entity); p != nil {
					p.DashReady = true
				}
			case eventShotExpire:
				g.expireShot(ctx, uint64(d.Payload.Value))
			}
		}
	}}
}

// fire queues a shot leaving pos in direction dir and an event that removes
// it when its life is over.
func (g *Game) fire(ctx *ecs.Sys, pos, dir geom.Vec2, step time.Duration) {
	s := ecs.Sprite{Size: geom.Vec2{X: 8, Y: 8}, Origin: geom.Vec2{X: 4, Y: 4}, Tint: render2d.Color{R: 1, G: 0.5, B: 0.2, A: 1}, Layer: layerPlayer}
	p := ctx.Commands.Spawn()
	ecs.With(p, ecs.At(pos.X, pos.Y))
	ecs.With(p, Velocity{X: dir.X * shotSpeed, Y: dir.Y * shotSpeed})
	ecs.With(p, s)
	g.scene.ShotSerial++
	ecs.With(p, Shot{Serial: g.scene.ShotSerial})
	if _, err := ctx.Queue.After(ticksFor(shotLife, step), ecs.Event{Kind: eventShotExpire, Value: float64(g.scene.ShotSerial)}); err != nil {
		ctx.Fail(err)
	}
}

// pulseSystem is cosmetic: the player's ring breathes. It skips quiet ticks
// and, under coarse cosmetic steps, the ticks the policy leaves out; its
// delta then covers every tick it skipped, so the pulse keeps time. The
// overlay shows how often it ran and was skipped.
func (g *Game) pulseSystem() ecs.System {
	return ecs.System{Name: "pulse", Cosmetic: true, Run: func(ctx *ecs.Sys) {
		g.scene.Pulse += ctx.RunDeltaSeconds()
		scale := float32(1 + float64(0.08*math.Sin(2*math.Pi*1.5*g.scene.Pulse)))
		q := g.players.Query()
		for q.Next() {
			t, _, _ := q.Get()
			t.Scale = geom.Vec2{X: scale, Y: scale}
		}
	}}
}

// shotSystem moves shots; expiry comes from the gameplay queue.
func (g *Game) shotSystem() ecs.System {
	return ecs.System{Name: "shots", Run: func(ctx *ecs.Sys) {
		dt := float32(ctx.RunDeltaSeconds())
		q := g.shots.Query()
		for q.Next() {
			t, v := q.Get()
			t.Position.X += v.X * dt
			t.Position.Y += v.Y * dt
		}
	}}
}

// expireShot removes the shot with the serial number an eventShotExpire
// carries.
func (g *Game) expireShot(ctx *ecs.Sys, serial uint64) {
	q := g.shots.Query()
	for q.Next() {
		if g.shotMap.Get(q.Entity()).Serial == serial {
			ctx.Commands.Despawn(q.Entity())
			q.Close()
			return
		}
	}
}

func clamp(v, lo, hi float32) float32 {
	return min(max(v, lo), hi)
}
