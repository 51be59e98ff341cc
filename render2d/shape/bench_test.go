package shape_test

import (
	"strconv"
	"testing"

	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/shape"
)

// BenchmarkTessellate tessellates a frame of n shapes into a reused pass,
// as extraction does every frame: the simulation side's share of drawing
// them.
func BenchmarkTessellate(b *testing.B) {
	kinds := map[string]shape.Shape{
		"line":          shape.Line(xy(0, 0), xy(24, 10), 2),
		"circle":        shape.Circle(6),
		"circle-stroke": shape.Circle(20).Stroked(2),
		"polygon":       shape.Polygon(xy(0, 0), xy(10, 0), xy(10, 10), xy(5, 4), xy(0, 10)),
	}
	for _, name := range []string{"line", "circle", "circle-stroke", "polygon"} {
		s := kinds[name]
		for _, n := range []int{1000, 10000} {
			b.Run(name+"/"+strconv.Itoa(n), func(b *testing.B) {
				var f render2d.Frame
				w := render2d.NewFrameWriter(&f)
				var tess shape.Tessellator
				b.ReportAllocs()
				for b.Loop() {
					f.Reset()
					pw := w.BeginPass(render2d.PassDesc{})
					for i := range n {
						if err := tess.Draw(pw, &s, shape.Packet(xy(float32(i), 0), render2d.White)); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}
