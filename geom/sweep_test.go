package geom_test

import (
	"testing"

	"github.com/metronome-go/metronome/geom"
)

func TestSweep(t *testing.T) {
	brick := geom.R(10, 0, 10, 10)
	tests := []struct {
		name   string
		a      geom.Rect
		d      geom.Vec2
		b      geom.Rect
		ok     bool
		want   geom.Hit
		before bool // also check that a moved by d*Time does not overlap b
	}{
		{"head-on from the left", geom.R(0, 0, 5, 5), geom.V(10, 0), brick, true, geom.Hit{Time: 0.5, Normal: geom.V(-1, 0)}, true},
		{"from the right", geom.R(30, 2, 5, 5), geom.V(-20, 0), brick, true, geom.Hit{Time: 0.5, Normal: geom.V(1, 0)}, true},
		{"from above (y-down screen)", geom.R(12, -10, 2, 2), geom.V(0, 16), brick, true, geom.Hit{Time: 0.5, Normal: geom.V(0, -1)}, true},
		{"from below", geom.R(12, 20, 2, 2), geom.V(0, -20), brick, true, geom.Hit{Time: 0.5, Normal: geom.V(0, 1)}, true},
		{"fast ball, thin brick: no tunnelling", geom.R(0, 2, 2, 2), geom.V(1024, 0), geom.R(10, 0, 1, 10), true, geom.Hit{Time: 0.0078125, Normal: geom.V(-1, 0)}, true},
		{"diagonal onto a face", geom.R(0, 8, 4, 4), geom.V(12, 2), brick, true, geom.Hit{Time: 0.5, Normal: geom.V(-1, 0)}, true},
		{"exact corner hit reports the X face", geom.R(0, -10, 5, 5), geom.V(10, 10), brick, true, geom.Hit{Time: 0.5, Normal: geom.V(-1, 0)}, true},
		{"leaves the face row as it arrives", geom.R(0, 8, 4, 4), geom.V(12, 4), brick, false, geom.Hit{}, false},
		{"passes above", geom.R(0, -10, 5, 5), geom.V(40, 0), brick, false, geom.Hit{}, false},
		{"stops short", geom.R(0, 0, 5, 5), geom.V(4, 0), brick, false, geom.Hit{}, false},
		{"ends exactly touching", geom.R(0, 0, 5, 5), geom.V(5, 0), brick, false, geom.Hit{}, false},
		{"ends just inside", geom.R(0, 0, 5, 5), geom.V(8, 0), brick, true, geom.Hit{Time: 0.625, Normal: geom.V(-1, 0)}, true},
		{"touching, moving in", geom.R(5, 0, 5, 5), geom.V(1, 0), brick, true, geom.Hit{Time: 0, Normal: geom.V(-1, 0)}, true},
		{"touching, moving away", geom.R(5, 0, 5, 5), geom.V(-1, 0), brick, false, geom.Hit{}, false},
		{"sliding along the top face", geom.R(5, -5, 5, 5), geom.V(20, 0), brick, false, geom.Hit{}, false},
		{"parallel motion beside", geom.R(0, 20, 5, 5), geom.V(50, 0), brick, false, geom.Hit{}, false},
		{"grazing a corner on a diagonal", geom.R(0, -20, 0, 0), geom.V(20, 20), brick, false, geom.Hit{}, false},
		{"zero displacement, apart", geom.R(0, 0, 5, 5), geom.Vec2{}, brick, false, geom.Hit{}, false},
		{"zero displacement, touching", geom.R(5, 0, 5, 5), geom.Vec2{}, brick, false, geom.Hit{}, false},
		{"zero displacement, overlapping", geom.R(8, 0, 5, 5), geom.Vec2{}, brick, true, geom.Hit{Normal: geom.V(-1, 0), Overlapping: true}, false},
		{"starting overlapped, moving away", geom.R(18, 4, 4, 2), geom.V(10, 0), brick, true, geom.Hit{Normal: geom.V(1, 0), Overlapping: true}, false},
		{"starting inside, tie goes to X", geom.R(12, 2, 2, 2), geom.V(0, 5), brick, true, geom.Hit{Normal: geom.V(-1, 0), Overlapping: true}, false},
		{"point mover hits a box", geom.R(0, 5, 0, 0), geom.V(20, 0), brick, true, geom.Hit{Time: 0.5, Normal: geom.V(-1, 0)}, true},
		{"box hits a point obstacle", geom.R(0, 0, 5, 5), geom.V(10, 0), geom.R(10, 2, 0, 0), true, geom.Hit{Time: 0.5, Normal: geom.V(-1, 0)}, true},
		{"point against a point never hits", geom.R(0, 0, 0, 0), geom.V(10, 0), geom.R(5, 0, 0, 0), false, geom.Hit{}, false},
		{"zero-size obstacle on the path's edge", geom.R(0, 0, 5, 5), geom.V(10, 0), geom.R(10, 5, 0, 0), false, geom.Hit{}, false},
	}
	for _, tc := range tests {
		got, ok := tc.a.Sweep(tc.d, tc.b)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s: %v.Sweep(%v, %v) = %+v, %v; want %+v, %v", tc.name, tc.a, tc.d, tc.b, got, ok, tc.want, tc.ok)
			continue
		}
		if tc.before && tc.a.Translate(tc.d.Scale(got.Time)).Intersects(tc.b) {
			t.Errorf("%s: at Time %v the boxes already overlap", tc.name, got.Time)
		}
	}
}

func TestRaycast(t *testing.T) {
	box := geom.R(10, 0, 10, 10)
	tests := []struct {
		name      string
		origin, d geom.Vec2
		ok        bool
		want      geom.Hit
	}{
		{"enters the left face", geom.V(0, 5), geom.V(20, 0), true, geom.Hit{Time: 0.5, Normal: geom.V(-1, 0)}},
		{"enters the top face", geom.V(15, -10), geom.V(0, 40), true, geom.Hit{Time: 0.25, Normal: geom.V(0, -1)}},
		{"too short", geom.V(0, 5), geom.V(9, 0), false, geom.Hit{}},
		{"along the top edge", geom.V(0, 0), geom.V(30, 0), false, geom.Hit{}},
		{"pointing away", geom.V(0, 5), geom.V(-20, 0), false, geom.Hit{}},
		{"starts inside", geom.V(15, 5), geom.V(1, 1), true, geom.Hit{Normal: geom.V(1, 0), Overlapping: true}},
		{"starts on the edge, going in", geom.V(10, 5), geom.V(1, 0), true, geom.Hit{Normal: geom.V(-1, 0)}},
	}
	for _, tc := range tests {
		got, ok := box.Raycast(tc.origin, tc.d)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s: Raycast(%v, %v) = %+v, %v; want %+v, %v", tc.name, tc.origin, tc.d, got, ok, tc.want, tc.ok)
		}
	}
}

// TestSweepRoundsDown: when the exact contact time is not a float32, the
// reported time is the float32 just below it, never the nearest one above.
func TestSweepRoundsDown(t *testing.T) {
	// Contact at 1/3 of the move: float32(1.0/3) rounds up (0.33333334).
	a := geom.R(0, 0, 1, 1)
	b := geom.R(2, 0, 1, 1)
	got, ok := a.Sweep(geom.V(3, 0), b)
	if !ok {
		t.Fatal("no hit")
	}
	if float64(got.Time) > 1.0/3 {
		t.Errorf("Time %v is after the exact contact 1/3", got.Time)
	}
	if float64(got.Time) < 1.0/3-1e-7 {
		t.Errorf("Time %v is more than a float32 step before 1/3", got.Time)
	}
}
