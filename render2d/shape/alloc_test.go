//go:build !race

package shape_test

import (
	"testing"

	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/shape"
)

// TestSteadyStateAllocs: once the tessellator and the pass have grown,
// a frame of every kind of shape allocates nothing.
func TestSteadyStateAllocs(t *testing.T) {
	holed := shape.Polygon(square(0, 0, 10, false)...)
	holed.Holes = [][]v2{square(3, 3, 4, true)}
	round := shape.Polyline([]v2{xy(0, 0), xy(10, 0), xy(10, 10), xy(30, 5)}, 3)
	round.Join, round.Cap = shape.JoinRound, shape.CapRound
	shapes := []shape.Shape{
		shape.Line(xy(0, 0), xy(30, 40), 4), round, shape.Circle(20), shape.Circle(20).Stroked(2),
		shape.Ellipse(10, 5), shape.Arc(10, 0, 2, 1), shape.Pie(10, 1, 2), shape.Rect(5, 5), shape.RoundRect(20, 10, 3),
		shape.Polygon(xy(0, 0), xy(10, 0), xy(10, 10), xy(5, 4), xy(0, 10)), holed,
	}
	var f render2d.Frame
	w := render2d.NewFrameWriter(&f)
	var tess shape.Tessellator
	frame := func() {
		f.Reset()
		pw := w.BeginPass(render2d.PassDesc{})
		for i := range shapes {
			if err := tess.Draw(pw, &shapes[i], shape.Packet(v2{X: float32(i)}, render2d.White)); err != nil {
				t.Fatal(err)
			}
		}
	}
	frame()
	if n := testing.AllocsPerRun(50, frame); n != 0 {
		t.Errorf("a frame of shapes allocates %v times, want 0", n)
	}
	if got := len(f.Passes[0].Packets); got != len(shapes) {
		t.Errorf("packets: got %d, want %d", got, len(shapes))
	}
}
