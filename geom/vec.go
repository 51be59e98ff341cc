package geom

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Vec2 is a 2D vector or point: in world units, texels or pixels depending
// on use. It is the one vector type of the framework: draw packets, cameras,
// ECS components and shapes all hold it.
//
// The methods return new values and never modify the receiver. They give
// the same results on every machine: each product is rounded by an
// explicit conversion before it is added to anything, so no compiler
// fuses the two into one multiply-add (see the ecs package's section on
// determinism). Transform goes through mathgl, which does not promise
// that: use it for drawing, not in simulation code.
type Vec2 struct{ X, Y float32 }

// V returns the vector (x, y); it saves spelling out field names, which go
// vet asks for in composite literals of another package's struct.
func V(x, y float32) Vec2 { return Vec2{x, y} }

// FromMgl converts a mathgl vector.
func FromMgl(v mgl32.Vec2) Vec2 { return Vec2{v[0], v[1]} }

// Mgl converts v to a mathgl vector, for use with mgl32's matrices.
func (v Vec2) Mgl() mgl32.Vec2 { return mgl32.Vec2{v.X, v.Y} }

// Transform applies the 2D homogeneous transform m (built with mgl32's
// Translate2D, HomogRotate2D, Scale2D and Mat3.Mul3) to the point v.
func (v Vec2) Transform(m mgl32.Mat3) Vec2 {
	r := m.Mul3x1(mgl32.Vec3{v.X, v.Y, 1})
	if r[2] != 1 && r[2] != 0 { // a projective matrix; affine ones keep w = 1
		return Vec2{r[0] / r[2], r[1] / r[2]}
	}
	return Vec2{r[0], r[1]}
}

// Add returns v + w.
func (v Vec2) Add(w Vec2) Vec2 { return Vec2{v.X + w.X, v.Y + w.Y} }

// Sub returns v - w.
func (v Vec2) Sub(w Vec2) Vec2 { return Vec2{v.X - w.X, v.Y - w.Y} }

// Scale returns v * s.
func (v Vec2) Scale(s float32) Vec2 { return Vec2{float32(v.X * s), float32(v.Y * s)} }

// Mul returns the component-wise product (v.X*w.X, v.Y*w.Y).
func (v Vec2) Mul(w Vec2) Vec2 { return Vec2{float32(v.X * w.X), float32(v.Y * w.Y)} }

// Neg returns -v.
func (v Vec2) Neg() Vec2 { return Vec2{-v.X, -v.Y} }

// Dot returns the dot product of v and w.
func (v Vec2) Dot(w Vec2) float32 { return float32(v.X*w.X) + float32(v.Y*w.Y) }

// Cross returns the z component of the 3D cross product of v and w: positive
// when w is counter-clockwise from v in a y-up frame (clockwise on a y-down
// screen).
func (v Vec2) Cross(w Vec2) float32 { return float32(v.X*w.Y) - float32(v.Y*w.X) }

// LenSqr returns the squared length of v, cheaper than [Vec2.Len] for
// comparisons.
func (v Vec2) LenSqr() float32 { return float32(v.X*v.X) + float32(v.Y*v.Y) }

// Len returns the length of v. It squares in float64, so it neither
// overflows nor loses the small component for any finite float32 input.
func (v Vec2) Len() float32 {
	x, y := float64(v.X), float64(v.Y)
	return float32(math.Sqrt(float64(x*x) + float64(y*y)))
}

// Dist returns the distance between the points v and w.
func (v Vec2) Dist(w Vec2) float32 { return v.Sub(w).Len() }

// Normalize returns v scaled to length 1, or the zero vector when v is zero:
// a ball at rest has no direction, and NaN would spread through the game.
func (v Vec2) Normalize() Vec2 {
	l := v.Len()
	if l == 0 {
		return Vec2{}
	}
	return Vec2{v.X / l, v.Y / l}
}

// Lerp returns the point a fraction t of the way from v to w: v at t = 0, w
// at t = 1, extrapolating outside [0, 1].
func (v Vec2) Lerp(w Vec2, t float32) Vec2 {
	return Vec2{v.X + float32((w.X-v.X)*t), v.Y + float32((w.Y-v.Y)*t)}
}

// Perp returns v rotated a quarter turn: (-Y, X).
func (v Vec2) Perp() Vec2 { return Vec2{-v.Y, v.X} }

// Reflect returns v mirrored on a surface with unit normal n, as a ball
// bounces: v - 2(v·n)n. It is what to do with a velocity and a
// [Hit.Normal].
func (v Vec2) Reflect(n Vec2) Vec2 {
	d := 2 * v.Dot(n)
	return Vec2{v.X - float32(d*n.X), v.Y - float32(d*n.Y)}
}

// Min returns the component-wise minimum of v and w.
func (v Vec2) Min(w Vec2) Vec2 { return Vec2{min(v.X, w.X), min(v.Y, w.Y)} }

// Max returns the component-wise maximum of v and w.
func (v Vec2) Max(w Vec2) Vec2 { return Vec2{max(v.X, w.X), max(v.Y, w.Y)} }

// Abs returns the component-wise absolute value of v.
func (v Vec2) Abs() Vec2 { return Vec2{abs(v.X), abs(v.Y)} }

// IsZero reports whether both components are zero.
func (v Vec2) IsZero() bool { return v.X == 0 && v.Y == 0 }

// ApproxEqual reports whether each component of v is within eps of w's,
// scaled by the component's magnitude when that exceeds 1: an absolute
// tolerance near zero, a relative one for large coordinates.
func (v Vec2) ApproxEqual(w Vec2, eps float32) bool {
	return near(v.X, w.X, eps) && near(v.Y, w.Y, eps)
}

func near(a, b, eps float32) bool { return abs(a-b) <= eps*max(1, abs(a), abs(b)) }

// Lerp returns a + (b-a)*t.
func Lerp(a, b, t float32) float32 { return a + (b-a)*t }

// Clamp returns x limited to [lo, hi].
func Clamp(x, lo, hi float32) float32 { return min(max(x, lo), hi) }

func abs(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }
