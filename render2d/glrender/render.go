package glrender

import (
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/metronome-go/metronome/render2d"
)

// Render implements [render2d.Renderer]. After validating the whole frame
// it draws each pass: bind its target, set the viewport, clear if asked,
// upload the pass's packets unchanged into the streamed instance buffer
// (orphaning the previous storage), then issue one instanced draw per
// batch of consecutive packets sharing texture, material and blend mode.
// The number of GL calls depends on the number of batches, never on the
// number of packets, and a frame allocates nothing once the batch list has
// grown to the frame's size.
func (r *Renderer) Render(f *render2d.Frame) error {
	if err := r.check("Render"); err != nil {
		return err
	}
	if err := render2d.ValidateFrame(f, r); err != nil {
		return err
	}
	gl.BindVertexArray(r.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.instance)
	gl.ActiveTexture(gl.TEXTURE0)
	r.curProgram, r.curTexture, r.curBlend = 0, 0, -1
	for i := range f.Passes {
		r.pass(&f.Passes[i])
	}
	return glError("Render")
}

func (r *Renderer) pass(p *render2d.Pass) {
	fbo, tw, th := uint32(0), r.fbW, r.fbH
	if !p.Target.IsZero() {
		t := r.targets.Get(p.Target.ID, p.Target.Gen)
		tx := r.textures.Get(t.tex.ID, t.tex.Gen)
		fbo, tw, th = t.fbo, tx.w, tx.h
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
	r.view = viewMatrix(p.Camera, float32(vw), float32(vh), fbo != 0)

	size := len(p.Packets) * int(packetStride)
	// Respecifying the whole store orphans the previous one, so the driver
	// never waits for draws still reading it.
	gl.BufferData(gl.ARRAY_BUFFER, size, unsafe.Pointer(&p.Packets[0]), gl.STREAM_DRAW)

	r.batches = render2d.AppendBatches(r.batches[:0], p.Packets)
	var prog *program
	passProgramSet := uint32(0)
	for _, b := range r.batches {
		next := &r.builtin
		if !b.Key.Material.IsZero() {
			next = &r.materials.Get(b.Key.Material.ID, b.Key.Material.Gen).prog
		}
		if next.id != r.curProgram {
			gl.UseProgram(next.id)
			r.curProgram = next.id
		}
		if prog != next || passProgramSet != next.id {
			prog = next
			passProgramSet = next.id
			gl.UniformMatrix4fv(prog.view, 1, false, &r.view[0])
			gl.Uniform4fv(prog.pass, 2, &p.Params[0])
		}
		texID, texW, texH := r.white, 1, 1
		if !b.Key.Texture.IsZero() {
			t := r.textures.Get(b.Key.Texture.ID, b.Key.Texture.Gen)
			texID, texW, texH = t.id, t.w, t.h
		}
		if texID != r.curTexture {
			gl.BindTexture(gl.TEXTURE_2D, texID)
			r.curTexture = texID
		}
		gl.Uniform2f(prog.texsize, float32(texW), float32(texH))
		r.setBlend(b.Key.Blend)
		base := uintptr(b.First) * uintptr(packetStride)
		for i, a := range attribs {
			gl.VertexAttribPointerWithOffset(uint32(i), a.size, gl.FLOAT, false, packetStride, base+a.offset)
		}
		gl.DrawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, int32(b.Count))
	}
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
