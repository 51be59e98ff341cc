package ecs

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// Range is an interval [Min, Max] a value is drawn from uniformly; Min ==
// Max gives that value.
type Range struct{ Min, Max float32 }

// DurationRange is an interval [Min, Max] a duration is drawn from
// uniformly, in whole nanoseconds.
type DurationRange struct{ Min, Max time.Duration }

// SpawnShape says where in the emitter particles are born.
type SpawnShape uint8

const (
	SpawnPoint  SpawnShape = iota // at the emitter
	SpawnCircle                   // uniformly in a disc of [ParticleEffect.Radius]
	SpawnRect                     // uniformly in a rectangle of [ParticleEffect.Extent], centred
)

// ParticleEffect describes what an emitter emits. Rates are per second of
// the emitter's run delta; distances are world units.
type ParticleEffect struct {
	Rate     float32       // particles per second, emitted continuously; zero emits only bursts
	Lifetime DurationRange // each particle's life, drawn at birth; must be positive
	Speed    Range         // initial speed, units per second
	Angle    Range         // initial direction, radians (0 is +X)
	Gravity  geom.Vec2     // acceleration, units per second squared
	Drag     float32       // fraction of velocity lost per second, in [0, 1]
	Size     Curve         // quad side over life, world units
	Color    ColorCurve    // tint over life; its alpha multiplies Alpha
	Alpha    Curve         // opacity over life
	Shape    SpawnShape
	Radius   float32   // of SpawnCircle
	Extent   geom.Vec2 // width and height of SpawnRect
	// Local moves live particles with the emitter's Transform (position
	// and rotation); otherwise they stay where they were born, in the world.
	Local bool
	// Texture and Source pick the quad's image; zero draws solid quads.
	Texture render2d.TextureHandle
	Source  geom.Rect
	Blend   render2d.BlendMode
	Layer   int16
}

// Validate reports every field out of range at once.
func (p *ParticleEffect) Validate() error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("ecs: particle effect: "+format, args...))
	}
	if !(p.Rate >= 0) || math.IsInf(float64(p.Rate), 0) {
		bad("Rate %v: must be finite and >= 0", p.Rate)
	}
	if p.Lifetime.Min <= 0 || p.Lifetime.Max < p.Lifetime.Min {
		bad("Lifetime [%v, %v]: must have 0 < Min <= Max", p.Lifetime.Min, p.Lifetime.Max)
	}
	if !(p.Speed.Min <= p.Speed.Max) {
		bad("Speed [%v, %v]: must have Min <= Max", p.Speed.Min, p.Speed.Max)
	}
	if !(p.Angle.Min <= p.Angle.Max) {
		bad("Angle [%v, %v]: must have Min <= Max", p.Angle.Min, p.Angle.Max)
	}
	if !(p.Drag >= 0 && p.Drag <= 1) {
		bad("Drag %v: must be in [0, 1]", p.Drag)
	}
	if p.Shape > SpawnRect {
		bad("Shape %d: must be SpawnPoint, SpawnCircle or SpawnRect", p.Shape)
	}
	if !(p.Radius >= 0) {
		bad("Radius %v: must be >= 0", p.Radius)
	}
	if !(p.Extent.X >= 0 && p.Extent.Y >= 0) {
		bad("Extent %v: must be >= 0 in both axes", p.Extent)
	}
	if p.Blend >= render2d.BlendModeCount {
		bad("Blend %d: must be below BlendModeCount", p.Blend)
	}
	errs = append(errs, p.Size.validate("Size"), p.Color.validate("Color"), p.Alpha.validate("Alpha"))
	return errors.Join(errs...)
}

// Particle is one live particle. Position is in the world, or relative to
// the emitter's Transform for a Local effect; Prev is where it was a step
// ago, for interpolation.
type Particle struct {
	Position, Prev, Velocity geom.Vec2
	Age, Life                time.Duration
}

// particlePool is a fixed-capacity set of particles: the array never
// grows, so a step allocates nothing, and its length never changes, so a
// snapshot copies it into the same array.
type particlePool struct {
	parts []Particle // len == capacity; the first live are alive
	live  int
	carry float64 // fractional particles owed by Rate
}

func newPool(capacity int) particlePool { return particlePool{parts: make([]Particle, capacity)} }

// Emitter is a simulated particle emitter: its particles are game state,
// in the world, hashed and carried by snapshots, and stepped in the
// Update stage from the App's random source, so a replay, a rollback and
// every peer see the same particles. Make it with [NewEmitter]; it needs
// a [Transform] on its entity and [AddParticles] on the App.
type Emitter struct {
	Effect ParticleEffect
	// Burst particles are emitted at the next step, then Burst is zeroed.
	Burst int
	// Off stops emission; live particles finish their lives.
	Off  bool
	pool particlePool
}

// CosmeticEmitter is a presentation-only emitter: its particles are kept
// by the particle system outside the world, drawn from a random source of
// their own and stepped by a cosmetic system, so they are neither hashed
// nor rolled back and cost a snapshot nothing. Make it with
// [NewCosmeticEmitter].
type CosmeticEmitter struct {
	PresentationOnly
	Effect   ParticleEffect
	Burst    int
	Off      bool
	Capacity int
}

// MaxParticles bounds an emitter's capacity.
const MaxParticles = 1 << 20

func checkEmitter(effect *ParticleEffect, capacity int) error {
	err := effect.Validate()
	if capacity < 1 || capacity > MaxParticles {
		err = errors.Join(err, fmt.Errorf("ecs: emitter capacity %d: must be in [1, %d]", capacity, MaxParticles))
	}
	return err
}

// NewEmitter returns a simulated emitter holding at most capacity live
// particles (in [1, MaxParticles]); it reports every bad field at once.
func NewEmitter(effect ParticleEffect, capacity int) (Emitter, error) {
	if err := checkEmitter(&effect, capacity); err != nil {
		return Emitter{}, err
	}
	return Emitter{Effect: effect, pool: newPool(capacity)}, nil
}

// NewCosmeticEmitter returns a presentation-only emitter holding at most
// capacity live particles (in [1, MaxParticles]).
func NewCosmeticEmitter(effect ParticleEffect, capacity int) (CosmeticEmitter, error) {
	if err := checkEmitter(&effect, capacity); err != nil {
		return CosmeticEmitter{}, err
	}
	return CosmeticEmitter{Effect: effect, Capacity: capacity}, nil
}

// Live returns the emitter's live particles, oldest first after no
// deaths; the slice is the emitter's own and valid until its next step.
func (e *Emitter) Live() []Particle { return e.pool.parts[:e.pool.live] }

// Capacity returns the most particles the emitter holds at once.
func (e *Emitter) Capacity() int { return len(e.pool.parts) }

// step ages, kills, moves and emits. A particle that would overflow the
// pool is not emitted. Products added to sums are rounded explicitly (see
// the package doc's Determinism section).
func (p *particlePool) step(fx *ParticleEffect, burst int, on bool, dt time.Duration, r *rand.Rand, origin geom.Vec2) {
	secs := float32(dt.Seconds())
	keep := float32(1) - float32(fx.Drag*secs)
	if keep < 0 {
		keep = 0
	}
	parts := p.parts
	for i := 0; i < p.live; {
		q := &parts[i]
		q.Age += dt
		if q.Age >= q.Life {
			p.live--
			parts[i] = parts[p.live] // order stays a function of the sequence of steps
			continue
		}
		q.Prev = q.Position
		q.Velocity.X = float32(q.Velocity.X*keep) + float32(fx.Gravity.X*secs)
		q.Velocity.Y = float32(q.Velocity.Y*keep) + float32(fx.Gravity.Y*secs)
		q.Position.X += float32(q.Velocity.X * secs)
		q.Position.Y += float32(q.Velocity.Y * secs)
		i++
	}
	n := burst
	if on && fx.Rate > 0 {
		p.carry += float64(float64(fx.Rate) * dt.Seconds())
		whole := math.Floor(p.carry)
		p.carry -= whole
		n += int(whole)
	}
	for ; n > 0 && p.live < len(parts); n-- {
		q := &parts[p.live]
		p.live++
		*q = Particle{Life: fx.Lifetime.Min}
		if d := fx.Lifetime.Max - fx.Lifetime.Min; d > 0 {
			q.Life += time.Duration(r.Int64N(int64(d) + 1))
		}
		switch fx.Shape {
		case SpawnCircle:
			rad := float32(fx.Radius * float32(math.Sqrt(r.Float64())))
			a := float64(2 * math.Pi * r.Float64())
			q.Position = geom.Vec2{X: float32(rad * float32(math.Cos(a))), Y: float32(rad * float32(math.Sin(a)))}
		case SpawnRect:
			q.Position = geom.Vec2{X: float32(fx.Extent.X * (r.Float32() - 0.5)), Y: float32(fx.Extent.Y * (r.Float32() - 0.5))}
		}
		if !fx.Local {
			q.Position = q.Position.Add(origin)
		}
		q.Prev = q.Position
		speed := fx.Speed.Min + float32((fx.Speed.Max-fx.Speed.Min)*r.Float32())
		angle := fx.Angle.Min + float32((fx.Angle.Max-fx.Angle.Min)*r.Float32())
		q.Velocity = geom.Vec2{X: float32(speed * float32(math.Cos(float64(angle)))), Y: float32(speed * float32(math.Sin(float64(angle))))}
	}
}

// frameOf turns a particle's stored position into a world position for
// an emitter's Transform: a local particle moves and turns with it, a
// world one was placed at birth.
type frameOf struct {
	origin   geom.Vec2
	sin, cos float32
	local    bool
}

func (f *frameOf) at(p geom.Vec2) geom.Vec2 {
	if !f.local {
		return p
	}
	return geom.Vec2{
		X: f.origin.X + float32(p.X*f.cos) - float32(p.Y*f.sin),
		Y: f.origin.Y + float32(p.X*f.sin) + float32(p.Y*f.cos),
	}
}

// cosmeticSlot holds the particles of one CosmeticEmitter, by entity ID.
type cosmeticSlot struct {
	gen  uint32
	used bool
	pool particlePool
}

// particles is the state of [AddParticles]' systems. Only the cosmetic
// pools live here, outside the world, so a restore leaves them alone.
type particles struct {
	app       *App
	simulated *Filter2[Transform, Emitter]
	cosmetic  *Filter2[Transform, CosmeticEmitter]
	slots     []cosmeticSlot
	pcg       rand.PCG
	rand      *rand.Rand
}

// AddParticles adds the systems that run emitters to app: "ecs.particles"
// (Update, gameplay) steps every [Emitter] from [Sys.Rand];
// "ecs.particles.cosmetic" (Update, gameplay, cosmetic) steps every
// [CosmeticEmitter] from a source of its own seeded by [Options.Seed];
// "ecs.particles.draw" (Extract) draws both into every pass of the
// built-in extraction. Call it once, at set-up.
func AddParticles(app *App) {
	ps := &particles{
		app:       app,
		simulated: NewFilter2[Transform, Emitter](app.world),
		cosmetic:  NewFilter2[Transform, CosmeticEmitter](app.world),
	}
	g := *app.pcg // a copy: reading it leaves the game's sequence alone
	ps.pcg.Seed(g.Uint64(), 0x7061_7274_6963_6c65)
	ps.rand = rand.New(&ps.pcg)
	app.AddSystem(Update, System{Name: "ecs.particles", Gameplay: true, Run: ps.stepSimulated})
	app.AddSystem(Update, System{Name: "ecs.particles.cosmetic", Gameplay: true, Cosmetic: true, Run: ps.stepCosmetic})
	app.AddSystem(Extract, System{Name: "ecs.particles.draw", Run: ps.draw})
}

func (ps *particles) stepSimulated(ctx *Sys) {
	dt := ctx.RunDelta()
	q := ps.simulated.Query()
	for q.Next() {
		t, e := q.Get()
		e.pool.step(&e.Effect, e.Burst, !e.Off, dt, ctx.Rand, t.Position)
		e.Burst = 0
	}
}

// slot returns the pool of cosmetic emitter e, fresh when the entity is
// new to it. A new pool is the only allocation, once per emitter.
func (ps *particles) slot(e Entity, capacity int) *cosmeticSlot {
	id := int(e.ID())
	if id >= len(ps.slots) {
		ps.slots = append(ps.slots, make([]cosmeticSlot, id+1-len(ps.slots))...)
	}
	s := &ps.slots[id]
	if !s.used || s.gen != e.Generation() || len(s.pool.parts) != capacity {
		if len(s.pool.parts) == capacity {
			s.pool = particlePool{parts: s.pool.parts}
		} else {
			s.pool = newPool(capacity)
		}
		s.gen, s.used = e.Generation(), true
	}
	return s
}

func (ps *particles) stepCosmetic(ctx *Sys) {
	dt := ctx.RunDelta()
	q := ps.cosmetic.Query()
	for q.Next() {
		t, e := q.Get()
		if e.Capacity < 1 || e.Capacity > MaxParticles {
			continue // not made by NewCosmeticEmitter; it draws nothing
		}
		s := ps.slot(q.Entity(), e.Capacity)
		s.pool.step(&e.Effect, e.Burst, !e.Off, dt, ps.rand, t.Position)
		e.Burst = 0
	}
}

// draw appends one quad per live particle to every pass the built-in
// extraction made, then restores the passes' layer order.
func (ps *particles) draw(ctx *Sys) {
	passes := ps.app.extract.builtinPasses(ctx.Frame.Frame())
	for i := range passes {
		pass := &passes[i]
		n0 := len(pass.Packets)
		q := ps.simulated.Query()
		for q.Next() {
			t, e := q.Get()
			ps.appendPool(pass, t, &e.Effect, &e.pool)
		}
		c := ps.cosmetic.Query()
		for c.Next() {
			t, e := c.Get()
			id := int(c.Entity().ID())
			if id < len(ps.slots) && ps.slots[id].used && ps.slots[id].gen == c.Entity().Generation() {
				ps.appendPool(pass, t, &e.Effect, &ps.slots[id].pool)
			}
		}
		if len(pass.Packets) > n0 && !layered(pass.Packets) {
			ps.app.extract.sortByLayer(pass.Packets)
		}
	}
}

func layered(ps []render2d.DrawPacket2D) bool {
	for i := 1; i < len(ps); i++ {
		if ps[i].Layer < ps[i-1].Layer {
			return false
		}
	}
	return true
}

func (ps *particles) appendPool(pass *render2d.Pass, t *Transform, fx *ParticleEffect, p *particlePool) {
	if p.live == 0 {
		return
	}
	fr := frameOf{local: fx.Local}
	if fx.Local {
		fr.origin = t.Position
		s, c := math.Sincos(float64(t.Rotation))
		fr.sin, fr.cos = float32(s), float32(c)
	}
	interp := ps.app.interpolate
	n0 := len(pass.Packets)
	pass.Packets = growPackets(pass.Packets, p.live)
	out := pass.Packets[n0 : n0+p.live]
	for i := range out {
		q := &p.parts[i]
		life := float32(float64(q.Age) / float64(q.Life))
		size := fx.Size.At(life)
		tint := fx.Color.At(life)
		tint.A *= fx.Alpha.At(life)
		d := &out[i]
		*d = render2d.DrawPacket2D{
			Texture:   fx.Texture,
			Source:    fx.Source,
			Transform: render2d.Transform{Position: fr.at(q.Position), Scale: geom.Vec2{X: size, Y: size}, Origin: geom.Vec2{X: 0.5, Y: 0.5}},
			Size:      geom.Vec2{X: 1, Y: 1},
			Tint:      tint,
			Blend:     fx.Blend,
			Layer:     fx.Layer,
		}
		if interp && q.Age > 0 {
			d.Prev = render2d.Placement{Position: fr.at(q.Prev), Scale: d.Transform.Scale, Tint: tint, Set: true}
		}
	}
}

// growPackets extends ps by n packets, reusing its array when it can.
func growPackets(ps []render2d.DrawPacket2D, n int) []render2d.DrawPacket2D {
	if len(ps)+n > cap(ps) {
		ps = append(ps[:cap(ps)], make([]render2d.DrawPacket2D, len(ps)+n-cap(ps))...)[:len(ps)]
	}
	return ps[:len(ps)+n]
}
