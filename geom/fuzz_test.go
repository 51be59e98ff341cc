package geom_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/metronome-go/metronome/geom"
)

// FuzzSweep checks Rect.Sweep against exact rational arithmetic on boxes
// whose coordinates lie on a 1/16 grid within ±2048 (sizes up to 2048):
//   - no hit: the boxes overlap at no sampled time in [0, 1];
//   - a hit at Time: they do not overlap at Time or at any sampled time
//     before it, Time is the exact contact time rounded down to a float32,
//     and the normal is the face of the last axis to start overlapping;
//   - Overlapping exactly when they overlap at time 0.
func FuzzSweep(f *testing.F) {
	f.Add(int16(0), int16(0), int16(80), int16(80), int16(160), int16(0), int16(160), int16(0), int16(160), int16(160))
	f.Add(int16(0), int16(32), int16(32), int16(32), int16(16000), int16(0), int16(160), int16(0), int16(16), int16(160))
	f.Add(int16(80), int16(0), int16(80), int16(80), int16(16), int16(0), int16(160), int16(0), int16(160), int16(160))
	f.Add(int16(0), int16(-160), int16(80), int16(80), int16(160), int16(160), int16(160), int16(0), int16(160), int16(160))
	f.Add(int16(0), int16(0), int16(0), int16(0), int16(160), int16(0), int16(80), int16(0), int16(0), int16(0))
	f.Add(int16(190), int16(30), int16(20), int16(20), int16(0), int16(0), int16(160), int16(0), int16(160), int16(160))
	f.Add(int16(0), int16(0), int16(16), int16(16), int16(48), int16(0), int16(32), int16(0), int16(16), int16(16))
	f.Fuzz(func(t *testing.T, ax, ay, aw, ah, dx, dy, bx, by, bw, bh int16) {
		g := func(v int16) float32 { return float32(v) / 16 }
		s := func(v int16) float32 { return float32(math.Abs(float64(v))) / 16 }
		a := geom.R(g(ax), g(ay), s(aw), s(ah))
		b := geom.R(g(bx), g(by), s(bw), s(bh))
		d := geom.V(g(dx), g(dy))
		hit, ok := a.Sweep(d, b)
		ex := exactSweep(a, d, b)

		if ok != ex.hit {
			t.Fatalf("%v.Sweep(%v, %v) = %+v, %v; exact arithmetic says hit %v", a, d, b, hit, ok, ex.hit)
		}
		if ok && hit.Overlapping != ex.overlapping {
			t.Fatalf("%v.Sweep(%v, %v): Overlapping %v, exact %v", a, d, b, hit.Overlapping, ex.overlapping)
		}
		if got := overlapAt(a, d, b, 0); got != (ok && hit.Overlapping) {
			t.Fatalf("%v.Sweep(%v, %v) = %+v, %v, but overlap at time 0 is %v", a, d, b, hit, ok, got)
		}
		samples := []float32{0, 1, hit.Time, math.Nextafter32(hit.Time, 0), math.Nextafter32(hit.Time, 2)}
		for k := 1; k < 32; k++ {
			samples = append(samples, float32(k)/32)
		}
		if ex.tin != nil {
			tin, _ := ex.tin.Float32()
			samples = append(samples, tin, math.Nextafter32(tin, 0), math.Nextafter32(tin, 2))
		}
		for _, tm := range samples {
			if tm < 0 || tm > 1 {
				continue
			}
			over := overlapAt(a, d, b, tm)
			if !ok && over {
				t.Fatalf("%v.Sweep(%v, %v) reports no hit, but the boxes overlap at t=%v", a, d, b, tm)
			}
			if ok && !hit.Overlapping && tm <= hit.Time && over {
				t.Fatalf("%v.Sweep(%v, %v) = %+v, but the boxes already overlap at t=%v", a, d, b, hit, tm)
			}
		}
		if !ok {
			return
		}
		if n := hit.Normal; n.Len() != 1 || (n.X != 0 && n.Y != 0) {
			t.Fatalf("%v.Sweep(%v, %v): normal %v is not a unit axis", a, d, b, n)
		}
		if hit.Overlapping {
			if hit.Time != 0 {
				t.Fatalf("overlapping hit at Time %v, want 0", hit.Time)
			}
			return
		}
		tm := new(big.Rat).SetFloat64(float64(hit.Time))
		next := new(big.Rat).SetFloat64(float64(math.Nextafter32(hit.Time, 2)))
		if tm.Cmp(ex.tin) > 0 || (next.Cmp(ex.tin) <= 0 && ex.tin.Sign() > 0) {
			t.Fatalf("%v.Sweep(%v, %v): Time %v is not the exact contact %v rounded down", a, d, b, hit.Time, ex.tin.FloatString(12))
		}
		want := geom.V(-sgn(d.X), 0)
		if !ex.xAxis {
			want = geom.V(0, -sgn(d.Y))
		}
		if hit.Normal != want {
			t.Fatalf("%v.Sweep(%v, %v): normal %v, want %v", a, d, b, hit.Normal, want)
		}
	})
}

func sgn(x float32) float32 {
	if x < 0 {
		return -1
	}
	return 1
}

func rat(x float32) *big.Rat { return new(big.Rat).SetFloat64(float64(x)) }

// overlapAt reports, exactly, whether a moved by d*tm overlaps b.
func overlapAt(a geom.Rect, d geom.Vec2, b geom.Rect, tm float32) bool {
	axis := func(o, w, dd, lo, size float32) bool {
		p := new(big.Rat).Mul(rat(dd), rat(tm))
		p.Add(p, rat(o))
		end := new(big.Rat).Add(p, rat(w))
		bend := new(big.Rat).Add(rat(lo), rat(size))
		return p.Cmp(bend) < 0 && rat(lo).Cmp(end) < 0
	}
	return axis(a.X, a.W, d.X, b.X, b.W) && axis(a.Y, a.H, d.Y, b.Y, b.H)
}

type exactResult struct {
	hit, overlapping bool
	tin              *big.Rat // nil: -infinity
	xAxis            bool
}

// exactSweep is the slab method in rational arithmetic: the open interval
// of times during which the boxes overlap, met with [0, 1].
func exactSweep(a geom.Rect, d geom.Vec2, b geom.Rect) exactResult {
	var tin, tout *big.Rat // nil: infinite
	xAxis := true
	for i, ax := range [2][5]float32{{a.X, a.W, d.X, b.X, b.W}, {a.Y, a.H, d.Y, b.Y, b.H}} {
		o, w, dd, lo0, size := rat(ax[0]), rat(ax[1]), rat(ax[2]), rat(ax[3]), rat(ax[4])
		lo := new(big.Rat).Sub(lo0, w)
		hi := new(big.Rat).Add(lo0, size)
		if dd.Sign() == 0 {
			if !(lo.Cmp(o) < 0 && o.Cmp(hi) < 0) {
				return exactResult{}
			}
			continue
		}
		t0 := new(big.Rat).Quo(new(big.Rat).Sub(lo, o), dd)
		t1 := new(big.Rat).Quo(new(big.Rat).Sub(hi, o), dd)
		if t0.Cmp(t1) > 0 {
			t0, t1 = t1, t0
		}
		if tin == nil || t0.Cmp(tin) > 0 {
			tin = t0
			xAxis = i == 0
		}
		if tout == nil || t1.Cmp(tout) < 0 {
			tout = t1
		}
	}
	one := big.NewRat(1, 1)
	if tin != nil && tout != nil && (tin.Cmp(tout) >= 0 || tout.Sign() <= 0 || tin.Cmp(one) >= 0) {
		return exactResult{}
	}
	r := exactResult{hit: true, tin: tin, xAxis: xAxis}
	r.overlapping = tin == nil || tin.Sign() < 0
	return r
}
