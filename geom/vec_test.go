package geom_test

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/metronome-go/metronome/geom"
)

func TestVec2Arithmetic(t *testing.T) {
	a, b := geom.V(3, 4), geom.V(-1, 2)
	tests := []struct {
		name      string
		got, want geom.Vec2
	}{
		{"Add", a.Add(b), geom.V(2, 6)},
		{"Sub", a.Sub(b), geom.V(4, 2)},
		{"Scale", a.Scale(2), geom.V(6, 8)},
		{"Mul", a.Mul(b), geom.V(-3, 8)},
		{"Neg", a.Neg(), geom.V(-3, -4)},
		{"Normalize", a.Normalize(), geom.V(0.6, 0.8)},
		{"Normalize zero", geom.Vec2{}.Normalize(), geom.Vec2{}},
		{"Lerp 0", a.Lerp(b, 0), a},
		{"Lerp 1", a.Lerp(b, 1), b},
		{"Lerp half", a.Lerp(b, 0.5), geom.V(1, 3)},
		{"Lerp extrapolates", a.Lerp(b, 2), geom.V(-5, 0)},
		{"Perp", a.Perp(), geom.V(-4, 3)},
		{"Reflect off a floor", geom.V(2, 3).Reflect(geom.V(0, -1)), geom.V(2, -3)},
		{"Reflect off a wall", geom.V(2, 3).Reflect(geom.V(-1, 0)), geom.V(-2, 3)},
		{"Min", a.Min(b), geom.V(-1, 2)},
		{"Max", a.Max(b), geom.V(3, 4)},
		{"Abs", geom.V(-1, -0.5).Abs(), geom.V(1, 0.5)},
		{"FromMgl", geom.FromMgl(mgl32.Vec2{7, 8}), geom.V(7, 8)},
		{"Translate2D", a.Transform(mgl32.Translate2D(10, 20)), geom.V(13, 24)},
		{"Scale2D", a.Transform(mgl32.Scale2D(2, -1)), geom.V(6, -4)},
	}
	for _, tc := range tests {
		if !tc.got.ApproxEqual(tc.want, 1e-6) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	scalars := []struct {
		name      string
		got, want float32
	}{
		{"Dot", a.Dot(b), 5},
		{"Cross", a.Cross(b), 10},
		{"Len", a.Len(), 5},
		{"LenSqr", a.LenSqr(), 25},
		{"Dist", a.Dist(b), float32(math.Sqrt(20))},
		{"Len of a huge vector", geom.V(2e38, 1e38).Len(), float32(2.2360679774997896e38)},
		{"Len keeps a tiny component", geom.V(1e-30, 0).Len(), 1e-30},
		{"Lerp", geom.Lerp(2, 4, 0.25), 2.5},
		{"Clamp low", geom.Clamp(-1, 0, 1), 0},
		{"Clamp high", geom.Clamp(2, 0, 1), 1},
		{"Clamp inside", geom.Clamp(0.5, 0, 1), 0.5},
	}
	for _, tc := range scalars {
		if tc.got != tc.want {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	rot := geom.V(1, 0).Transform(mgl32.HomogRotate2D(math.Pi / 2))
	if !rot.ApproxEqual(geom.V(0, 1), 1e-6) {
		t.Errorf("(1,0) rotated a quarter turn = %v, want (0,1)", rot)
	}
	if m := a.Mgl(); m != (mgl32.Vec2{3, 4}) {
		t.Errorf("Mgl = %v, want [3 4]", m)
	}
	if !geom.V(0, 0).IsZero() || geom.V(0, 1).IsZero() {
		t.Errorf("IsZero wrong")
	}
}

func TestApproxEqual(t *testing.T) {
	tests := []struct {
		a, b geom.Vec2
		eps  float32
		want bool
	}{
		{geom.V(0, 0), geom.V(1e-7, 0), 1e-6, true},
		{geom.V(0, 0), geom.V(1e-5, 0), 1e-6, false},
		{geom.V(1e6, 0), geom.V(1e6+0.5, 0), 1e-6, true}, // relative above 1
		{geom.V(1e6, 0), geom.V(1e6+4, 0), 1e-6, false},
		{geom.V(1, 2), geom.V(1, 2.1), 0.01, false},
	}
	for _, tc := range tests {
		if got := tc.a.ApproxEqual(tc.b, tc.eps); got != tc.want {
			t.Errorf("%v.ApproxEqual(%v, %g) = %v, want %v", tc.a, tc.b, tc.eps, got, tc.want)
		}
	}
}
