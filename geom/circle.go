package geom

// Circle is a disk: a centre and a radius, which is expected to be
// non-negative. A zero radius makes it a point.
type Circle struct {
	Center Vec2
	Radius float32
}

// Bounds returns the smallest box containing c.
func (c Circle) Bounds() Rect {
	return Rect{c.Center.X - c.Radius, c.Center.Y - c.Radius, 2 * c.Radius, 2 * c.Radius}
}

// Contains reports whether p is strictly inside c.
func (c Circle) Contains(p Vec2) bool {
	return p.Sub(c.Center).LenSqr() < c.Radius*c.Radius
}

// Intersects reports whether c and d overlap: their centres are closer than
// the sum of their radii. Touching is not overlapping, and two points never
// overlap.
func (c Circle) Intersects(d Circle) bool {
	r := c.Radius + d.Radius
	return c.Center.Sub(d.Center).LenSqr() < r*r
}

// IntersectsRect reports whether c and r overlap: some point of r is
// closer to the centre than the radius. Touching is not overlapping. A
// zero-radius circle is a point and overlaps r when strictly inside it, as
// a zero-size box would.
func (c Circle) IntersectsRect(r Rect) bool {
	if c.Radius == 0 {
		return r.X < c.Center.X && c.Center.X < r.X+r.W && r.Y < c.Center.Y && c.Center.Y < r.Y+r.H
	}
	return r.ClosestPoint(c.Center).Sub(c.Center).LenSqr() < c.Radius*c.Radius
}

// Penetration returns the shortest move of c after which c and d only
// touch, directed from d's centre to c's (+X when the centres coincide),
// and false with a zero vector when they do not overlap.
func (c Circle) Penetration(d Circle) (Vec2, bool) {
	if !c.Intersects(d) {
		return Vec2{}, false
	}
	delta := c.Center.Sub(d.Center)
	dist := delta.Len()
	depth := c.Radius + d.Radius - dist
	if dist == 0 {
		return Vec2{depth, 0}, true
	}
	return delta.Scale(depth / dist), true
}

// PenetrationRect returns the shortest move of c after which c and r only
// touch, and false with a zero vector when they do not overlap. When the
// centre is outside r the move is along the line from r's nearest point to
// the centre; when it is inside (or on an edge) the move goes out through
// the nearest side (order of preference on a tie: -X, +X, -Y, +Y).
func (c Circle) PenetrationRect(r Rect) (Vec2, bool) {
	if !c.IntersectsRect(r) {
		return Vec2{}, false
	}
	q := r.ClosestPoint(c.Center)
	delta := c.Center.Sub(q)
	if dist := delta.Len(); dist > 0 {
		return delta.Scale((c.Radius - dist) / dist), true
	}
	p := c.Center
	left, right := p.X-r.X, r.X+r.W-p.X
	up, down := p.Y-r.Y, r.Y+r.H-p.Y
	m := min(left, right, up, down)
	switch m {
	case left:
		return Vec2{-(left + c.Radius), 0}, true
	case right:
		return Vec2{right + c.Radius, 0}, true
	case up:
		return Vec2{0, -(up + c.Radius)}, true
	}
	return Vec2{0, down + c.Radius}, true
}
