package shape

import (
	"errors"
	"fmt"
	"math"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// Kind says what a [Shape] is.
type Kind uint8

const (
	// KindLine is the segment from Points[0] to Points[1], stroked.
	KindLine Kind = iota + 1
	// KindPolyline is the open path through Points, stroked.
	KindPolyline
	// KindPolygon is the closed outline through Points, with Holes cut
	// out of it when filled; filled by Rule, or stroked.
	KindPolygon
	// KindCircle is a circle of Radius about the origin.
	KindCircle
	// KindEllipse is an ellipse of radii Size about the origin.
	KindEllipse
	// KindArc is the part of a circle of Radius about the origin from
	// angle Start turning by Sweep: stroked, an open arc; filled, a pie
	// slice.
	KindArc
	// KindRect is a rectangle of Size with its top-left corner at the
	// origin, as a sprite's quad.
	KindRect
	// KindRoundRect is a KindRect whose corners are quarter circles of
	// Radius.
	KindRoundRect
	kindEnd
)

var kindNames = [...]string{"", "line", "polyline", "polygon", "circle", "ellipse", "arc", "rect", "round rect"}

func (k Kind) String() string {
	if k > 0 && k < kindEnd {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Cap is how a stroke's open ends look.
type Cap uint8

const (
	// CapButt ends the stroke square at the end point (the zero value).
	CapButt Cap = iota
	// CapSquare ends it square, half the width beyond the end point.
	CapSquare
	// CapRound ends it with a half circle about the end point.
	CapRound
)

// Join is how a stroke turns a corner.
type Join uint8

const (
	// JoinMiter meets the outer edges in a point (the zero value), or in
	// a bevel where that point is further than MiterLimit half-widths
	// from the corner.
	JoinMiter Join = iota
	// JoinBevel cuts the corner straight.
	JoinBevel
	// JoinRound rounds the corner with a circle about it.
	JoinRound
)

// FillRule says which points a filled polygon covers when its outline
// crosses itself or it has holes.
type FillRule uint8

const (
	// NonZero covers the points the outlines wind around a non-zero
	// number of times (the zero value): a hole must run the other way
	// round from the outline it is cut from.
	NonZero FillRule = iota
	// EvenOdd covers the points inside an odd number of outlines: a hole
	// is a hole whichever way it runs.
	EvenOdd
)

// DefaultMiterLimit is the miter limit of a zero [Shape.MiterLimit], in
// half-widths (SVG's default).
const DefaultMiterLimit = 4

// Limits on one shape, so that tessellating any input takes bounded time
// and memory: [Tessellator.Append] refuses shapes beyond them.
const (
	// MaxPoints is the most points a shape's outlines may have in all.
	MaxPoints = 1 << 16
	// MaxSegments is the most segments [Shape.Segments] may ask for.
	MaxSegments = 1024
	// MaxFillEdges is the most edges a filled polygon that is concave,
	// crosses itself or has holes may have (a convex one may have
	// MaxPoints).
	MaxFillEdges = 512
	// MaxCoordinate bounds every coordinate, size, radius and width.
	MaxCoordinate = 1 << 30
)

// Shape is a vector shape in its own units: the geometry only. A shape
// packet ([render2d.DrawPacket2D.Mesh]) places it with its Transform and
// colours it with its Tint, so moving, turning or recolouring a shape
// never tessellates it again. Build one with the functions of this
// package ([Line], [Circle], ...) or as a literal.
//
// Curves are cut into straight segments: Segments per full turn, or for
// zero a number from the radius that keeps them within a quarter unit of
// the true curve (at least 12 per turn). Every shape is antialiased over
// one pixel ([render2d.Vertex] says how).
type Shape struct {
	Kind Kind
	// Points are the vertices of a line (two), polyline (two or more) or
	// polygon (three or more).
	Points []geom.Vec2
	// Holes are outlines cut out of a filled polygon, by Rule.
	Holes [][]geom.Vec2
	// Size is a rectangle's width and height, or an ellipse's radii.
	Size geom.Vec2
	// Radius is a circle's or arc's radius, or a rounded rectangle's
	// corner radius (at most half its shorter side: larger is clamped).
	Radius float32
	// Start and Sweep are an arc's first angle and how far it turns, in
	// radians; positive turns clockwise on screen (y points down), from
	// the +x axis. A sweep beyond a full turn is a full turn.
	Start, Sweep float32
	// Width, when positive, strokes the outline with a line this wide;
	// zero fills the shape. Lines and polylines have no inside: they need
	// a positive Width.
	Width float32
	// Cap, Join and MiterLimit (in half-widths; zero means
	// DefaultMiterLimit) shape a stroke's ends and corners.
	Cap        Cap
	Join       Join
	MiterLimit float32
	// Rule fills a polygon that crosses itself or has holes.
	Rule FillRule
	// Segments, when not zero, is how many straight segments a full turn
	// of a curve is cut into (at least 3, at most MaxSegments).
	Segments int
}

// Line is the segment from a to b, stroked width wide with butt caps.
func Line(a, b geom.Vec2, width float32) Shape {
	return Shape{Kind: KindLine, Points: []geom.Vec2{a, b}, Width: width}
}

// Polyline is the open path through pts, stroked width wide with butt caps
// and miter joins. It keeps pts.
func Polyline(pts []geom.Vec2, width float32) Shape {
	return Shape{Kind: KindPolyline, Points: pts, Width: width}
}

// Polygon is the filled polygon through pts (closed back to the first),
// by the non-zero rule. It keeps pts.
func Polygon(pts ...geom.Vec2) Shape {
	return Shape{Kind: KindPolygon, Points: pts}
}

// Circle is the filled circle of radius r about the origin.
func Circle(r float32) Shape { return Shape{Kind: KindCircle, Radius: r} }

// Ellipse is the filled ellipse of radii rx and ry about the origin.
func Ellipse(rx, ry float32) Shape {
	return Shape{Kind: KindEllipse, Size: geom.Vec2{X: rx, Y: ry}}
}

// Arc is the arc of radius r about the origin from angle start turning by
// sweep (radians, clockwise on screen), stroked width wide.
func Arc(r, start, sweep, width float32) Shape {
	return Shape{Kind: KindArc, Radius: r, Start: start, Sweep: sweep, Width: width}
}

// Pie is the filled slice of the circle of radius r about the origin
// from angle start turning by sweep.
func Pie(r, start, sweep float32) Shape {
	return Shape{Kind: KindArc, Radius: r, Start: start, Sweep: sweep}
}

// Rect is the filled w x h rectangle with its top-left corner at the
// origin.
func Rect(w, h float32) Shape { return Shape{Kind: KindRect, Size: geom.Vec2{X: w, Y: h}} }

// RoundRect is the filled w x h rectangle with corners of radius r.
func RoundRect(w, h, r float32) Shape {
	return Shape{Kind: KindRoundRect, Size: geom.Vec2{X: w, Y: h}, Radius: r}
}

// Stroked returns s stroked width wide instead of filled.
func (s Shape) Stroked(width float32) Shape { s.Width = width; return s }

// Packet returns a shape packet at pos in colour c: scale one, unrotated,
// alpha-blended. [Tessellator.Draw] fills in its mesh.
func Packet(pos geom.Vec2, c render2d.Color) render2d.DrawPacket2D {
	return render2d.DrawPacket2D{Transform: render2d.Transform{Position: pos, Scale: geom.Vec2{X: 1, Y: 1}}, Tint: c}
}

// Validate reports every problem with s, each naming the field and what
// is allowed.
func (s *Shape) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("shape: "+format, args...)) }
	if s.Kind == 0 || s.Kind >= kindEnd {
		bad("Kind is %d, want KindLine (%d) to KindRoundRect (%d)", s.Kind, KindLine, KindRoundRect)
		return errors.Join(errs...)
	}
	if !finite(s.Width, MaxCoordinate) || s.Width < 0 {
		bad("%v: Width is %v, want 0 (filled) or a positive width up to %d", s.Kind, s.Width, MaxCoordinate)
	}
	if s.Cap > CapRound {
		bad("%v: Cap is %d, want CapButt, CapSquare or CapRound", s.Kind, s.Cap)
	}
	if s.Join > JoinRound {
		bad("%v: Join is %d, want JoinMiter, JoinBevel or JoinRound", s.Kind, s.Join)
	}
	if !finite(s.MiterLimit, MaxCoordinate) || (s.MiterLimit != 0 && s.MiterLimit < 1) {
		bad("%v: MiterLimit is %v, want 0 (%d) or at least 1", s.Kind, s.MiterLimit, DefaultMiterLimit)
	}
	if s.Rule > EvenOdd {
		bad("%v: Rule is %d, want NonZero or EvenOdd", s.Kind, s.Rule)
	}
	if s.Segments != 0 && (s.Segments < 3 || s.Segments > MaxSegments) {
		bad("%v: Segments is %d, want 0 (from the radius) or 3 to %d", s.Kind, s.Segments, MaxSegments)
	}
	points := func(pts []geom.Vec2, hole, least int) int {
		what := "Points"
		if hole >= 0 && (len(pts) < least || !allFinite(pts)) {
			what = fmt.Sprintf("Holes[%d]", hole) // formatted only when reported
		}
		if len(pts) < least {
			bad("%v: %s has %d points, want at least %d", s.Kind, what, len(pts), least)
		}
		for i, p := range pts {
			if !finite(p.X, MaxCoordinate) || !finite(p.Y, MaxCoordinate) {
				bad("%v: %s[%d] is %v, want coordinates within ±%d", s.Kind, what, i, p, MaxCoordinate)
				break
			}
		}
		return len(pts)
	}
	n := 0
	switch s.Kind {
	case KindLine:
		if len(s.Points) != 2 {
			bad("line: Points has %d points, want 2", len(s.Points))
		}
		n = points(s.Points, -1, 2)
	case KindPolyline:
		n = points(s.Points, -1, 2)
	case KindPolygon:
		n = points(s.Points, -1, 3)
		for i, h := range s.Holes {
			n += points(h, i, 3)
		}
	case KindCircle, KindArc:
		if !finite(s.Radius, MaxCoordinate) || s.Radius < 0 {
			bad("%v: Radius is %v, want 0 to %d", s.Kind, s.Radius, MaxCoordinate)
		}
	case KindEllipse, KindRect, KindRoundRect:
		if !finite(s.Size.X, MaxCoordinate) || !finite(s.Size.Y, MaxCoordinate) || s.Size.X < 0 || s.Size.Y < 0 {
			bad("%v: Size is %vx%v, want both 0 to %d", s.Kind, s.Size.X, s.Size.Y, MaxCoordinate)
		}
		if s.Kind == KindRoundRect && (!finite(s.Radius, MaxCoordinate) || s.Radius < 0) {
			bad("round rect: Radius is %v, want 0 to %d", s.Radius, MaxCoordinate)
		}
	}
	if s.Kind == KindArc && (!finite(s.Start, MaxCoordinate) || !finite(s.Sweep, MaxCoordinate)) {
		bad("arc: Start and Sweep are %v and %v, want finite angles", s.Start, s.Sweep)
	}
	if (s.Kind == KindLine || s.Kind == KindPolyline) && s.Width == 0 {
		bad("%v: Width is 0, want a positive width (a line has no inside to fill)", s.Kind)
	}
	if len(s.Holes) > 0 && s.Kind != KindPolygon {
		bad("%v: has %d holes, want none (only polygons have holes)", s.Kind, len(s.Holes))
	}
	if n > MaxPoints {
		bad("%v: %d points in all, want at most %d", s.Kind, n, MaxPoints)
	}
	return errors.Join(errs...)
}

func finite(v float32, limit float64) bool {
	f := float64(v)
	return !math.IsNaN(f) && f >= -limit && f <= limit
}

func allFinite(pts []geom.Vec2) bool {
	for _, p := range pts {
		if !finite(p.X, MaxCoordinate) || !finite(p.Y, MaxCoordinate) {
			return false
		}
	}
	return true
}
