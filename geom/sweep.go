package geom

import "math"

// Hit describes the first contact of a moving box (or point) with a static
// box, as [Rect.Sweep] and [Rect.Raycast] report it.
type Hit struct {
	// Time is the fraction of the displacement travelled at first contact,
	// in [0, 1). It never overshoots: at Time, and at any float32 time
	// before it, the boxes do not overlap (computed exactly); it is the
	// exact contact time rounded down to a float32.
	Time float32
	// Normal is the unit normal of the static box's face that was hit,
	// pointing out of it toward the mover: (-1, 0) for its left face, (0, 1)
	// for its bottom face on a y-down screen. An exact corner hit reports
	// the X face. When Overlapping, it is the direction of the
	// [Rect.Penetration] that would separate the boxes.
	Normal Vec2
	// Overlapping reports that the boxes already overlapped at the start
	// (Time is then 0). A box resting exactly against another is not
	// overlapping; moving into it is a hit at Time 0.
	Overlapping bool
}

// Sweep moves r by d and reports the first contact with the static box b:
// the smallest fraction t of d at which r+t*d starts to overlap b, so a
// fast ball cannot pass through a thin brick between two frames. It
// reports false when r never overlaps b while moving, including when it
// only touches or slides along b's face, or when the overlap would begin
// exactly at the end of the move (the next move then starts touching and
// hits at Time 0).
//
// Overlap is as [Rect.Intersects] defines it, and a zero d is a
// stationary test. To resolve the hit, move r by d*Time and remove the
// velocity's component into the face (or reflect it, v.Reflect(Normal)):
// the position computed in float32 may end up a rounding error inside b,
// which the next sweep reports as Overlapping with the way out.
//
// The test is the slab method on b grown by r's size, computed in float64;
// it is exact for coordinates on a binary grid of reasonable range (say
// multiples of 1/256 up to a few thousand units), which the fuzz test
// checks against rational arithmetic.
func (r Rect) Sweep(d Vec2, b Rect) (Hit, bool) {
	tin, tout := math.Inf(-1), math.Inf(1)
	var num, den float64 // tin = num/den, kept to round the reported time down
	xAxis := true
	for axis := range 2 {
		// r's low edge plus t*d must lie strictly between b's low edge
		// minus r's size and b's high edge.
		o, size, move, blo, bsize := r.X, r.W, d.X, b.X, b.W
		if axis == 1 {
			o, size, move, blo, bsize = r.Y, r.H, d.Y, b.Y, b.H
		}
		lo := float64(blo) - float64(size)
		hi := float64(blo) + float64(bsize)
		if !(lo < hi) { // two zero sizes: the boxes can never overlap
			return Hit{}, false
		}
		dd := float64(move)
		if dd == 0 {
			if !(lo < float64(o) && float64(o) < hi) {
				return Hit{}, false
			}
			continue
		}
		enter, exit := lo-float64(o), hi-float64(o)
		if dd < 0 {
			enter, exit = exit, enter
		}
		if t := enter / dd; t > tin {
			tin, num, den, xAxis = t, enter, dd, axis == 0
		}
		tout = min(tout, exit/dd)
	}
	if !(tin < tout) || tout <= 0 || tin >= 1 {
		return Hit{}, false
	}
	if tin < 0 {
		return Hit{Normal: outward(r, b), Overlapping: true}, true
	}
	h := Hit{Time: max(down32(quoDown(num, den)), 0)}
	if xAxis {
		h.Normal.X = -sign(d.X)
	} else {
		h.Normal.Y = -sign(d.Y)
	}
	return h, true
}

// Raycast reports where the segment from origin to origin+d first enters r,
// as a fraction of d: a ray or line-of-sight test, the sweep of a point.
// A segment that starts strictly inside r is Overlapping at Time 0; one
// that runs along an edge or touches a corner does not hit. For a ray of
// length L in direction u, pass d = u*L.
func (r Rect) Raycast(origin, d Vec2) (Hit, bool) {
	return Rect{X: origin.X, Y: origin.Y}.Sweep(d, r)
}

// outward is the direction of r's shortest way out of b, as Penetration
// chooses it, computed in float64 so that boxes the sweep found overlapping
// always get a unit normal.
func outward(r, b Rect) Vec2 {
	x := shortestOut64(float64(r.X), float64(r.X)+float64(r.W), float64(b.X), float64(b.X)+float64(b.W))
	y := shortestOut64(float64(r.Y), float64(r.Y)+float64(r.H), float64(b.Y), float64(b.Y)+float64(b.H))
	if math.Abs(x) <= math.Abs(y) {
		return Vec2{X: float32(math.Copysign(1, x))}
	}
	return Vec2{Y: float32(math.Copysign(1, y))}
}

func shortestOut64(lo, hi, blo, bhi float64) float64 {
	up, down := bhi-lo, hi-blo
	if up <= down {
		return up
	}
	return -down
}

// quoDown returns num/den rounded toward minus infinity, so that an entry
// time is never later than the exact one. The remainder of a correctly
// rounded quotient is exact under a fused multiply-add, which tells which
// way the division rounded.
func quoDown(num, den float64) float64 {
	q := num / den
	rem := math.FMA(q, den, -num) // q*den - num, exactly
	if (rem > 0) == (den > 0) && rem != 0 {
		q = math.Nextafter(q, math.Inf(-1))
	}
	return q
}

// down32 rounds x toward minus infinity to a float32.
func down32(x float64) float32 {
	f := float32(x)
	if float64(f) > x {
		f = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	return f
}

func sign(x float32) float32 {
	if x < 0 {
		return -1
	}
	return 1
}
