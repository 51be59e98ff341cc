package ecs

import (
	"math"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/shape"
)

// Shape draws a vector shape (package render2d/shape) at its entity's
// [Transform], like a [Sprite]: turned and scaled about the shape's own
// origin (a circle's centre, a rectangle's top-left corner; Transform
// moves it), interpolated between frames, ordered by Layer with sprites
// and texts. Extraction tessellates it into the frame every frame;
// steady state allocates nothing. Shapes are presentation: the world
// hash leaves the component out (see [World.Hash]).
//
//	ship := ctx.Commands.Spawn()
//	ecs.With(ship, ecs.At(160, 90))
//	ecs.With(ship, ecs.Shape{Shape: shape.Polygon(nose, left, tail, right).Stroked(2), Color: render2d.White})
type Shape struct {
	Shape shape.Shape
	// Color colours the shape; the zero Color is white.
	Color  render2d.Color
	Layer  int16
	Blend  render2d.BlendMode
	Hidden bool
}

// drawShapes appends the Shape entities to pass and reports whether their
// layers came out in order after what the pass already holds.
func (x *extractor) drawShapes(pass *render2d.Pass, pw *render2d.PassWriter, n0 int) (sorted bool) {
	sorted = true
	last := int16(math.MinInt16)
	if n := len(pass.Packets); n > n0 {
		last = pass.Packets[n-1].Layer
	}
	q := x.shapes.Query(&x.w.w)
	for q.Next() {
		t, s := q.Get()
		c := s.Color
		if c == (render2d.Color{}) {
			c = render2d.White
		}
		var prev render2d.Placement
		if x.interp {
			var now *pose
			prev, now = x.recall(q.Entity(), t)
			now.tint = c
		}
		if s.Hidden {
			x.stats.Culled++
			continue
		}
		p := render2d.DrawPacket2D{
			Transform: render2d.Transform{Position: t.Position, Rotation: t.Rotation, Scale: t.Scale},
			Tint:      c, Prev: prev, Blend: s.Blend, Layer: s.Layer,
		}
		n := len(pass.Packets)
		if err := x.tess.Draw(pw, &s.Shape, p); err != nil {
			x.shapeError(err)
			continue
		}
		if len(pass.Packets) > n {
			x.stats.Drawn++
			if s.Layer < last {
				sorted = false
			}
			last = s.Layer
		}
	}
	return sorted
}

func (x *extractor) shapeError(err error) {
	x.stats.ShapeErrors++
	x.stats.LastShapeError = err
}

// GizmoLayer is the layer of [Sys.Draw]'s shapes: above everything
// else.
const GizmoLayer = math.MaxInt16

// Draw is the immediate drawing of [Sys.Draw]: debug lines, circles
// and shapes in world units, drawn on top of the scene (at [GizmoLayer])
// by every camera, that last until the next tick starts. Drawings of a
// catch-up burst's earlier ticks are gone by the time a frame is
// prepared, as their state is: the frame shows the last tick's.
//
//	ctx.Draw.Line(a, b, 1, render2d.RGBA8(255, 0, 0, 255)) // a velocity vector
//	ctx.Draw.Circle(pos, radius, 1, green)                   // a hit circle, stroked
//
// Shapes are tessellated when drawn, into storage the App reuses, so
// debug drawing allocates nothing once it has grown. A shape that cannot
// be drawn is counted in [ExtractStats.ShapeErrors]. A Draw belongs to
// the simulation goroutine.
type Draw struct {
	tess    shape.Tessellator
	verts   []render2d.Vertex
	idx     []uint32
	packets []render2d.DrawPacket2D
	pts     [2]geom.Vec2
	x       *extractor
}

func (d *Draw) reset() { d.verts, d.idx, d.packets = d.verts[:0], d.idx[:0], d.packets[:0] }

// Shape draws s with its origin at pos, in colour c.
func (d *Draw) Shape(s *shape.Shape, pos geom.Vec2, c render2d.Color) {
	m, err := d.tess.Append(&d.verts, &d.idx, s)
	if err != nil {
		d.x.shapeError(err)
		return
	}
	if m.IndexCount == 0 {
		return
	}
	p := shape.Packet(pos, c)
	p.Mesh, p.Layer = m, GizmoLayer
	d.packets = append(d.packets, p)
}

// Line draws the segment from a to b, width wide.
func (d *Draw) Line(a, b geom.Vec2, width float32, c render2d.Color) {
	d.pts = [2]geom.Vec2{a, b}
	s := shape.Shape{Kind: shape.KindLine, Points: d.pts[:], Width: width}
	d.Shape(&s, geom.Vec2{}, c)
}

// Circle draws the circle of radius r about centre: stroked width wide,
// or filled for a zero width.
func (d *Draw) Circle(centre geom.Vec2, r, width float32, c render2d.Color) {
	s := shape.Shape{Kind: shape.KindCircle, Radius: r, Width: width}
	d.Shape(&s, centre, c)
}

// Rect draws rectangle r: stroked width wide, or filled for a zero width.
func (d *Draw) Rect(r geom.Rect, width float32, c render2d.Color) {
	s := shape.Shape{Kind: shape.KindRect, Size: geom.Vec2{X: r.W, Y: r.H}, Width: width}
	d.Shape(&s, geom.Vec2{X: r.X, Y: r.Y}, c)
}

// Len returns the number of shapes drawn since the tick started.
func (d *Draw) Len() int { return len(d.packets) }

// appendTo copies the drawings into pass.
func (d *Draw) appendTo(pass *render2d.Pass) {
	if len(d.packets) == 0 {
		return
	}
	v0, i0 := uint32(len(pass.Vertices)), uint32(len(pass.Indices))
	pass.Vertices = append(pass.Vertices, d.verts...)
	pass.Indices = append(pass.Indices, d.idx...)
	n := len(pass.Packets)
	pass.Packets = append(pass.Packets, d.packets...)
	for i := range pass.Packets[n:] {
		m := &pass.Packets[n+i].Mesh
		m.FirstVertex += v0
		m.FirstIndex += i0
	}
}
