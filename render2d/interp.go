package render2d

import (
	"math"
	"slices"
	"time"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/timing"
)

// Span is the real time of the final update a frame shows: the runtime
// copies it from that update when it publishes the frame.
type Span struct {
	// Start and End are the update's span of real time
	// (timing.Update.Start and End). Under RepayDebt's pacing the runtime
	// gives the span the pace runs the update over instead: it ends when
	// the next update is due, so that a simulation repaying debt, whose
	// spans lag the clock, still moves evenly on screen.
	Start, End timing.Instant
	// Step is the real time over which the motion from each packet's
	// previous placement to its current one is shown: the fixed step (over
	// the pace's rate under RepayDebt's pacing). Zero means the frame does
	// not interpolate ([Span.AlphaAt] is always 1).
	Step time.Duration
}

// AlphaAt returns the interpolation factor for presenting the frame at
// instant at: (at − End) / Step, clamped to [0, 1]. The frame is shown one
// step late: at End it shows the previous placements, a step later the
// current ones, and it holds them after that (a late frame never
// extrapolates). A zero or negative Step gives 1.
func (s Span) AlphaAt(at timing.Instant) float32 {
	if s.Step <= 0 {
		return 1
	}
	if at <= s.End {
		return 0
	}
	d := int64(at) - int64(s.End)
	if d < 0 || d >= int64(s.Step) { // d < 0: the difference overflowed
		return 1
	}
	return float32(float64(d) / float64(s.Step))
}

// Presentation says how the frame is being presented. The platform, which
// owns the frame it presents, sets it right before every
// [Renderer.Render] (see [Frame.PresentAt]), because one frame is drawn
// again at every present until a newer one arrives, each time with the
// alpha of that present.
type Presentation struct {
	// At is the instant of the present, for the record (renderers draw
	// with Alpha only; the recording renderer in render2d/rendertest keeps it so a test can ask
	// what was on screen at an instant). Zero when unknown.
	At timing.Instant
	// Alpha, in [0, 1], places every packet and camera that has a previous
	// placement: 0 draws the previous one, 1 the current one. Packets
	// without a previous placement draw at their current one whatever
	// Alpha is. Outside [0, 1] (or NaN) the frame is invalid.
	Alpha float32
}

// PresentAt sets f.Present for a present at instant at, with the alpha
// [Span.AlphaAt] gives for f.Span.
func (f *Frame) PresentAt(at timing.Instant) {
	f.Present = Presentation{At: at, Alpha: f.Span.AlphaAt(at)}
}

// Placement is the part of a packet that moves from one update to the
// next: where its quad was at the start of the update the frame shows.
// Origin, size, source and the rest do not interpolate.
//
// The zero Placement is unset: a packet whose Prev is unset draws at its
// current placement at every alpha, so frames built without interpolation
// in mind are unaffected. Set marks a placement as given; the flag, not a
// special value, decides, because every value of the other fields (even
// all zeros: an invisible quad at the origin) is a placement a game may
// mean.
type Placement struct {
	Position geom.Vec2
	Rotation float32
	Scale    geom.Vec2
	Tint     Color
	// Set marks the placement as given.
	Set bool
}

// Placement returns p's current placement, marked set: what the next
// frame's packet for the same object puts in its Prev.
func (p *DrawPacket2D) Placement() Placement {
	t := &p.Transform
	return Placement{Position: t.Position, Rotation: t.Rotation, Scale: t.Scale, Tint: p.Tint, Set: true}
}

// CameraPlacement is the part of a camera that moves from one update to
// the next. Anchor and Viewport do not interpolate. As with [Placement]
// the zero value is unset: the camera is drawn where it is now.
type CameraPlacement struct {
	Position geom.Vec2
	// Zoom is the previous zoom; zero means 1, as in [Camera].
	Zoom     float32
	Rotation float32
	// Set marks the placement as given.
	Set bool
}

// Lerp returns a*(1−t) + b*t: exactly a at t = 0 and exactly b at t = 1.
// Every renderer interpolates with this expression (the GL vertex shader
// writes it out the same way), so the recording and the GL renderer agree.
func Lerp(a, b, t float32) float32 { return a*(1-t) + b*t }

const tau = 2 * math.Pi

// LerpAngle turns from angle a to angle b (radians) the shorter way round:
// at t = 1 it returns exactly b, at t = 0 an angle equal to a modulo a full
// turn. The difference is reduced with round-half-to-even, like
// math.Remainder and GLSL's roundEven.
func LerpAngle(a, b, t float32) float32 {
	if a == b {
		return b
	}
	d := b - a
	d -= tau * float32(math.RoundToEven(float64(d/tau)))
	return b - d*(1-t)
}

// Resolved returns p as it is drawn at alpha: Transform and Tint moved
// along from Prev (position, rotation the shorter way, scale and straight
// tint channels, each with [Lerp]), and Prev unset. A packet whose Prev is
// unset comes back unchanged but for Prev.
func (p *DrawPacket2D) Resolved(alpha float32) DrawPacket2D {
	q := *p
	q.Prev = Placement{}
	if !p.Prev.Set {
		return q
	}
	pr, t := &p.Prev, &q.Transform
	t.Position = geom.Vec2{X: Lerp(pr.Position.X, t.Position.X, alpha), Y: Lerp(pr.Position.Y, t.Position.Y, alpha)}
	t.Rotation = LerpAngle(pr.Rotation, t.Rotation, alpha)
	t.Scale = geom.Vec2{X: Lerp(pr.Scale.X, t.Scale.X, alpha), Y: Lerp(pr.Scale.Y, t.Scale.Y, alpha)}
	c := &q.Tint
	*c = Color{Lerp(pr.Tint.R, c.R, alpha), Lerp(pr.Tint.G, c.G, alpha), Lerp(pr.Tint.B, c.B, alpha), Lerp(pr.Tint.A, c.A, alpha)}
	return q
}

// ResolvedCamera returns the pass's camera as drawn at alpha: position,
// zoom (the effective zooms, linearly) and rotation (the shorter way)
// moved along from PrevCamera. An unset PrevCamera gives Camera unchanged.
func (d *PassDesc) ResolvedCamera(alpha float32) Camera {
	c := d.Camera
	pc := &d.PrevCamera
	if !pc.Set {
		return c
	}
	c.Position = geom.Vec2{X: Lerp(pc.Position.X, c.Position.X, alpha), Y: Lerp(pc.Position.Y, c.Position.Y, alpha)}
	pz := pc.Zoom
	if pz == 0 {
		pz = 1
	}
	c.Zoom = Lerp(pz, c.EffectiveZoom(), alpha)
	c.Rotation = LerpAngle(pc.Rotation, c.Rotation, alpha)
	return c
}

// Resolved returns a deep copy of f as drawn at f.Present.Alpha: every
// packet and camera at its interpolated placement with its previous one
// unset. Tests use it to see what a player saw; it allocates the copy.
func (f *Frame) Resolved() Frame {
	a := f.Present.Alpha
	out := *f
	out.Passes = make([]Pass, len(f.Passes))
	for i := range f.Passes {
		p := &f.Passes[i]
		q := &out.Passes[i]
		q.PassDesc = p.PassDesc
		q.Camera = p.ResolvedCamera(a)
		q.PrevCamera = CameraPlacement{}
		q.Packets = make([]DrawPacket2D, len(p.Packets))
		for j := range p.Packets {
			q.Packets[j] = p.Packets[j].Resolved(a)
		}
		q.Vertices = slices.Clone(p.Vertices)
		q.Indices = slices.Clone(p.Indices)
	}
	return out
}

// Moves reports whether presenting f at one alpha would draw anything
// different from another: whether a packet's previous placement or a
// pass's previous camera differs from the current one. A frame that does
// not move needs no present between updates, so the runtime presents it
// once (it sets Span.Step to zero). It stops at the first difference.
func (f *Frame) Moves() bool {
	for i := range f.Passes {
		p := &f.Passes[i]
		if c := &p.PrevCamera; c.Set && (c.Position != p.Camera.Position || c.Rotation != p.Camera.Rotation || zoomOf(c.Zoom) != zoomOf(p.Camera.Zoom)) {
			return true
		}
		for j := range p.Packets {
			d := &p.Packets[j]
			if q := &d.Prev; q.Set && (q.Position != d.Transform.Position || q.Rotation != d.Transform.Rotation || q.Scale != d.Transform.Scale || q.Tint != d.Tint) {
				return true
			}
		}
	}
	return false
}

// zoomOf is a camera zoom with zero read as 1.
func zoomOf(z float32) float32 {
	if z == 0 {
		return 1
	}
	return z
}
