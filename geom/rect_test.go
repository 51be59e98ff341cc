package geom_test

import (
	"testing"

	"github.com/metronome-go/metronome/geom"
)

func TestRectAccessors(t *testing.T) {
	r := geom.R(1, 2, 4, 6)
	vecs := []struct {
		name      string
		got, want geom.Vec2
	}{
		{"Min", r.Min(), geom.V(1, 2)},
		{"Max", r.Max(), geom.V(5, 8)},
		{"Size", r.Size(), geom.V(4, 6)},
		{"Center", r.Center(), geom.V(3, 5)},
		{"ClosestPoint outside", r.ClosestPoint(geom.V(-3, 10)), geom.V(1, 8)},
		{"ClosestPoint inside", r.ClosestPoint(geom.V(2, 3)), geom.V(2, 3)},
	}
	for _, tc := range vecs {
		if tc.got != tc.want {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	rects := []struct {
		name      string
		got, want geom.Rect
	}{
		{"RectFromMinMax", geom.RectFromMinMax(geom.V(5, 8), geom.V(1, 2)), r},
		{"RectFromCenter", geom.RectFromCenter(geom.V(3, 5), geom.V(4, 6)), r},
		{"Canon", geom.R(5, 8, -4, -6).Canon(), r},
		{"Translate", r.Translate(geom.V(1, -1)), geom.R(2, 1, 4, 6)},
		{"Inset", r.Inset(1), geom.R(2, 3, 2, 4)},
		{"Inset grows", r.Inset(-1), geom.R(0, 1, 6, 8)},
		{"Inset too far", r.Inset(3), geom.R(3, 5, 0, 0)},
		{"Union", r.Union(geom.R(10, 0, 1, 1)), geom.R(1, 0, 10, 8)},
		{"Union with a point", geom.R(0, 0, 1, 1).Union(geom.R(3, 3, 0, 0)), geom.R(0, 0, 3, 3)},
	}
	for _, tc := range rects {
		if tc.got != tc.want {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	if !geom.R(0, 0, 0, 5).Empty() || geom.R(0, 0, 1, 1).Empty() {
		t.Errorf("Empty wrong")
	}
}

func TestRectIntersects(t *testing.T) {
	a := geom.R(0, 0, 10, 10)
	tests := []struct {
		name string
		b    geom.Rect
		want bool
	}{
		{"overlapping", geom.R(5, 5, 10, 10), true},
		{"inside", geom.R(2, 2, 1, 1), true},
		{"containing", geom.R(-5, -5, 20, 20), true},
		{"same", a, true},
		{"touching right edge", geom.R(10, 0, 5, 10), false},
		{"touching bottom edge", geom.R(0, 10, 10, 5), false},
		{"touching left edge", geom.R(-5, 0, 5, 10), false},
		{"touching corner", geom.R(10, 10, 5, 5), false},
		{"apart", geom.R(20, 20, 1, 1), false},
		{"overlapping on X only", geom.R(5, 11, 1, 1), false},
		{"point inside", geom.R(5, 5, 0, 0), true},
		{"point on edge", geom.R(10, 5, 0, 0), false},
		{"point on corner", geom.R(0, 0, 0, 0), false},
		{"zero-width segment across", geom.R(5, -5, 0, 20), true},
		{"zero-width segment on edge", geom.R(0, -5, 0, 20), false},
	}
	for _, tc := range tests {
		if got := a.Intersects(tc.b); got != tc.want {
			t.Errorf("%s: %v.Intersects(%v) = %v, want %v", tc.name, a, tc.b, got, tc.want)
		}
		if got := tc.b.Intersects(a); got != tc.want {
			t.Errorf("%s: symmetric %v.Intersects(%v) = %v, want %v", tc.name, tc.b, a, got, tc.want)
		}
		ov := a.Overlap(tc.b)
		if got := ov.X > 0 && ov.Y > 0; got != tc.want && tc.b.W > 0 && tc.b.H > 0 {
			t.Errorf("%s: Overlap %v, positive on both axes %v, want %v", tc.name, ov, got, tc.want)
		}
		in, ok := a.Intersection(tc.b)
		if ok != tc.want {
			t.Errorf("%s: Intersection ok = %v, want %v", tc.name, ok, tc.want)
		}
		if ok && (!a.ContainsRect(in) || !tc.b.ContainsRect(in)) {
			t.Errorf("%s: Intersection %v not within both boxes", tc.name, in)
		}
		if !ok && in != (geom.Rect{}) {
			t.Errorf("%s: Intersection without overlap = %v, want zero", tc.name, in)
		}
	}
	p, q := geom.R(0, 0, 0, 0), geom.R(0, 0, 0, 0)
	if p.Intersects(q) {
		t.Errorf("two zero-size boxes at the same point overlap; want not")
	}
	if got := a.Overlap(geom.R(12, 3, 2, 2)); got != geom.V(-2, 2) {
		t.Errorf("Overlap with a gap = %v, want (-2, 2)", got)
	}
}

func TestRectContains(t *testing.T) {
	r := geom.R(0, 0, 10, 10)
	tests := []struct {
		p    geom.Vec2
		want bool
	}{
		{geom.V(5, 5), true},
		{geom.V(0, 0), true},    // top-left corner is in
		{geom.V(10, 5), false},  // right edge is out
		{geom.V(5, 10), false},  // bottom edge is out
		{geom.V(9.99, 0), true}, // just inside
		{geom.V(-0.01, 5), false},
	}
	for _, tc := range tests {
		if got := r.Contains(tc.p); got != tc.want {
			t.Errorf("%v.Contains(%v) = %v, want %v", r, tc.p, got, tc.want)
		}
	}
	if geom.R(3, 3, 0, 0).Contains(geom.V(3, 3)) {
		t.Errorf("a zero-size box contains its own corner")
	}
	if !r.ContainsRect(r) || !r.ContainsRect(geom.R(10, 10, 0, 0)) || r.ContainsRect(geom.R(5, 5, 6, 1)) {
		t.Errorf("ContainsRect wrong")
	}
}

func TestRectPenetration(t *testing.T) {
	b := geom.R(0, 0, 10, 10)
	tests := []struct {
		name string
		a    geom.Rect
		want geom.Vec2
		ok   bool
	}{
		{"from the left", geom.R(-4, 2, 5, 5), geom.V(-1, 0), true},
		{"from the right", geom.R(8, 2, 5, 5), geom.V(2, 0), true},
		{"from above", geom.R(2, -4, 5, 5), geom.V(0, -1), true},
		{"from below", geom.R(2, 9.5, 5, 5), geom.V(0, 0.5), true},
		{"deep inside, nearer the right", geom.R(7, 4, 2, 2), geom.V(3, 0), true},
		{"centred: X on a tie, positive on a tie", geom.R(4, 4, 2, 2), geom.V(6, 0), true},
		{"containing b", geom.R(-1, -2, 14, 14), geom.V(11, 0), true},
		{"touching", geom.R(10, 0, 5, 5), geom.Vec2{}, false},
		{"apart", geom.R(20, 0, 5, 5), geom.Vec2{}, false},
	}
	for _, tc := range tests {
		got, ok := tc.a.Penetration(b)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: Penetration = %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
			continue
		}
		if ok && tc.a.Translate(got).Intersects(b) {
			t.Errorf("%s: after moving by %v the boxes still overlap", tc.name, got)
		}
	}
}

func TestRectIsZero(t *testing.T) {
	tests := []struct {
		r    geom.Rect
		want bool
	}{
		{geom.Rect{}, true},
		{geom.R(0, 0, 0, 1), false},
		{geom.R(3, 4, 0, 0), false}, // empty, but not the zero value
		{geom.R(0, 0, 2, 2), false},
	}
	for _, tt := range tests {
		if got := tt.r.IsZero(); got != tt.want {
			t.Errorf("%v.IsZero() = %v, want %v", tt.r, got, tt.want)
		}
	}
}
