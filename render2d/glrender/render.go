package glrender

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/internal/gl"
	"github.com/metronome-go/metronome/render2d"
)

// Render implements [render2d.Renderer]. After validating the whole frame
// it clears the whole window when the frame asks ([render2d.Frame.Clear]),
// then draws each pass: bind its target, set the viewport, clear if asked,
// convert the pass's packets into instances and upload them into the next
// streamed instance buffer, then issue one instanced draw per batch of
// consecutive packets sharing texture, material and blend mode. The number
// of GL calls depends on the number of batches, never on the number of
// packets, and a frame allocates nothing once the renderer's scratch
// slices have grown to the frame's size. In the three frames after the
// renderer is made and after each change to its targets or materials, a
// released texture or a new framebuffer size, Render asks GL for errors
// after the clear and after each pass, and a GL error stops the frame and
// is reported with the pass it happened in; other frames do not ask,
// since in a browser every glGetError is a synchronous round trip to the
// GPU process. Built with -tags gldebug it asks in every frame. (Texture
// creation and updates check their own errors when they happen.)
//
// Interpolation happens on the GPU: a pass with previous placements also
// streams them, and the batches that have one draw with the interpolating
// shader variant, which mixes by f.Present.Alpha (one uniform). The camera
// is resolved on the CPU, once per pass. At alpha 1 every packet is at its
// current placement and the plain variants draw it.
func (r *Renderer) Render(f *render2d.Frame) error {
	if err := r.res.Check("Render"); err != nil {
		return err
	}
	if err := render2d.ValidateFrame(f, r); err != nil {
		return err
	}
	// Other code sharing the context may have changed GL state since the
	// last frame: set what the renderer relies on and forget its caches.
	// (Culling would drop quads flipped by a negative scale.)
	gl.ActiveTexture(gl.TEXTURE0)
	gl.Disable(gl.CULL_FACE)
	gl.Disable(gl.DEPTH_TEST)
	gl.Disable(gl.SCISSOR_TEST)
	r.curProgram, r.curTexture, r.curBlend, r.curFBO, r.curArray, r.curVAO = 0, 0, -1, ^uint32(0), ^uint32(0), -1
	r.alpha = f.Present.Alpha
	check := debugChecks || r.checks > 0
	if r.checks > 0 {
		r.checks--
	}
	if f.Clear {
		// The whole window, before any pass: scissor is off, and clears
		// ignore the viewport.
		c := f.ClearColor
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		r.curFBO = 0
		gl.ClearColor(c.R*c.A, c.G*c.A, c.B*c.A, c.A)
		gl.Clear(gl.COLOR_BUFFER_BIT)
		if check {
			if e := getError(); e != gl.NO_ERROR {
				return errors.Join(fmt.Errorf("glrender: Render: frame clear: GL error %s", glErrorName(e)), glError("Render"))
			}
		}
	}
	for i := range f.Passes {
		p := &f.Passes[i]
		r.pass(p)
		if !check {
			continue
		}
		if e := getError(); e != gl.NO_ERROR {
			return errors.Join(
				fmt.Errorf("glrender: Render: pass %d (%v, %d packets): GL error %s", i, p.Target, len(p.Packets), glErrorName(e)),
				glError("Render"))
		}
	}
	return nil
}

// checkFrames is how many frames Render checks for GL errors after the
// renderer is made and after each change to its resources or framebuffer
// size: a fault in the renderer's state shows in the first frame that
// uses it. Frames after those do not ask, because asking costs a round
// trip: in a browser glGetError waits for the GPU process to run every
// command queued before it.
// Build with -tags gldebug to check every frame (debugChecks).
const checkFrames = 3

// getError is gl.GetError, a variable so the tests can count and fake
// the renderer's questions.
var getError = gl.GetError

// resourcesChanged makes the next checkFrames frames check for GL errors.
func (r *Renderer) resourcesChanged() { r.checks = checkFrames }

func (r *Renderer) pass(p *render2d.Pass) {
	fbo, tw, th := uint32(0), r.fbW, r.fbH
	if !p.Target.IsZero() {
		t, tx := r.res.MustTarget(p.Target)
		fbo, tw, th = t.Val.fbo, tx.W, tx.H
	}
	if fbo != r.curFBO {
		gl.BindFramebuffer(gl.FRAMEBUFFER, fbo)
		r.curFBO = fbo
	}
	vx, vy, vw, vh := 0, 0, tw, th
	if v := p.Camera.Viewport; v.W > 0 && v.H > 0 {
		vx, vy, vw, vh = int(v.X), int(v.Y), int(v.W), int(v.H)
	}
	// GL's window origin is the bottom-left corner; offscreen targets are
	// drawn upside down (see viewMatrix), so their rows already match.
	gly := vy
	if fbo == 0 {
		gly = th - vy - vh
	}
	gl.Viewport(int32(vx), int32(gly), int32(vw), int32(vh))
	if p.Clear {
		c := p.ClearColor
		gl.Enable(gl.SCISSOR_TEST)
		gl.Scissor(int32(vx), int32(gly), int32(vw), int32(vh))
		gl.ClearColor(c.R*c.A, c.G*c.A, c.B*c.A, c.A)
		gl.Clear(gl.COLOR_BUFFER_BIT)
		gl.Disable(gl.SCISSOR_TEST)
	}
	if len(p.Packets) == 0 || vw <= 0 || vh <= 0 {
		return
	}
	// Kept in the renderer: a local whose address goes to cgo would be
	// moved to the heap on every pass.
	cam := p.ResolvedCamera(r.alpha)
	sw, sh := float32(vw), float32(vh)
	if cam.Size != (geom.Vec2{}) {
		sw, sh = cam.Size.X, cam.Size.Y // a logical view, stretched over the viewport
	}
	r.view = [16]float32(viewMatrix(cam, sw, sh, fbo != 0))

	n := len(p.Packets)
	r.batches = render2d.AppendBatches(r.batches[:0], p.Packets)
	nb := len(r.batches)
	r.inst = grow(r.inst, n)
	r.flags = grow(r.flags, nb)
	r.poff = grow(r.poff, nb)
	interp := r.alpha < 1 // at alpha 1 the current placements are exact
	nPrev := 0
	params := false // some batch reads the parameter slot
	r.sverts, r.sidx = r.sverts[:0], r.sidx[:0]
	r.sranges = grow(r.sranges, nb)
	px := pixelSize(cam, sw, vw)
	for i := range r.batches {
		b := &r.batches[i]
		if b.Key.Shape {
			r.sranges[i] = r.convertShapes(p, b, px)
			continue
		}
		_, w, h := r.texture(b.Key.Texture)
		inst, ps := r.inst[b.First:b.First+b.Count], p.Packets[b.First:b.First+b.Count]
		white, motion := convert(inst, ps, w, h, !b.Key.Material.IsZero())
		if !interp {
			motion = still
		}
		switch motion {
		case slide:
			convertPos(inst, ps)
		case turn:
			r.prev = grow(r.prev, n) // reallocates only before the first use in a pass
			white = convertPrev(r.prev[nPrev:nPrev+b.Count], inst, ps) && white
			r.poff[i] = int32(nPrev)
			nPrev += b.Count
		}
		params = params || motion == slide || !b.Key.Material.IsZero()
		fl := batchFlags(motion)
		if white {
			fl |= batchWhite
		}
		r.flags[i] = fl
	}
	r.ring = (r.ring + 1) % len(r.instance)
	// Per sprite on the instanced path, per corner on the batched one.
	inst, prev, per := r.inst[:n], r.prev[:nPrev], 1
	data, size, stride := unsafe.Pointer(&inst[0]), n*int(instanceStride), instanceStride
	if r.path == DrawBatched {
		r.vprev = expand(r.vprev, prev)
		prev, per = r.vprev, 4
		if params {
			r.vinst = expand(r.vinst, inst)
			data, size = unsafe.Pointer(&r.vinst[0]), len(r.vinst)*int(instanceStride)
		} else {
			r.vlean = expandLean(r.vlean, inst)
			data, size, stride = unsafe.Pointer(&r.vlean[0]), len(r.vlean)*int(leanStride), leanStride
		}
		r.ensureQuads(maxSprites(r.batches))
	}
	instBuf := upload(&r.instance[r.ring], data, size)
	prevBuf := uint32(0)
	if nPrev > 0 {
		prevBuf = upload(&r.pfull[r.ring], unsafe.Pointer(&prev[0]), len(prev)*int(prevStride))
	}
	r.curArray = ^uint32(0) // upload bound one of them
	if len(r.sidx) > 0 {
		r.uploadShapes()
	}

	var prog *program
	for i := range r.batches {
		b := &r.batches[i]
		if b.Key.Shape {
			next := &r.shapeProg
			if next.id != r.curProgram {
				gl.UseProgram(next.id)
				r.curProgram = next.id
			}
			if prog != next {
				prog = next
				gl.UniformMatrix4fv(prog.view, 1, false, &r.view[0])
			}
			r.setBlend(b.Key.Blend)
			if r.curVAO != vaoShapes {
				gl.BindVertexArray(r.shapeVAO)
				r.curVAO = vaoShapes
			}
			if sr := r.sranges[i]; sr.count > 0 {
				gl.DrawElementsWithOffset(gl.TRIANGLES, sr.count, gl.UNSIGNED_INT, uintptr(sr.first)*4)
			}
			continue
		}
		fl := r.flags[i]
		m := int(fl & batchMotion)
		next := &r.builtin[m]
		if fl&batchWhite != 0 {
			next = &r.untinted[m]
		}
		if !b.Key.Material.IsZero() {
			next = &r.res.MustMaterial(b.Key.Material).prog[m]
		}
		if next.id != r.curProgram {
			gl.UseProgram(next.id)
			r.curProgram = next.id
		}
		if prog != next {
			// Uniforms live in the program: set the pass's values the
			// first time each program is used in this pass.
			prog = next
			gl.UniformMatrix4fv(prog.view, 1, false, &r.view[0])
			gl.Uniform4fv(prog.pass, 2, &p.Params[0])
			if prog.alpha >= 0 {
				gl.Uniform1f(prog.alpha, r.alpha)
			}
		}
		texID, _, _ := r.texture(b.Key.Texture)
		if texID != r.curTexture {
			gl.BindTexture(gl.TEXTURE_2D, texID)
			r.curTexture = texID
		}
		r.setBlend(b.Key.Blend)
		v := 0
		if m == turn {
			v = 1
		}
		if r.path == DrawBatched {
			if vaoBatched+v != r.curVAO {
				gl.BindVertexArray(r.bvao[v])
				r.curVAO = vaoBatched + v
			}
		} else if v != r.curVAO {
			gl.BindVertexArray(r.vao[v])
			r.curVAO = v
		}
		na := len(attribs)
		if b.Key.Material.IsZero() && m != slide {
			na-- // the parameter slot is read by materials and slides only
		}
		r.bindArray(instBuf)
		pointAttribsStride(per*b.First, na, stride)
		if m == turn {
			r.bindArray(prevBuf)
			pointPrevAttribs(per * int(r.poff[i]))
		}
		if r.path == DrawBatched {
			// Indices count from the batch's first vertex, where the
			// attributes now point.
			gl.DrawElementsWithOffset(gl.TRIANGLES, int32(6*b.Count), gl.UNSIGNED_INT, 0)
		} else {
			gl.DrawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, int32(b.Count))
		}
	}
}

// maxSprites returns the most packets in one sprite batch of bs.
func maxSprites(bs []render2d.Batch) int {
	n := 0
	for i := range bs {
		if !bs[i].Key.Shape {
			n = max(n, bs[i].Count)
		}
	}
	return n
}

// grow returns s with length n, reallocating (with room to spare) only
// when its capacity is too small; the contents are not kept.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, 2*n)
	}
	return s[:n]
}

func (r *Renderer) bindArray(id uint32) {
	if id != r.curArray {
		gl.BindBuffer(gl.ARRAY_BUFFER, id)
		r.curArray = id
	}
}

// texture returns the GL name and size of h, or the white texel for the
// zero handle. h has been validated.
func (r *Renderer) texture(h render2d.TextureHandle) (id uint32, w, h2 int) {
	if h.IsZero() {
		return r.white, 1, 1
	}
	t := r.res.MustTexture(h)
	return t.Val.id, t.W, t.H
}

// setBlend configures blending for premultiplied colour.
func (r *Renderer) setBlend(b render2d.BlendMode) {
	if int(b) == r.curBlend {
		return
	}
	if b == render2d.BlendOpaque {
		gl.Disable(gl.BLEND)
		r.curBlend = int(b)
		return
	}
	if r.curBlend < 0 || r.curBlend == int(render2d.BlendOpaque) {
		gl.Enable(gl.BLEND)
	}
	switch b {
	case render2d.BlendAlpha:
		gl.BlendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
	case render2d.BlendAdditive:
		gl.BlendFunc(gl.ONE, gl.ONE)
	case render2d.BlendMultiply:
		gl.BlendFuncSeparate(gl.DST_COLOR, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
	case render2d.BlendScreen:
		gl.BlendFuncSeparate(gl.ONE, gl.ONE_MINUS_SRC_COLOR, gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
	}
	r.curBlend = int(b)
}

// upload copies size bytes at data into buf, binding it to
// GL_ARRAY_BUFFER, and returns its name. Each pass writes the next buffer
// of a small ring, so the driver never has to wait for draws still reading
// one, and a buffer's storage is reallocated only when it must grow.
// (Orphaning with glBufferData every pass would give the same guarantee,
// but Mesa then allocates and page-faults fresh storage for every frame of
// a large pass.)
func upload(buf *ringBuffer, data unsafe.Pointer, size int) uint32 {
	gl.BindBuffer(gl.ARRAY_BUFFER, buf.id)
	if size > buf.cap {
		buf.cap = max(size, 2*buf.cap)
		gl.BufferData(gl.ARRAY_BUFFER, buf.cap, nil, gl.STREAM_DRAW)
	}
	gl.BufferSubData(gl.ARRAY_BUFFER, 0, size, data)
	return buf.id
}
