package geom_test

import (
	"testing"

	"github.com/metronome-go/metronome/geom"
)

func TestCircleIntersects(t *testing.T) {
	c := geom.Circle{Center: geom.V(0, 0), Radius: 5}
	tests := []struct {
		name string
		d    geom.Circle
		want bool
	}{
		{"overlapping", geom.Circle{Center: geom.V(6, 0), Radius: 2}, true},
		{"touching", geom.Circle{Center: geom.V(7, 0), Radius: 2}, false},
		{"apart", geom.Circle{Center: geom.V(0, 9), Radius: 2}, false},
		{"concentric", geom.Circle{Radius: 1}, true},
		{"point inside", geom.Circle{Center: geom.V(3, 0)}, true},
		{"point on the rim", geom.Circle{Center: geom.V(3, 4)}, false},
	}
	for _, tc := range tests {
		if got := c.Intersects(tc.d); got != tc.want {
			t.Errorf("%s: Intersects = %v, want %v", tc.name, got, tc.want)
		}
		if got := tc.d.Intersects(c); got != tc.want {
			t.Errorf("%s: symmetric Intersects = %v, want %v", tc.name, got, tc.want)
		}
		mtv, ok := tc.d.Penetration(c)
		if ok != tc.want {
			t.Errorf("%s: Penetration ok = %v, want %v", tc.name, ok, tc.want)
		}
		if ok {
			moved := geom.Circle{Center: tc.d.Center.Add(mtv), Radius: tc.d.Radius}
			if dist, sum := moved.Center.Dist(c.Center), moved.Radius+c.Radius; abs32(dist-sum) > 1e-5 {
				t.Errorf("%s: after the move by %v the centres are %v apart, want %v (touching)", tc.name, mtv, dist, sum)
			}
		}
	}
	p := geom.Circle{Center: geom.V(1, 1)}
	if p.Intersects(p) {
		t.Errorf("two points overlap")
	}
	if mtv, _ := (geom.Circle{Radius: 1}).Penetration(geom.Circle{Radius: 2}); mtv != geom.V(3, 0) {
		t.Errorf("concentric Penetration = %v, want (3, 0)", mtv)
	}
	if !c.Contains(geom.V(4, 0)) || c.Contains(geom.V(5, 0)) {
		t.Errorf("Contains wrong")
	}
	if got := c.Bounds(); got != geom.R(-5, -5, 10, 10) {
		t.Errorf("Bounds = %v", got)
	}
}

func TestCircleIntersectsRect(t *testing.T) {
	r := geom.R(0, 0, 10, 10)
	tests := []struct {
		name string
		c    geom.Circle
		want bool
		mtv  geom.Vec2
	}{
		{"overlapping the left side", geom.Circle{Center: geom.V(-1, 5), Radius: 2}, true, geom.V(-1, 0)},
		{"touching the left side", geom.Circle{Center: geom.V(-2, 5), Radius: 2}, false, geom.Vec2{}},
		{"near a corner, outside", geom.Circle{Center: geom.V(-3, -4), Radius: 5}, false, geom.Vec2{}}, // distance exactly 5
		{"overlapping a corner", geom.Circle{Center: geom.V(-3, -4), Radius: 10}, true, geom.V(-3, -4)},
		{"centre inside, nearest the bottom", geom.Circle{Center: geom.V(5, 9), Radius: 1}, true, geom.V(0, 2)},
		{"centre on the top edge", geom.Circle{Center: geom.V(5, 0), Radius: 1}, true, geom.V(0, -1)},
		{"point inside", geom.Circle{Center: geom.V(2, 5)}, true, geom.V(-2, 0)},
		{"point on the edge", geom.Circle{Center: geom.V(0, 5)}, false, geom.Vec2{}},
		{"far", geom.Circle{Center: geom.V(30, 30), Radius: 5}, false, geom.Vec2{}},
	}
	for _, tc := range tests {
		if got := tc.c.IntersectsRect(r); got != tc.want {
			t.Errorf("%s: IntersectsRect = %v, want %v", tc.name, got, tc.want)
		}
		mtv, ok := tc.c.PenetrationRect(r)
		if ok != tc.want || !mtv.ApproxEqual(tc.mtv, 1e-6) {
			t.Errorf("%s: PenetrationRect = %v, %v; want %v, %v", tc.name, mtv, ok, tc.mtv, tc.want)
		}
	}
	if (geom.Circle{Center: geom.V(0, 0)}).IntersectsRect(geom.R(0, 0, 0, 0)) {
		t.Errorf("a point overlaps a zero-size box at the same place")
	}
	if !(geom.Circle{Center: geom.V(0, 0), Radius: 1}).IntersectsRect(geom.R(0.5, 0, 0, 0)) {
		t.Errorf("a disk does not overlap a point inside it")
	}
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}
