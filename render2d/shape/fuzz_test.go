package shape_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/shape"
)

// FuzzTessellate: any shape, valid or not, tessellates without a panic
// into a well-formed mesh of finite vertices whose size is bounded by
// the input's, or is refused with an error that leaves the buffers alone.
func FuzzTessellate(f *testing.F) {
	f.Add(uint8(1), uint8(0), []byte{0, 0, 0, 0, 0, 0, 0x20, 0x41, 0, 0, 0x20, 0x41}, float32(2), float32(0), float32(0), uint8(0))
	f.Add(uint8(3), uint8(0), []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x20, 0x41, 0, 0, 0x20, 0x41, 0, 0, 0xa0, 0x40}, float32(0), float32(5), float32(1), uint8(1))
	f.Add(uint8(4), uint8(2), []byte{}, float32(3), float32(50), float32(0), uint8(2))
	f.Add(uint8(6), uint8(1), []byte{}, float32(0), float32(20), float32(7), uint8(0))
	f.Fuzz(func(t *testing.T, kind, style uint8, raw []byte, width, radius, sweep float32, segs uint8) {
		var pts []geom.Vec2
		for len(raw) >= 8 && len(pts) < 200 {
			x := math.Float32frombits(binary.LittleEndian.Uint32(raw))
			y := math.Float32frombits(binary.LittleEndian.Uint32(raw[4:]))
			pts = append(pts, geom.Vec2{X: x, Y: y})
			raw = raw[8:]
		}
		s := shape.Shape{
			Kind: shape.Kind(kind % 10), Points: pts, Width: width, Radius: radius,
			Size: geom.Vec2{X: radius, Y: width}, Start: sweep / 3, Sweep: sweep,
			Cap: shape.Cap(style & 3), Join: shape.Join(style >> 2 & 3), Rule: shape.FillRule(style >> 4 & 1),
			MiterLimit: float32(style>>5) * 0.7, Segments: int(segs),
		}
		if len(pts) > 6 && style&0x80 != 0 {
			s.Holes = [][]geom.Vec2{pts[len(pts)/2:]}
			s.Points = pts[:len(pts)/2]
		}
		var tess shape.Tessellator
		vs := make([]render2d.Vertex, 1, 8) // a vertex before: meshes are relative
		ix := []uint32{0}
		m, err := tess.Append(&vs, &ix, &s)
		if err != nil {
			if len(vs) != 1 || len(ix) != 1 {
				t.Fatalf("refused shape left %d vertices, %d indices", len(vs), len(ix))
			}
			return
		}
		check(t, vs, ix, m)
		// Bounds: a curve has at most MaxSegments points per turn, a
		// round join or cap as many again per path point, and a fill
		// that is not convex at most (n + n²/2) bands of n/2 trapezoids.
		n := len(s.Points)
		for _, h := range s.Holes {
			n += len(h)
		}
		n += 4*shape.MaxSegments + 8
		limit := 8*n*(shape.MaxSegments+4) + 4*(n+n*n/2)*(n/2+1) + 4*n
		if int(m.VertexCount) > limit || int(m.IndexCount) > 3*limit {
			t.Fatalf("%d vertices and %d indices from %d points, want at most %d and %d", m.VertexCount, m.IndexCount, n, limit, 3*limit)
		}
	})
}
