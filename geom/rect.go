package geom

// Rect is an axis-aligned box: the corner with the smallest coordinates
// (the top-left on a y-down screen) and a size. It is the one rectangle of
// the framework: texture source rectangles, viewports and collision boxes.
//
// Sizes are expected to be non-negative; [Rect.Canon] repairs a box built
// from two corners in either order. A box of zero width or height is a
// segment or a point (see the package documentation for how such boxes
// overlap).
type Rect struct{ X, Y, W, H float32 }

// R returns the box with corner (x, y) and size w x h.
func R(x, y, w, h float32) Rect { return Rect{x, y, w, h} }

// RectFromMinMax returns the box spanning the corners lo and hi, in either
// order.
func RectFromMinMax(lo, hi Vec2) Rect {
	return Rect{lo.X, lo.Y, hi.X - lo.X, hi.Y - lo.Y}.Canon()
}

// RectFromCenter returns the box of the given size centred on c.
func RectFromCenter(c, size Vec2) Rect {
	return Rect{c.X - size.X/2, c.Y - size.Y/2, size.X, size.Y}
}

// Canon returns r with a negative width or height turned positive by moving
// the corner, covering the same points.
func (r Rect) Canon() Rect {
	if r.W < 0 {
		r.X, r.W = r.X+r.W, -r.W
	}
	if r.H < 0 {
		r.Y, r.H = r.Y+r.H, -r.H
	}
	return r
}

// Min returns the corner with the smallest coordinates.
func (r Rect) Min() Vec2 { return Vec2{r.X, r.Y} }

// Max returns the corner with the largest coordinates.
func (r Rect) Max() Vec2 { return Vec2{r.X + r.W, r.Y + r.H} }

// Size returns (W, H).
func (r Rect) Size() Vec2 { return Vec2{r.W, r.H} }

// Center returns the centre point.
func (r Rect) Center() Vec2 { return Vec2{r.X + r.W/2, r.Y + r.H/2} }

// IsZero reports whether every field of r is zero: in a draw packet, "the
// whole texture"; in a camera, "the whole target". A zero box at another
// corner is not zero; see [Rect.Empty] for "no area".
func (r Rect) IsZero() bool { return r == Rect{} }

// Empty reports whether r has no area.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// Translate returns r moved by d.
func (r Rect) Translate(d Vec2) Rect { return Rect{r.X + d.X, r.Y + d.Y, r.W, r.H} }

// Inset returns r shrunk by d on every side (grown for a negative d). An
// inset larger than half the size leaves a zero size at the centre.
func (r Rect) Inset(d float32) Rect {
	w, h := max(r.W-2*d, 0), max(r.H-2*d, 0)
	c := r.Center()
	return Rect{c.X - w/2, c.Y - h/2, w, h}
}

// Contains reports whether the point p is inside r, counting the left and
// top edges and not the right and bottom ones, so that boxes tiling a
// plane (a grid of bricks, cells or pixels) each own every point once.
func (r Rect) Contains(p Vec2) bool {
	return p.X >= r.X && p.X < r.X+r.W && p.Y >= r.Y && p.Y < r.Y+r.H
}

// ContainsRect reports whether b lies within r, edges included.
func (r Rect) ContainsRect(b Rect) bool {
	return b.X >= r.X && b.Y >= r.Y && b.X+b.W <= r.X+r.W && b.Y+b.H <= r.Y+r.H
}

// Intersects reports whether r and b overlap. Touching is not overlapping:
// on both axes each box must start strictly before the other ends. A
// zero-size box overlaps a box it lies strictly inside; two zero-size
// boxes never overlap.
func (r Rect) Intersects(b Rect) bool {
	return r.X < b.X+b.W && b.X < r.X+r.W && r.Y < b.Y+b.H && b.Y < r.Y+r.H
}

// Intersection returns the box common to r and b and whether they overlap
// (as [Rect.Intersects] decides); without overlap the box is zero.
func (r Rect) Intersection(b Rect) (Rect, bool) {
	if !r.Intersects(b) {
		return Rect{}, false
	}
	lo := r.Min().Max(b.Min())
	hi := r.Max().Min(b.Max())
	return Rect{lo.X, lo.Y, hi.X - lo.X, hi.Y - lo.Y}, true
}

// Union returns the smallest box containing r and b. A zero-size box counts
// as the point or segment it is, so start a bounding box from the first
// shape rather than from Rect{}.
func (r Rect) Union(b Rect) Rect {
	lo := r.Min().Min(b.Min())
	hi := r.Max().Max(b.Max())
	return Rect{lo.X, lo.Y, hi.X - lo.X, hi.Y - lo.Y}
}

// Overlap returns how far the projections of r and b overlap on each axis;
// a negative component is the gap between them on that axis. Both
// components are positive exactly when the boxes intersect.
func (r Rect) Overlap(b Rect) Vec2 {
	return Vec2{
		min(r.X+r.W, b.X+b.W) - max(r.X, b.X),
		min(r.Y+r.H, b.Y+b.H) - max(r.Y, b.Y),
	}
}

// Penetration returns the minimum translation vector: the shortest move of
// r, along one axis, after which r and b only touch. It reports false, with
// a zero vector, when they do not overlap. The axis is the one needing the
// shorter move (X on a tie); the direction is the shorter way out (positive
// on a tie), which is away from b's centre. Add it to r's position to
// resolve the contact; its direction, normalised, is the contact normal.
func (r Rect) Penetration(b Rect) (Vec2, bool) {
	if !r.Intersects(b) {
		return Vec2{}, false
	}
	return penetration(r, b), true
}

// penetration is Penetration for boxes known to overlap.
func penetration(r, b Rect) Vec2 {
	x := shortestOut(r.X, r.X+r.W, b.X, b.X+b.W)
	y := shortestOut(r.Y, r.Y+r.H, b.Y, b.Y+b.H)
	if abs(x) <= abs(y) {
		return Vec2{x, 0}
	}
	return Vec2{0, y}
}

// shortestOut returns the signed shortest move of [lo, hi] out of [blo, bhi],
// positive on a tie.
func shortestOut(lo, hi, blo, bhi float32) float32 {
	up, down := bhi-lo, hi-blo
	if up <= down {
		return up
	}
	return -down
}

// ClosestPoint returns the point of r nearest to p: p itself when it is
// inside or on the edge.
func (r Rect) ClosestPoint(p Vec2) Vec2 {
	return Vec2{min(max(p.X, r.X), r.X+r.W), min(max(p.Y, r.Y), r.Y+r.H)}
}
