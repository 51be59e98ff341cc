//go:build !race

package geom_test

import (
	"testing"

	"github.com/metronome-go/metronome/geom"
)

func TestAllocatesNothing(t *testing.T) {
	ball := geom.R(300, 50, 8, 8)
	disk := geom.Circle{Center: geom.V(304, 54), Radius: 4}
	d := geom.V(-37, -61)
	f := func() {
		for _, br := range bricks {
			h, _ := ball.Sweep(d, br)
			m, _ := ball.Penetration(br)
			c, _ := disk.PenetrationRect(br)
			r, _ := br.Raycast(ball.Center(), d)
			sinkHits += int(h.Time + m.X + c.Y + r.Time + d.Normalize().Len())
		}
	}
	if n := testing.AllocsPerRun(100, f); n != 0 {
		t.Errorf("sweeps and overlap tests allocate %v times, want 0", n)
	}
}
