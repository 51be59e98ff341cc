package glrender

import (
	"unsafe"

	"github.com/metronome-go/metronome/internal/gl"
	"github.com/metronome-go/metronome/render2d"
)

// instance is what the vertex shader reads for one sprite. The renderer
// converts each DrawPacket2D into one while it walks a batch, folding scale
// into the extent and origin, normalising the source rectangle by the
// batch's texture size and packing the tint into RGBA8.
type instance struct {
	x, y, w, h float32 // a_rect
	ox, oy     float32 // a_xform.xy: origin offset, scaled
	rot        float32 // a_xform.z
	tint       uint32  // a_xform.w
	u0, v0     float32 // a_uv
	u1, v1     float32
	params     [render2d.ParamCount]float32 // a_params for custom materials; for sliding built-in batches, the previous position
}

const instanceStride = int32(unsafe.Sizeof(instance{}))

// prevInstance is the whole previous placement of one sprite, for turning
// batches, in the layout of the first two attributes of instance (origin
// offset and extent scaled by the previous scale). Previous placements
// live in buffers of their own, uploaded only for passes that interpolate,
// so frames without them stream exactly what they did before.
type prevInstance struct {
	x, y, w, h float32 // a_prect
	ox, oy     float32 // a_pxform.xy
	rot        float32 // a_pxform.z
	tint       uint32  // a_pxform.w
}

const prevStride = int32(unsafe.Sizeof(prevInstance{}))

// attribute describes one vertex attribute of the instance layout.
type attribute struct {
	size    int32
	integer bool
	offset  uintptr
}

var attribs = [...]attribute{
	{4, false, unsafe.Offsetof(instance{}.x)},
	{4, true, unsafe.Offsetof(instance{}.ox)},
	{4, false, unsafe.Offsetof(instance{}.u0)},
	{4, false, unsafe.Offsetof(instance{}.params)},
}

var prevAttribs = [...]attribute{
	{4, false, unsafe.Offsetof(prevInstance{}.x)},
	{4, true, unsafe.Offsetof(prevInstance{}.ox)},
}

// pointPrevAttribs points attributes 4 and 5 at the previous placements in
// the buffer bound to GL_ARRAY_BUFFER, starting at entry first.
func pointPrevAttribs(first int) {
	base := uintptr(first) * uintptr(prevStride)
	for i, a := range prevAttribs {
		loc := uint32(len(attribs) + i)
		if a.integer {
			gl.VertexAttribIPointerWithOffset(loc, a.size, gl.UNSIGNED_INT, prevStride, base+a.offset)
		} else {
			gl.VertexAttribPointerWithOffset(loc, a.size, gl.FLOAT, false, prevStride, base+a.offset)
		}
	}
}

// pointAttribs points the instance attributes at the buffer bound to
// GL_ARRAY_BUFFER, starting at instance first; n is 3 for the built-in
// material and 4 with parameters.
func pointAttribs(first int, n int) { pointAttribsStride(first, n, instanceStride) }

// pointAttribsStride is pointAttribs over entries of stride bytes: an
// instance, or a leanVertex (n 3).
func pointAttribsStride(first int, n int, stride int32) {
	base := uintptr(first) * uintptr(stride)
	for i, a := range attribs[:n] {
		if a.integer {
			gl.VertexAttribIPointerWithOffset(uint32(i), a.size, gl.UNSIGNED_INT, stride, base+a.offset)
		} else {
			gl.VertexAttribPointerWithOffset(uint32(i), a.size, gl.FLOAT, false, stride, base+a.offset)
		}
	}
}

// leanVertex is an instance without its parameter slot: a vertex of the
// batched path in a pass where no batch reads the slot (no custom
// material, no slide), so it streams a quarter less. Its fields are the
// instance's first ones, at the same offsets.
type leanVertex struct {
	x, y, w, h float32
	ox, oy     float32
	rot        float32
	tint       uint32
	u0, v0     float32
	u1, v1     float32
}

const leanStride = int32(unsafe.Sizeof(leanVertex{}))

// expandLean writes each instance of src four times into dst (grown to
// fit) without its parameter slot, and returns it.
func expandLean(dst []leanVertex, src []instance) []leanVertex {
	dst = grow(dst, 4*len(src))
	for i := range src {
		s := &src[i]
		v := leanVertex{s.x, s.y, s.w, s.h, s.ox, s.oy, s.rot, s.tint, s.u0, s.v0, s.u1, s.v1}
		d := dst[4*i : 4*i+4 : 4*i+4]
		d[0], d[1], d[2], d[3] = v, v, v, v
	}
	return dst
}

func unorm8(v float32) uint32 {
	if !(v > 0) { // also NaN
		return 0
	}
	if v >= 1 {
		return 255
	}
	return uint32(v*255 + 0.5)
}

func packTint(c *render2d.Color) uint32 {
	return unorm8(c.R) | unorm8(c.G)<<8 | unorm8(c.B)<<16 | unorm8(c.A)<<24
}

// convert writes the instances of packets (one batch, sampling a texture
// of texW x texH texels) into dst, which has the same length. It reports
// whether every packet is tinted opaque white, so the batch can use the
// untinted program, and which motion variant the batch needs if it is
// drawn between placements: still when no packet has a previous
// placement, slide when those that have one differ only in position (and
// the batch uses the built-in material, whose parameter slot carries the
// previous position), turn otherwise.
func convert(dst []instance, packets []render2d.DrawPacket2D, texW, texH int, params bool) (white bool, motion int) {
	iw, ih := 1/float32(texW), 1/float32(texH)
	all := uint32(0xffffffff)
	dst = dst[:len(packets)]
	for i := range packets {
		p := &packets[i]
		d := &dst[i]
		sx, sy := p.Transform.Scale.X, p.Transform.Scale.Y
		d.x, d.y = p.Transform.Position.X, p.Transform.Position.Y
		d.w, d.h = p.Size.X*sx, p.Size.Y*sy
		d.ox, d.oy = p.Transform.Origin.X*sx, p.Transform.Origin.Y*sy
		d.rot = p.Transform.Rotation
		d.tint = packTint(&p.Tint)
		all &= d.tint
		if pr := &p.Prev; pr.Set {
			if pr.Rotation != p.Transform.Rotation || pr.Scale != p.Transform.Scale || pr.Tint != p.Tint {
				motion = turn
			} else if motion == still {
				motion = slide
			}
		}
		if s := &p.Source; s.W == 0 && s.H == 0 {
			d.u0, d.v0, d.u1, d.v1 = 0, 0, 1, 1
		} else {
			d.u0, d.v0 = s.X*iw, s.Y*ih
			d.u1, d.v1 = (s.X+s.W)*iw, (s.Y+s.H)*ih
		}
		if params {
			d.params = p.Params
		}
	}
	if motion == slide && params {
		motion = turn // a custom material's parameters fill the slot a slide needs
	}
	return all == 0xffffffff, motion
}

// convertPos writes the previous positions of a sliding batch, already
// converted into dst, into the parameter slot of its instances, which the
// built-in material does not read otherwise; a packet without one keeps
// its current position.
func convertPos(dst []instance, packets []render2d.DrawPacket2D) {
	dst = dst[:len(packets)]
	for i := range packets {
		d := &dst[i]
		if pr := &packets[i].Prev; pr.Set {
			d.params[0], d.params[1] = pr.Position.X, pr.Position.Y
		} else {
			d.params[0], d.params[1] = d.x, d.y
		}
	}
}

// convertPrev writes the previous placements of a turning batch already
// converted into cur into dst, all three of the same length: a packet
// without one gets its current placement, so it stays still. It reports
// whether every previous tint is opaque white.
func convertPrev(dst []prevInstance, cur []instance, packets []render2d.DrawPacket2D) (white bool) {
	all := uint32(0xffffffff)
	dst, cur = dst[:len(packets)], cur[:len(packets)]
	for i := range packets {
		p := &packets[i]
		d := &dst[i]
		if !p.Prev.Set {
			c := &cur[i]
			*d = prevInstance{x: c.x, y: c.y, w: c.w, h: c.h, ox: c.ox, oy: c.oy, rot: c.rot, tint: c.tint}
			continue // cur's tint is already in the batch's white flag
		}
		pr := &p.Prev
		sx, sy := pr.Scale.X, pr.Scale.Y
		d.x, d.y = pr.Position.X, pr.Position.Y
		d.w, d.h = p.Size.X*sx, p.Size.Y*sy
		d.ox, d.oy = p.Transform.Origin.X*sx, p.Transform.Origin.Y*sy
		d.rot = pr.Rotation
		d.tint = packTint(&pr.Tint)
		all &= d.tint
	}
	return all == 0xffffffff
}
