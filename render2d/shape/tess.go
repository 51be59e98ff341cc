package shape

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// Tessellator turns shapes into meshes: triangles of [render2d.Vertex],
// antialiased over one pixel. It keeps scratch storage between
// calls, so once it and the pass it writes into have grown to a frame's
// shapes, tessellating them allocates nothing. The zero Tessellator is
// ready to use. It belongs to one goroutine (the one preparing the frame).
//
// Filled convex outlines are fans from their centroid, one triangle per
// edge, antialiased by distance; concave, self-crossing and holed
// polygons are cut into trapezoids between the heights of their vertices
// and crossings, filled by the shape's [FillRule]. Strokes are one strip
// along the path (joins and caps included) whose triangles do not overlap
// one another at miter and bevel joins, so a translucent stroke has an
// even colour there.
type Tessellator struct {
	pts   []pt  // the outlines of the shape being tessellated
	ends  []int // where each outline ends in pts
	path  []pt  // one outline, cleaned of repeated points
	ring  []uint32
	chain []joint
	edges []edge
	ys    []float64
	cross []crossing
	quad  [4]pt

	v    *[]render2d.Vertex
	ix   *[]uint32
	base int
}

type pt struct{ x, y float64 }

func (a pt) add(b pt) pt             { return pt{a.x + b.x, a.y + b.y} }
func (a pt) sub(b pt) pt             { return pt{a.x - b.x, a.y - b.y} }
func (a pt) mul(k float64) pt        { return pt{a.x * k, a.y * k} }
func (a pt) dot(b pt) float64        { return a.x*b.x + a.y*b.y }
func (a pt) cross(b pt) float64      { return a.x*b.y - a.y*b.x }
func (a pt) perp() pt                { return pt{-a.y, a.x} }
func (a pt) length() float64         { return math.Sqrt(a.x*a.x + a.y*a.y) } // bounded coordinates: no overflow
func (a pt) unit() pt                { return a.mul(1 / a.length()) }
func vec(v geom.Vec2) pt             { return pt{float64(v.X), float64(v.Y)} }
func (a pt) eq(b pt, e float64) bool { return math.Abs(a.x-b.x) <= e && math.Abs(a.y-b.y) <= e }

type edge struct {
	x0, y0, x1, y1 float64 // y0 < y1
	dir            int
}

func (e *edge) xAt(y float64) float64 {
	return e.x0 + (y-e.y0)*(e.x1-e.x0)/(e.y1-e.y0)
}

type crossing struct {
	xa, xb, xm float64 // at the band's top, bottom and middle
	dir        int
}

// Draw tessellates s into the pass pw writes and appends p as its shape
// packet, with p.Mesh set to the new mesh. Build p with [Packet] or as a
// sprite-like packet: its Transform places the shape, its Tint colours it,
// its Prev interpolates it, its Layer and Blend order and blend it. An
// invalid shape appends nothing and returns [Shape.Validate]'s error.
func (t *Tessellator) Draw(pw *render2d.PassWriter, s *Shape, p render2d.DrawPacket2D) error {
	v, ix := pw.Geometry()
	m, err := t.Append(v, ix, s)
	if err != nil {
		return err
	}
	if m.IndexCount == 0 {
		return nil // nothing to draw: a zero radius, a point-long line
	}
	p.Mesh = m
	pw.Draw(p)
	return nil
}

// Append tessellates s onto the ends of *v and *ix and returns the mesh
// that names the new triangles (indices relative to its first vertex). A
// shape that covers nothing (a zero radius or size, a line whose points
// coincide) gives a mesh of no indices. An invalid shape appends nothing
// and returns [Shape.Validate]'s error.
//
// The output is bounded by the input: a fill of n outline points makes at
// most 2n vertices and 3n indices when it is one convex outline, and at
// most 2n + 4·b·e vertices (b bands between the distinct heights of its
// vertices and crossings, e edges) otherwise; a stroke makes O(n·k)
// vertices, k the segments of a round join or cap.
func (t *Tessellator) Append(v *[]render2d.Vertex, ix *[]uint32, s *Shape) (render2d.Mesh, error) {
	if err := s.Validate(); err != nil {
		return render2d.Mesh{}, err
	}
	t.v, t.ix = v, ix
	t.base = len(*v)
	i0 := len(*ix)
	t.outline(s)
	fill := s.Width == 0
	switch {
	case fill && s.Kind == KindCircle:
		if r := float64(s.Radius); r > 0 {
			t.disc(r)
		}
	case fill:
		if err := t.fill(s.Rule); err != nil {
			*v, *ix = (*v)[:t.base], (*ix)[:i0]
			return render2d.Mesh{}, fmt.Errorf("shape: %v: %w", s.Kind, err)
		}
	default:
		closed := s.Kind != KindLine && s.Kind != KindPolyline && !(s.Kind == KindArc && s.Width > 0)
		limit := float64(s.MiterLimit)
		if limit == 0 {
			limit = DefaultMiterLimit
		}
		start := 0
		for _, end := range t.ends {
			t.stroke(t.pts[start:end], closed, float64(s.Width)/2, s.Cap, s.Join, limit, s.Segments)
			start = end
		}
	}
	t.v, t.ix = nil, nil
	return render2d.Mesh{
		FirstVertex: uint32(t.base), VertexCount: uint32(len(*v) - t.base),
		FirstIndex: uint32(i0), IndexCount: uint32(len(*ix) - i0),
	}, nil
}

// segments returns how many segments a full turn of radius r is cut into.
func segments(r float64, fixed int) int {
	if fixed > 0 {
		return fixed
	}
	if r <= 0.25 {
		return 12
	}
	n := int(math.Ceil(math.Pi / math.Acos(1-0.25/r)))
	return min(max(n, 12), MaxSegments)
}

// arcPoints appends the points of the arc about c of radii rx, ry from
// angle a0 turning by sweep (both ends included).
func (t *Tessellator) arcPoints(c pt, rx, ry, a0, sweep float64, fixed int) {
	n := int(math.Ceil(math.Abs(sweep) / (2 * math.Pi) * float64(segments(max(rx, ry), fixed))))
	n = max(n, 1)
	// Turn a unit vector step by step: two calls to the trigonometric
	// functions per arc instead of two per point.
	sn, cs := math.Sincos(sweep / float64(n))
	uy, ux := math.Sincos(a0)
	for range n + 1 {
		t.pts = append(t.pts, pt{c.x + rx*ux, c.y + ry*uy})
		ux, uy = ux*cs-uy*sn, ux*sn+uy*cs
	}
}

// outline fills pts and ends with the shape's outlines.
func (t *Tessellator) outline(s *Shape) {
	t.pts, t.ends = t.pts[:0], t.ends[:0]
	end := func() { t.ends = append(t.ends, len(t.pts)) }
	switch s.Kind {
	case KindLine, KindPolyline, KindPolygon:
		for _, p := range s.Points {
			t.pts = append(t.pts, vec(p))
		}
		end()
		for _, h := range s.Holes {
			for _, p := range h {
				t.pts = append(t.pts, vec(p))
			}
			end()
		}
	case KindCircle, KindEllipse:
		rx, ry := float64(s.Radius), float64(s.Radius)
		if s.Kind == KindEllipse {
			rx, ry = float64(s.Size.X), float64(s.Size.Y)
		}
		if rx > 0 && ry > 0 {
			t.arcPoints(pt{}, rx, ry, 0, 2*math.Pi, s.Segments)
			t.pts = t.pts[:len(t.pts)-1] // the last is the first again
		}
		end()
	case KindArc:
		r := float64(s.Radius)
		sweep := max(min(float64(s.Sweep), 2*math.Pi), -2*math.Pi)
		if r > 0 && sweep != 0 {
			if s.Width == 0 {
				t.pts = append(t.pts, pt{}) // a pie's centre
			}
			t.arcPoints(pt{}, r, r, float64(s.Start), sweep, s.Segments)
		}
		end()
	case KindRect:
		w, h := float64(s.Size.X), float64(s.Size.Y)
		if w > 0 && h > 0 {
			t.pts = append(t.pts, pt{0, 0}, pt{w, 0}, pt{w, h}, pt{0, h})
		}
		end()
	case KindRoundRect:
		w, h := float64(s.Size.X), float64(s.Size.Y)
		if w > 0 && h > 0 {
			r := min(float64(s.Radius), w/2, h/2)
			q := math.Pi / 2
			t.arcPoints(pt{w - r, r}, r, r, -q, q, s.Segments)
			t.arcPoints(pt{w - r, h - r}, r, r, 0, q, s.Segments)
			t.arcPoints(pt{r, h - r}, r, r, q, q, s.Segments)
			t.arcPoints(pt{r, r}, r, r, 2*q, q, s.Segments)
		}
		end()
	}
}

// clean copies pts into t.path without repeated points (and, for a
// closed outline, without a last point equal to the first).
func (t *Tessellator) clean(pts []pt, closed bool) []pt {
	t.path = t.path[:0]
	for _, p := range pts {
		if n := len(t.path); n > 0 && p.eq(t.path[n-1], 1e-9*max(1, math.Abs(p.x), math.Abs(p.y))) {
			continue
		}
		t.path = append(t.path, p)
	}
	if closed {
		for len(t.path) > 1 && t.path[len(t.path)-1].eq(t.path[0], 1e-9) {
			t.path = t.path[:len(t.path)-1]
		}
	}
	return t.path
}

// vertex appends a vertex without an antialiased edge of its own.
func (t *Tessellator) vertex(p pt, off pt, coverage float32) uint32 {
	return t.edgeVertex(p, off, coverage, render2d.NoEdge)
}

// edgeVertex appends a vertex edge shape units inside its triangles'
// antialiased edge.
func (t *Tessellator) edgeVertex(p pt, off pt, coverage, edge float32) uint32 {
	*t.v = append(*t.v, render2d.Vertex{
		Position: geom.Vec2{X: float32(p.x), Y: float32(p.y)},
		Offset:   geom.Vec2{X: float32(off.x), Y: float32(off.y)},
		Coverage: coverage,
		Edge:     edge,
	})
	return uint32(len(*t.v) - 1 - t.base)
}

// pushOut gives every vertex of the closed ring t.ring the offset that
// puts it half a pixel outside both of its outline's edges there: outward
// is +perp of the direction of travel when sign is 1, -perp when it is -1.
// Those are the edge vertices of triangles antialiased by distance.
func (t *Tessellator) pushOut(sign float64) {
	ring := t.ring
	n := len(ring)
	if n < 2 {
		return
	}
	vs := (*t.v)[t.base:]
	at := func(i int) pt { p := vs[ring[(i+n)%n]].Position; return pt{float64(p.X), float64(p.Y)} }
	for i := range n {
		m := miter(at(i-1), at(i), at(i+1)).mul(0.5 * sign)
		vs[ring[i]].Offset = geom.Vec2{X: float32(m.x), Y: float32(m.y)}
	}
}

// fan adds the triangle from centre c over the edge from a to b (relative
// vertex indices, pushed out later), antialiased by distance: c gets its
// own vertex at its distance from the edge's line.
func (t *Tessellator) fan(c pt, a, b uint32) {
	vs := (*t.v)[t.base:]
	pa, pb := vec(vs[a].Position), vec(vs[b].Position)
	d := pb.sub(pa)
	l := d.length()
	e := 0.0
	if l > 0 {
		e = math.Abs(d.cross(c.sub(pa))) / l
	}
	t.tri(t.edgeVertex(c, pt{}, 1, float32(e)), a, b)
}

func (t *Tessellator) tri(a, b, c uint32) { *t.ix = append(*t.ix, a, b, c) }

// fringe adds the antialiasing fringe outside the closed ring of
// (relative) vertex indices t.ring: outward is +perp of the direction of
// travel when sign is 1, -perp when it is -1.
func (t *Tessellator) fringe(sign float64) {
	ring := t.ring
	n := len(ring)
	if n < 2 {
		return
	}
	vs := (*t.v)[t.base:]
	at := func(i int) pt { p := vs[ring[(i+n)%n]].Position; return pt{float64(p.X), float64(p.Y)} }
	first := uint32(len(*t.v) - t.base)
	for i := range n {
		p0, p1, p2 := at(i-1), at(i), at(i+1)
		m := miter(p0, p1, p2)
		t.vertex(p1, m.mul(sign), 0)
	}
	for i := range n {
		j := (i + 1) % n
		a, b := ring[i], ring[j]
		fa, fb := first+uint32(i), first+uint32(j)
		t.tri(a, b, fb)
		t.tri(a, fb, fa)
	}
}

// miter returns the offset at p1, between edges p0→p1 and p1→p2, that
// lies one unit from both edges on their +perp side, shortened to at most
// four units at sharp corners.
func miter(p0, p1, p2 pt) pt {
	d0, d1 := p1.sub(p0), p2.sub(p1)
	l0, l1 := d0.length(), d1.length()
	switch {
	case l0 == 0 && l1 == 0:
		return pt{}
	case l0 == 0:
		return d1.mul(1 / l1).perp()
	case l1 == 0:
		return d0.mul(1 / l0).perp()
	}
	n0, n1 := d0.mul(1/l0).perp(), d1.mul(1/l1).perp()
	m := n0.add(n1).mul(0.5)
	dd := m.dot(m)
	if dd < 1.0/16 {
		return m.mul(4 / math.Sqrt(max(dd, 1e-30))).add(n0.mul(boolf(dd == 0)))
	}
	return m.mul(1 / dd)
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// fill fills the outlines in t.pts by rule.
func (t *Tessellator) fill(rule FillRule) error {
	if len(t.ends) == 1 {
		path := t.clean(t.pts, true)
		if len(path) < 3 {
			return nil
		}
		if area, ok := convex(path); ok {
			t.convexFill(path, area)
			return nil
		}
	}
	return t.sweep(rule)
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

// convex reports whether the closed outline path is convex and simple, and
// its signed area.
func convex(path []pt) (area float64, ok bool) {
	n := len(path)
	turn, winding := 0.0, 0.0
	for i := range n {
		p0, p1, p2 := path[i], path[(i+1)%n], path[(i+2)%n]
		area += p0.cross(p1)
		d0, d1 := p1.sub(p0), p2.sub(p1)
		c := d0.cross(d1)
		if c != 0 {
			if turn != 0 && sign(c) != turn {
				return area / 2, false
			}
			turn = sign(c)
		}
		winding += math.Atan2(c, d0.dot(d1))
	}
	// A simple convex outline turns once; a star turns twice or more.
	return area / 2, turn != 0 && math.Abs(math.Abs(winding)-2*math.Pi) < 0.1
}

// sweep fills any set of outlines by rule: trapezoids between consecutive
// heights at which a vertex lies or two edges cross, each spanning the
// runs of a band that the rule covers. Every outline also gets a fringe.
func (t *Tessellator) sweep(rule FillRule) error {
	t.edges, t.ys = t.edges[:0], t.ys[:0]
	start := 0
	for _, end := range t.ends {
		path := t.clean(t.pts[start:end], true)
		start = end
		n := len(path)
		if n < 3 {
			continue
		}
		for i := range n {
			a, b := path[i], path[(i+1)%n]
			t.ys = append(t.ys, a.y)
			switch {
			case a.y < b.y:
				t.edges = append(t.edges, edge{a.x, a.y, b.x, b.y, 1})
			case a.y > b.y:
				t.edges = append(t.edges, edge{b.x, b.y, a.x, a.y, -1})
			}
		}
		if len(t.edges) > MaxFillEdges {
			return fmt.Errorf("a filled outline that is not one convex polygon has over %d edges, want at most %d (split it, or stroke it)", len(t.edges), MaxFillEdges)
		}
		// The outline's fringe, on its own vertices.
		t.ring = t.ring[:0]
		area := 0.0
		for i, p := range path {
			area += p.cross(path[(i+1)%n])
			t.ring = append(t.ring, t.vertex(p, pt{}, 1))
		}
		t.fringe(-sign(area))
	}
	for i := range t.edges {
		a := &t.edges[i]
		for j := i + 1; j < len(t.edges); j++ {
			if y, ok := intersectY(a, &t.edges[j]); ok {
				t.ys = append(t.ys, y)
			}
		}
	}
	slices.Sort(t.ys)
	t.ys = slices.Compact(t.ys)
	for k := 1; k < len(t.ys); k++ {
		ya, yb := t.ys[k-1], t.ys[k]
		ym := (ya + yb) / 2
		t.cross = t.cross[:0]
		for i := range t.edges {
			e := &t.edges[i]
			if e.y0 <= ya && e.y1 >= yb {
				t.cross = append(t.cross, crossing{e.xAt(ya), e.xAt(yb), e.xAt(ym), e.dir})
			}
		}
		slices.SortFunc(t.cross, func(a, b crossing) int { return cmp.Compare(a.xm, b.xm) })
		wind := 0
		var left *crossing
		for i := range t.cross {
			c := &t.cross[i]
			wind += c.dir
			in := wind != 0
			if rule == EvenOdd {
				in = wind&1 != 0
			}
			switch {
			case in && left == nil:
				left = c
			case !in && left != nil:
				a := t.vertex(pt{left.xa, ya}, pt{}, 1)
				b := t.vertex(pt{c.xa, ya}, pt{}, 1)
				cc := t.vertex(pt{c.xb, yb}, pt{}, 1)
				d := t.vertex(pt{left.xb, yb}, pt{}, 1)
				t.tri(a, b, cc)
				t.tri(a, cc, d)
				left = nil
			}
		}
	}
	return nil
}

// intersectY returns the height at which edges a and b cross strictly
// inside both, if they do.
func intersectY(a, b *edge) (float64, bool) {
	lo, hi := max(a.y0, b.y0), min(a.y1, b.y1)
	if lo >= hi {
		return 0, false
	}
	da := a.xAt(lo) - b.xAt(lo)
	db := a.xAt(hi) - b.xAt(hi)
	if da == 0 || db == 0 || (da < 0) == (db < 0) {
		return 0, false
	}
	y := lo + (hi-lo)*da/(da-db)
	if !(y > lo && y < hi) {
		return 0, false
	}
	return y, true
}

// convexFill fills the convex outline path (of signed area area): a fan
// from its centroid, one triangle per edge, each antialiased by distance.
func (t *Tessellator) convexFill(path []pt, area float64) {
	var c pt
	for _, p := range path {
		c = c.add(p)
	}
	c = c.mul(1 / float64(len(path)))
	t.ring = t.ring[:0]
	for _, p := range path {
		t.ring = append(t.ring, t.edgeVertex(p, pt{}, 1, 0))
	}
	for i := range t.ring {
		t.fan(c, t.ring[i], t.ring[(i+1)%len(t.ring)])
	}
	t.pushOut(-sign(area))
}

// stroke strokes the outline raw, hw half-widths wide either side. Each
// segment is two quads, from the path to either side, antialiased by
// distance along their outer side; joins and round caps are fans from the
// path point. The sides' vertices form the stroke's outline (one ring, or
// two for a closed path), which pushes them out.
func (t *Tessellator) stroke(raw []pt, closed bool, hw float64, cp Cap, jn Join, limit float64, fixed int) {
	path := t.clean(raw, closed)
	n := len(path)
	if n < 2 || (closed && n < 3) {
		if n == 1 && !closed && cp != CapButt {
			t.dot(path[0], hw, cp, fixed) // a zero-length line with caps is a dot
		}
		return
	}
	if !closed && cp == CapSquare {
		path[0] = path[0].sub(path[1].sub(path[0]).unit().mul(hw))
		path[n-1] = path[n-1].add(path[n-1].sub(path[n-2]).unit().mul(hw))
	}
	if !closed && n == 2 && cp != CapRound {
		// A single segment with square ends is a rectangle: four
		// triangles, every side antialiased by distance.
		a, b := path[0], path[1]
		w := b.sub(a).unit().perp().mul(hw)
		t.quad = [4]pt{a.add(w), b.add(w), b.sub(w), a.sub(w)}
		t.convexFill(t.quad[:], -1) // +perp on the left: clockwise in the math sense
		return
	}
	t.chain = t.chain[:0]
	for i := range n {
		p := path[i]
		var d0, d1 pt
		switch {
		case !closed && i == 0:
			d1 = path[1].sub(p).unit()
			d0 = d1
		case !closed && i == n-1:
			d0 = p.sub(path[n-2]).unit()
			d1 = d0
		default:
			d0 = p.sub(path[(i+n-1)%n]).unit()
			d1 = path[(i+1)%n].sub(p).unit()
		}
		t.chain = append(t.chain, t.join(p, d0, d1, hw, jn, limit, fixed))
	}
	segs := n - 1
	if closed {
		segs = n
	}
	for i := range segs {
		a, b := &t.chain[i], &t.chain[(i+1)%n]
		t.tri(a.ll, b.lf, b.c)
		t.tri(a.ll, b.c, a.c)
		t.tri(a.c, b.c, b.rf)
		t.tri(a.c, b.rf, a.rl)
	}
	if closed {
		// Two rings: the left side forward and the right side backward;
		// both have the outside on their +perp side.
		t.ring = t.ring[:0]
		for i := range n {
			t.appendRun(t.chain[i].lf, t.chain[i].ll)
		}
		t.pushOut(1)
		t.ring = t.ring[:0]
		for i := n - 1; i >= 0; i-- {
			t.appendRun(t.chain[i].rl, t.chain[i].rf)
		}
		t.pushOut(1)
		return
	}
	// One ring: the left side forward, the end cap, the right side
	// backward, the start cap. Butt and square ends are not in it: their
	// corners are pushed out from the sides only, and the end gets a
	// fringe.
	t.ring = t.ring[:0]
	for i := range n {
		t.appendRun(t.chain[i].lf, t.chain[i].ll)
	}
	if cp == CapRound {
		t.cap(path[n-1], path[n-1].sub(path[n-2]).unit(), hw, t.chain[n-1].ll, t.chain[n-1].rl, fixed)
	}
	for i := n - 1; i >= 0; i-- {
		t.appendRun(t.chain[i].rl, t.chain[i].rf)
	}
	if cp == CapRound {
		t.cap(path[0], path[0].sub(path[1]).unit(), hw, t.chain[0].rf, t.chain[0].lf, fixed)
	}
	t.pushOut(1)
	if cp != CapRound {
		t.endFringe(&t.chain[0], path[1].sub(path[0]).unit(), -1)
		t.endFringe(&t.chain[n-1], path[n-1].sub(path[n-2]).unit(), 1)
	}
}

// endFringe antialiases the butt end at joint j of a path running along
// d: its side corners are pushed out from the sides alone (perpendicular
// to d), and a fringe a pixel wide runs outward (along d times out) from
// the end's line.
func (t *Tessellator) endFringe(j *joint, d pt, out float64) {
	vs := (*t.v)[t.base:]
	n := d.perp().mul(0.5)
	vs[j.lf].Offset = geom.Vec2{X: float32(n.x), Y: float32(n.y)}
	vs[j.rf].Offset = geom.Vec2{X: float32(-n.x), Y: float32(-n.y)}
	o := d.mul(out)
	var in, edge [3]uint32
	for k, v := range [3]uint32{j.lf, j.c, j.rf} {
		p := vec((*t.v)[t.base+int(v)].Position)
		in[k] = t.vertex(p, pt{}, 1)
		edge[k] = t.vertex(p, o, 0)
	}
	for k := range 2 {
		t.tri(in[k], in[k+1], edge[k+1])
		t.tri(in[k], edge[k+1], edge[k])
	}
}

// appendRun appends the consecutive vertices from a to b (either way) to
// the ring.
func (t *Tessellator) appendRun(a, b uint32) {
	if a <= b {
		for i := a; i <= b; i++ {
			t.ring = append(t.ring, i)
		}
		return
	}
	for i := a; ; i-- {
		t.ring = append(t.ring, i)
		if i == b {
			return
		}
	}
}

// joint is where one path vertex's stroke points lie (relative indices):
// the path point c, and the left and right sides' first and last points.
type joint struct{ c, lf, ll, rf, rl uint32 }

// join adds the stroke points at path vertex p, where the path comes in
// along d0 and leaves along d1 (unit vectors), and returns where they are.
func (t *Tessellator) join(p, d0, d1 pt, hw float64, jn Join, limit float64, fixed int) joint {
	n0, n1 := d0.perp(), d1.perp()
	c := d0.cross(d1)
	centre := t.edgeVertex(p, pt{}, 1, float32(hw))
	if math.Abs(c) < 1e-9 && d0.dot(d1) > 0 { // straight on
		l := t.edgeVertex(p.add(n0.mul(hw)), pt{}, 1, 0)
		r := t.edgeVertex(p.sub(n0.mul(hw)), pt{}, 1, 0)
		return joint{centre, l, l, r, r}
	}
	m := n0.add(n1).mul(0.5)
	dd := m.dot(m)
	if jn == JoinMiter && dd > 0 && 1/math.Sqrt(dd) <= limit {
		mv := m.mul(hw / dd)
		l := t.edgeVertex(p.add(mv), pt{}, 1, 0)
		r := t.edgeVertex(p.sub(mv), pt{}, 1, 0)
		return joint{centre, l, l, r, r}
	}
	// The inner side meets at the miter point, kept within a few widths so
	// that a hairpin does not throw it far away; the outer side is a bevel
	// or an arc from the incoming side's normal to the outgoing one's,
	// filled by a fan from the path point.
	side := 1.0 // +perp (left) is outer when the path turns towards -perp
	if c > 0 {
		side = -1
	}
	inner := p
	if dd > 1e-12 {
		k := min(hw/dd, hw*limit/math.Sqrt(dd))
		inner = p.sub(m.mul(k * side))
	}
	in := t.edgeVertex(inner, pt{}, 1, 0)
	first := t.edgeVertex(p.add(n0.mul(hw*side)), pt{}, 1, 0)
	if jn == JoinRound {
		a0 := math.Atan2(n0.y*side, n0.x*side)
		sweep := math.Atan2(c, d0.dot(d1)) // signed turn from d0 to d1
		steps := int(math.Ceil(math.Abs(sweep) / (2 * math.Pi) * float64(segments(hw, fixed))))
		for i := 1; i < steps; i++ {
			a := a0 + sweep*float64(i)/float64(steps)
			t.edgeVertex(p.add(pt{math.Cos(a), math.Sin(a)}.mul(hw)), pt{}, 1, 0)
		}
	}
	last := t.edgeVertex(p.add(n1.mul(hw*side)), pt{}, 1, 0)
	for i := first; i < last; i++ {
		t.fan(p, i, i+1)
	}
	if side > 0 {
		return joint{centre, first, last, in, in}
	}
	return joint{centre, in, in, first, last}
}

// cap adds a round cap about p of radius hw facing d, from vertex from to
// vertex to, and appends its arc to the ring.
func (t *Tessellator) cap(p, d pt, hw float64, from, to uint32, fixed int) {
	steps := max(segments(hw, fixed)/2, 2)
	vs := (*t.v)[t.base:]
	f := vec(vs[from].Position).sub(p)
	a0 := math.Atan2(f.y, f.x)
	// Half a turn through d: from +perp of d that is turning by -π.
	sweep := -math.Pi
	if f.cross(d) > 0 {
		sweep = math.Pi
	}
	prev := from
	for i := 1; i < steps; i++ {
		a := a0 + sweep*float64(i)/float64(steps)
		v := t.edgeVertex(p.add(pt{math.Cos(a), math.Sin(a)}.mul(hw)), pt{}, 1, 0)
		t.fan(p, prev, v)
		t.ring = append(t.ring, v)
		prev = v
	}
	t.fan(p, prev, to)
}

// dot draws a zero-length stroke's round or square cap.
func (t *Tessellator) dot(p pt, hw float64, cp Cap, fixed int) {
	t.pts = t.pts[:0]
	if cp == CapRound {
		t.arcPoints(p, hw, hw, 0, 2*math.Pi, fixed)
		t.pts = t.pts[:len(t.pts)-1]
	} else {
		t.pts = append(t.pts, pt{p.x - hw, p.y - hw}, pt{p.x + hw, p.y - hw}, pt{p.x + hw, p.y + hw}, pt{p.x - hw, p.y + hw})
	}
	area := 0.0
	for i, q := range t.pts {
		area += q.cross(t.pts[(i+1)%len(t.pts)])
	}
	t.convexFill(t.pts, area/2)
}

// disc draws a filled circle of radius r about the origin as a disc: one
// quad, pushed a pixel out on every side so that it holds the
// antialiased rim, covered by each fragment's distance from the centre.
func (t *Tessellator) disc(r float64) {
	base := uint32(len(*t.v) - t.base)
	for _, c := range [4]pt{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		*t.v = append(*t.v, render2d.Vertex{
			Position: geom.Vec2{X: float32(c.x * r), Y: float32(c.y * r)},
			Offset:   geom.Vec2{X: float32(c.x), Y: float32(c.y)},
			Coverage: 1, Edge: render2d.NoEdge,
			Radius: float32(r), Disc: geom.Vec2{X: float32(c.x), Y: float32(c.y)},
		})
	}
	t.tri(base, base+1, base+2)
	t.tri(base, base+2, base+3)
}
