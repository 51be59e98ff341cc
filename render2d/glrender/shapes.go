package glrender

import (
	"math"
	"unsafe"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/internal/gl"
	"github.com/metronome-go/metronome/internal/shadersrc"
	"github.com/metronome-go/metronome/render2d"
)

// Shapes ([render2d.DrawPacket2D.Mesh]) are drawn by a program of their
// own: the renderer places every vertex of a pass's shape packets in the
// world on the CPU, at the packet's placement resolved at the frame's
// alpha (render2d's Resolved arithmetic, so the GL and the recording
// renderer agree), pushes antialiased vertices out by their offset in
// target pixels, turns each vertex's edge distance into pixels
// (render2d.Vertex says how) and premultiplies the tint by its coverage;
// the fragment shader covers each fragment by its interpolated distance.
// The vertices of a pass go up in one streamed buffer and its indices in
// another; each batch of consecutive shape packets with one blend mode is
// one glDrawElements.
// (The shaders are shadersrc.ShapeVertex and shadersrc.ShapeFragment.)

// shapeVertex is one shape vertex as streamed: world position, distance
// inside its antialiased edge in pixels and premultiplied RGBA8.
type shapeVertex struct {
	x, y, edge float32
	rgba       uint32
	dx, dy, dr float32 // a_disc
}

const shapeStride = int32(unsafe.Sizeof(shapeVertex{}))

// shapeRange is where a shape batch's indices lie in the pass's index
// buffer.
type shapeRange struct{ first, count int32 }

func (r *Renderer) compileShapes() error {
	vs, err := gl.Compile(gl.VERTEX_SHADER, shadersrc.ShapeVertex(gl.ShaderPrelude), "shape vertex shader")
	if err != nil {
		return err
	}
	defer gl.DeleteShader(vs)
	fs, err := gl.Compile(gl.FRAGMENT_SHADER, shadersrc.ShapeFragment(gl.ShaderPrelude), "shape fragment shader")
	if err != nil {
		return err
	}
	defer gl.DeleteShader(fs)
	if r.shapeProg, err = link(vs, fs, "shape program"); err != nil {
		return err
	}
	for i := range r.shapeVerts {
		gl.GenBuffers(1, &r.shapeVerts[i].id)
		gl.GenBuffers(1, &r.shapeIdx[i].id)
	}
	gl.GenVertexArrays(1, &r.shapeVAO)
	gl.BindVertexArray(r.shapeVAO)
	gl.EnableVertexAttribArray(0)
	gl.EnableVertexAttribArray(1)
	gl.EnableVertexAttribArray(2)
	r.curVAO = -1
	return nil
}

func (r *Renderer) deleteShapes() {
	if r.shapeProg.id != 0 {
		gl.DeleteProgram(r.shapeProg.id)
		r.shapeProg.id = 0
	}
	for i := range r.shapeVerts {
		if r.shapeVerts[i].id != 0 {
			gl.DeleteBuffers(1, &r.shapeVerts[i].id)
			gl.DeleteBuffers(1, &r.shapeIdx[i].id)
		}
	}
	if r.shapeVAO != 0 {
		gl.DeleteVertexArrays(1, &r.shapeVAO)
		r.shapeVAO = 0
	}
}

// convertShapes places the vertices of the shape batch b of pass p and
// appends them and its indices to the renderer's scratch; px is the size
// of a target pixel in world units.
func (r *Renderer) convertShapes(p *render2d.Pass, b *render2d.Batch, px float32) shapeRange {
	first := int32(len(r.sidx))
	for i := b.First; i < b.First+b.Count; i++ {
		q := &p.Packets[i]
		m := q.Mesh
		t, tint := q.Transform, q.Tint
		if q.Prev.Set && r.alpha < 1 {
			rq := q.Resolved(r.alpha)
			t, tint = rq.Transform, rq.Tint
		}
		sn, cs := math.Sincos(float64(t.Rotation))
		s, c := float32(sn), float32(cs)
		sx, sy := t.Scale.X, t.Scale.Y
		fx, fy := px, px // offsets turn with the shape and mirror with its scale
		if sx < 0 {
			fx = -px
		}
		if sy < 0 {
			fy = -px
		}
		// Edge distances in pixels: shape units times the scale (the
		// smaller, under a non-uniform one) over the pixel's size.
		k := min(abs32(sx), abs32(sy)) / px
		a := clamp01(tint.A)
		cr, cg, cb := clamp01(tint.R)*a, clamp01(tint.G)*a, clamp01(tint.B)*a
		full := unorm8(cr) | unorm8(cg)<<8 | unorm8(cb)<<16 | unorm8(a)<<24
		base := uint32(len(r.sverts))
		for _, v := range p.Vertices[m.FirstVertex : m.FirstVertex+m.VertexCount] {
			lx := (v.Position.X-t.Origin.X)*sx + v.Offset.X*fx
			ly := (v.Position.Y-t.Origin.Y)*sy + v.Offset.Y*fy
			col := full
			if k := v.Coverage; k != 1 {
				col = 0
				if k > 0 {
					col = unorm8(cr*k) | unorm8(cg*k)<<8 | unorm8(cb*k)<<16 | unorm8(a*k)<<24
				}
			}
			e := v.Edge * k
			if v.Edge == render2d.NoEdge {
				e = 1 // no edge of its own: covered
			} else if v.Offset != (geom.Vec2{}) {
				e -= 0.5 // pushed half a pixel out of its edge
			}
			sv := shapeVertex{x: t.Position.X + lx*c - ly*s, y: t.Position.Y + lx*s + ly*c, edge: e, rgba: col}
			if v.Radius > 0 {
				// The disc's radius in pixels; the offset, in radii, moves
				// the vertex's disc position with it.
				sv.dr = v.Radius * k
				sv.dx, sv.dy = v.Disc.X+v.Offset.X/sv.dr, v.Disc.Y+v.Offset.Y/sv.dr
			}
			r.sverts = append(r.sverts, sv)
		}
		for _, ix := range p.Indices[m.FirstIndex : m.FirstIndex+m.IndexCount] {
			r.sidx = append(r.sidx, base+ix)
		}
	}
	return shapeRange{first: first, count: int32(len(r.sidx)) - first}
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

func clamp01(v float32) float32 {
	if !(v > 0) {
		return 0
	}
	return min(v, 1)
}

// uploadShapes streams the pass's shape vertices and indices into the next
// buffers of the ring and points the shape vertex array at them.
func (r *Renderer) uploadShapes() {
	gl.BindVertexArray(r.shapeVAO)
	r.curVAO = vaoShapes
	k := r.ring
	upload(&r.shapeVerts[k], unsafe.Pointer(&r.sverts[0]), len(r.sverts)*int(shapeStride))
	gl.VertexAttribPointerWithOffset(0, 3, gl.FLOAT, false, shapeStride, unsafe.Offsetof(shapeVertex{}.x))
	gl.VertexAttribPointerWithOffset(1, 4, gl.UNSIGNED_BYTE, true, shapeStride, unsafe.Offsetof(shapeVertex{}.rgba))
	gl.VertexAttribPointerWithOffset(2, 3, gl.FLOAT, false, shapeStride, unsafe.Offsetof(shapeVertex{}.dx))
	r.curArray = r.shapeVerts[k].id
	buf := &r.shapeIdx[k]
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, buf.id) // vertex array state
	size := len(r.sidx) * 4
	if size > buf.cap {
		buf.cap = max(size, 2*buf.cap)
		gl.BufferData(gl.ELEMENT_ARRAY_BUFFER, buf.cap, nil, gl.STREAM_DRAW)
	}
	gl.BufferSubData(gl.ELEMENT_ARRAY_BUFFER, 0, size, unsafe.Pointer(&r.sidx[0]))
}

// pixelSize returns the size of one target pixel in world units for a
// pass drawn through camera cam into a viewport vw pixels wide showing sw
// view units.
func pixelSize(cam render2d.Camera, sw float32, vw int) float32 {
	return sw / float32(vw) / cam.EffectiveZoom()
}
