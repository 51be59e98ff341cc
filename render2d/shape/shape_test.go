package shape_test

import (
	"math"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/shape"
)

type v2 = geom.Vec2

// coreArea sums the areas of the triangles of m where their vertices are
// before the offsets that antialias them: what the shape covers. (A
// fringe's triangles have no area there: their outer vertices sit on the
// edge.)
func coreArea(t *testing.T, vs []render2d.Vertex, ix []uint32, m render2d.Mesh) float64 {
	t.Helper()
	check(t, vs, ix, m)
	verts := vs[m.FirstVertex : m.FirstVertex+m.VertexCount]
	area := 0.0
	tris := ix[m.FirstIndex : m.FirstIndex+m.IndexCount]
	for i := 0; i < len(tris); i += 3 {
		a, b, c := verts[tris[i]], verts[tris[i+1]], verts[tris[i+2]]
		k := 1.0
		if a.Radius > 0 && b.Radius > 0 && c.Radius > 0 {
			k = math.Pi / 4 // a disc's quad: it covers the circle inside
		}
		ab := xy(b.Position.X-a.Position.X, b.Position.Y-a.Position.Y)
		ac := xy(c.Position.X-a.Position.X, c.Position.Y-a.Position.Y)
		area += k * math.Abs(float64(ab.X*ac.Y-ab.Y*ac.X)) / 2
	}
	return area
}

// check fails unless m is a well-formed mesh of finite vertices.
func check(t testing.TB, vs []render2d.Vertex, ix []uint32, m render2d.Mesh) {
	t.Helper()
	if m.IndexCount%3 != 0 || int(m.FirstIndex+m.IndexCount) > len(ix) || int(m.FirstVertex+m.VertexCount) > len(vs) {
		t.Fatalf("mesh %+v outside %d vertices and %d indices", m, len(vs), len(ix))
	}
	for _, i := range ix[m.FirstIndex : m.FirstIndex+m.IndexCount] {
		if i >= m.VertexCount {
			t.Fatalf("index %d, want below %d", i, m.VertexCount)
		}
	}
	for _, v := range vs[m.FirstVertex : m.FirstVertex+m.VertexCount] {
		for _, f := range []float32{v.Position.X, v.Position.Y, v.Offset.X, v.Offset.Y, v.Coverage, v.Edge, v.Radius, v.Disc.X, v.Disc.Y} {
			if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
				t.Fatalf("vertex %+v is not finite", v)
			}
		}
		if v.Coverage < 0 || v.Coverage > 1 || math.Hypot(float64(v.Offset.X), float64(v.Offset.Y)) > 4.01 {
			t.Fatalf("vertex %+v: coverage outside [0, 1] or offset beyond 4 px", v)
		}
	}
}

func square(x, y, s float32, ccw bool) []v2 {
	if ccw {
		return []v2{xy(x, y), xy(x, y+s), xy(x+s, y+s), xy(x+s, y)}
	}
	return []v2{xy(x, y), xy(x+s, y), xy(x+s, y+s), xy(x, y+s)}
}

// TestCoveredArea: every primitive, join and cap covers the area it
// should (its fringe aside), so fills are whole and strokes never cover
// a corner twice.
func TestCoveredArea(t *testing.T) {
	holed := shape.Polygon(square(0, 0, 10, false)...)
	holed.Holes = [][]v2{square(3, 3, 4, true)}
	sameWay := holed
	sameWay.Holes = [][]v2{square(3, 3, 4, false)}
	sameWayEO := sameWay
	sameWayEO.Rule = shape.EvenOdd
	star := shape.Polygon(xy(50, 0), xy(79.39, 90.45), xy(2.45, 34.55), xy(97.55, 34.55), xy(20.61, 90.45))
	starEO := star
	starEO.Rule = shape.EvenOdd
	corner := func(j shape.Join) shape.Shape {
		s := shape.Polyline([]v2{xy(0, 0), xy(10, 0), xy(10, 10)}, 2)
		s.Join = j
		return s
	}
	capped := func(c shape.Cap) shape.Shape { s := shape.Line(xy(0, 0), xy(10, 0), 2); s.Cap = c; return s }
	pi := math.Pi
	// A pentagram of circumradius 50: non-zero fills it whole, even-odd
	// leaves out its inner pentagon (circumradius 50·cos 72°/cos 36°).
	ri := 50 * math.Cos(2*pi/5) / math.Cos(pi/5)
	starArea, pentagon := 5*50*ri*math.Sin(pi/5), 2.5*ri*ri*math.Sin(2*pi/5)
	fine := func(s shape.Shape) shape.Shape { s.Segments = shape.MaxSegments; return s }
	tests := []struct {
		name string
		s    shape.Shape
		want float64
		tol  float64
	}{
		{"line", shape.Line(xy(0, 0), xy(30, 40), 4), 200, 1e-3},
		{"line, square caps", capped(shape.CapSquare), 12 * 2, 1e-3},
		{"line, round caps", capped(shape.CapRound), 10*2 + pi, 0.2},
		{"miter join", corner(shape.JoinMiter), 10*2 + 10*2, 1e-3},
		{"bevel join", corner(shape.JoinBevel), 10*2 + 10*2 - 0.5, 1e-3},
		{"round join", corner(shape.JoinRound), 10*2 + 10*2 - 1 + pi/4, 0.05},
		{"miter limit bevels", func() shape.Shape {
			s := shape.Polyline([]v2{xy(0, 0), xy(10, 0), xy(0, 1)}, 2)
			s.MiterLimit = 1.5
			return s
		}(), 0, -1},
		{"rect", shape.Rect(30, 20), 600, 1e-3},
		{"rect stroked", shape.Rect(30, 20).Stroked(2), (32*22 - 28*18), 1e-3},
		{"circle", shape.Circle(50), pi * 2500, 0.01 * pi * 2500},
		{"ellipse", shape.Ellipse(40, 10), pi * 400, 0.01 * pi * 400},
		{"circle stroked", shape.Circle(50).Stroked(4), pi * (52*52 - 48*48), 0.01 * pi * (52*52 - 48*48)},
		{"pie", fine(shape.Pie(10, 0, float32(pi/2))), pi * 25, 0.01},
		{"arc", shape.Arc(10, 0, float32(pi), 2), pi * 10 * 2, 0.01 * pi * 20},
		{"round rect", fine(shape.RoundRect(30, 20, 5)), 600 - (4-pi)*25, 0.01},
		{"concave", shape.Polygon(xy(0, 0), xy(10, 0), xy(10, 10), xy(5, 4), xy(0, 10)), 70, 1e-3},
		{"hole, non-zero", holed, 100 - 16, 1e-3},
		{"hole the same way round, non-zero", sameWay, 100, 1e-3},
		{"hole the same way round, even-odd", sameWayEO, 100 - 16, 1e-3},
		{"star, non-zero", star, starArea, 5},
		{"star, even-odd", starEO, starArea - pentagon, 5},
		{"zero radius", shape.Circle(0), 0, 0},
		{"point-long line", shape.Line(xy(3, 3), xy(3, 3), 2), 0, 0},
	}
	var tess shape.Tessellator
	var vs []render2d.Vertex
	var ix []uint32
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := tess.Append(&vs, &ix, &tt.s)
			if err != nil {
				t.Fatal(err)
			}
			got := coreArea(t, vs, ix, m)
			if tt.tol < 0 {
				if got <= 0 {
					t.Errorf("covers nothing")
				}
				return
			}
			if math.Abs(got-tt.want) > tt.tol {
				t.Errorf("area: got %.3f, want %.3f ± %v", got, tt.want, tt.tol)
			}
			if tt.want > 0 && m.IndexCount > 0 && antialiased(vs, m) == 0 {
				t.Error("no vertex is antialiased")
			}
		})
	}
}

// antialiased counts the vertices of m on an antialiased edge: at a
// fringe's outer side, or pushed out on an edge antialiased by distance.
func antialiased(vs []render2d.Vertex, m render2d.Mesh) int {
	n := 0
	for _, v := range vs[m.FirstVertex : m.FirstVertex+m.VertexCount] {
		if v.Coverage == 0 || (v.Edge == 0 && v.Offset != (v2{})) || v.Radius > 0 {
			n++
		}
	}
	return n
}

// TestMiterLimit: a hairpin's miter would reach far beyond the corner;
// past the limit it is a bevel, and no point of the stroke lies further
// than the limit's half-widths from the path.
func TestMiterLimit(t *testing.T) {
	s := shape.Polyline([]v2{xy(0, 0), xy(100, 0), xy(0, 2)}, 2)
	var tess shape.Tessellator
	var vs []render2d.Vertex
	var ix []uint32
	m, err := tess.Append(&vs, &ix, &s)
	if err != nil {
		t.Fatal(err)
	}
	check(t, vs, ix, m)
	for _, v := range vs {
		if v.Position.X > 100+shape.DefaultMiterLimit {
			t.Fatalf("vertex %v is beyond the miter limit", v.Position)
		}
	}
}

func TestValidate(t *testing.T) {
	nan := float32(math.NaN())
	tests := []struct {
		s    shape.Shape
		want []string
	}{
		{shape.Shape{}, []string{"Kind is 0"}},
		{shape.Line(v2{}, xy(1, 1), 0), []string{"Width is 0, want a positive width"}},
		{shape.Circle(-1), []string{"Radius is -1"}},
		{shape.Circle(1).Stroked(-2), []string{"Width is -2"}},
		{shape.Polygon(v2{}, xy(nan, 1), xy(2, 2)), []string{"Points[1]"}},
		{shape.Polygon(v2{}, xy(1, 1)), []string{"2 points, want at least 3"}},
		{shape.Shape{Kind: shape.KindCircle, Radius: 1, Segments: 2, Cap: 9, Join: 9, Rule: 9, MiterLimit: 0.5}, []string{"Segments is 2", "Cap is 9", "Join is 9", "Rule is 9", "MiterLimit is 0.5"}},
		{shape.Shape{Kind: shape.KindCircle, Radius: 1, Holes: [][]v2{square(0, 0, 1, true)}}, []string{"only polygons have holes"}},
	}
	var tess shape.Tessellator
	for _, tt := range tests {
		var vs []render2d.Vertex
		var ix []uint32
		_, err := tess.Append(&vs, &ix, &tt.s)
		if err == nil {
			t.Errorf("%+v: no error", tt.s)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: got %q, want it to mention %q", tt.s, err, w)
			}
		}
		if len(vs) != 0 || len(ix) != 0 {
			t.Errorf("%+v: an invalid shape appended %d vertices", tt.s, len(vs))
		}
	}
}

func xy(x, y float32) v2 { return v2{X: x, Y: y} }

// TestEdgeDistances: in every triangle antialiased by distance with two
// corners on its edge, the third corner's Edge is its distance from that
// edge's line, and a triangle never mixes the two ways of antialiasing.
func TestEdgeDistances(t *testing.T) {
	round := shape.Polyline([]v2{xy(0, 0), xy(30, 0), xy(30, 20), xy(5, 25)}, 6)
	round.Join, round.Cap = shape.JoinRound, shape.CapRound
	bevel := round
	bevel.Join, bevel.Cap = shape.JoinBevel, shape.CapSquare
	for _, s := range []shape.Shape{round, bevel, shape.Ellipse(10, 10), shape.Ellipse(20, 5).Stroked(3), shape.Polygon(xy(0, 0), xy(10, 0), xy(12, 8), xy(0, 5))} {
		var tess shape.Tessellator
		var vs []render2d.Vertex
		var ix []uint32
		m, err := tess.Append(&vs, &ix, &s)
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for i := 0; i < len(ix); i += 3 {
			c := [3]render2d.Vertex{vs[ix[i]], vs[ix[i+1]], vs[ix[i+2]]}
			none := 0
			for _, v := range c {
				if v.Edge == render2d.NoEdge {
					none++
				}
			}
			if none != 0 && none != 3 {
				t.Fatalf("%v: triangle %v mixes edge and fringe vertices", s.Kind, c)
			}
			for k := range 3 {
				a, b, o := c[(k+1)%3], c[(k+2)%3], c[k]
				if none != 0 || a.Edge != 0 || b.Edge != 0 || a.Position == b.Position {
					continue
				}
				d := v2{X: b.Position.X - a.Position.X, Y: b.Position.Y - a.Position.Y}
				w := v2{X: o.Position.X - a.Position.X, Y: o.Position.Y - a.Position.Y}
				dist := math.Abs(float64(d.X*w.Y-d.Y*w.X)) / math.Hypot(float64(d.X), float64(d.Y))
				if math.Abs(dist-float64(o.Edge)) > 1e-3 {
					t.Errorf("%v: vertex at %v has Edge %v, but lies %v from its triangle's edge", s.Kind, o.Position, o.Edge, dist)
				}
				checked++
			}
		}
		if checked == 0 {
			t.Errorf("%v (%d triangles): no triangle antialiased by distance", s.Kind, m.IndexCount/3)
		}
	}
}

// TestConvexCost: a convex fill of n points is n triangles on at most 2n
// vertices, a straight line four triangles and a filled circle two:
// antialiasing by distance adds none.
func TestConvexCost(t *testing.T) {
	for _, tt := range []struct {
		s          shape.Shape
		tris, most int
	}{
		{shape.Shape{Kind: shape.KindEllipse, Size: xy(40, 30), Segments: 64}, 64, 128},
		{shape.Circle(40), 2, 4}, // a disc
		{shape.Rect(10, 5), 4, 8},
		{shape.Line(xy(0, 0), xy(20, 3), 2), 4, 8},
	} {
		var tess shape.Tessellator
		var vs []render2d.Vertex
		var ix []uint32
		m, err := tess.Append(&vs, &ix, &tt.s)
		if err != nil {
			t.Fatal(err)
		}
		if int(m.IndexCount/3) != tt.tris || int(m.VertexCount) > tt.most {
			t.Errorf("%v: %d triangles on %d vertices, want %d on at most %d", tt.s.Kind, m.IndexCount/3, m.VertexCount, tt.tris, tt.most)
		}
	}
}
