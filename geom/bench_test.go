package geom_test

import (
	"testing"

	"github.com/metronome-go/metronome/geom"
)

// The benchmarks test a ball against a row of 64 bricks, the inner loop of
// a Breakout step. BenchmarkIntersects64 is the baseline: the plain overlap
// test that a sweep replaces. Compare them in one run:
//
//	go test -run XXX -bench . -benchmem ./geom/

var bricks = func() []geom.Rect {
	var bs []geom.Rect
	for i := range 64 {
		bs = append(bs, geom.R(float32(i%16)*40, float32(i/16)*20, 38, 18))
	}
	return bs
}()

var sinkHits int

func BenchmarkIntersects64(b *testing.B) {
	b.ReportAllocs()
	ball := geom.R(300, 50, 8, 8)
	for range b.N {
		for _, br := range bricks {
			if ball.Intersects(br) {
				sinkHits++
			}
		}
	}
}

func BenchmarkSweep64(b *testing.B) {
	b.ReportAllocs()
	ball := geom.R(300, 50, 8, 8)
	d := geom.V(-37, -61)
	for range b.N {
		for _, br := range bricks {
			if _, ok := ball.Sweep(d, br); ok {
				sinkHits++
			}
		}
	}
}

func BenchmarkCircleRect64(b *testing.B) {
	b.ReportAllocs()
	ball := geom.Circle{Center: geom.V(304, 54), Radius: 4}
	for range b.N {
		for _, br := range bricks {
			if _, ok := ball.PenetrationRect(br); ok {
				sinkHits++
			}
		}
	}
}

func BenchmarkPenetration64(b *testing.B) {
	b.ReportAllocs()
	ball := geom.R(300, 50, 8, 8)
	for range b.N {
		for _, br := range bricks {
			if _, ok := ball.Penetration(br); ok {
				sinkHits++
			}
		}
	}
}
