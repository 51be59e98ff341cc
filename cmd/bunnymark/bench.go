package main

import (
	"fmt"
	"image"
	"image/color"
	"math/rand/v2"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"

	"github.com/metronome-go/metronome/geom"
	glx "github.com/metronome-go/metronome/internal/gl"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender"
)

// bench is one way of drawing the bunnies.
type bench interface {
	setup(n, size int)
	frame(dt float32) // move the bunnies and draw them (not present)
}

// bunnies are the simulation both benches share: positions and velocities
// in pixels, gravity, and bounces off the window's edges.
type bunnies struct {
	pos, vel []float32 // x, y pairs
	w, h     float32
	size     float32
}

func (b *bunnies) reset(n, size int, w, h float32) {
	rng := rand.New(rand.NewPCG(1, 2))
	b.pos, b.vel = make([]float32, 2*n), make([]float32, 2*n)
	b.w, b.h, b.size = w, h, float32(size)
	for i := range n {
		b.pos[2*i] = rng.Float32() * (w - b.size)
		b.pos[2*i+1] = rng.Float32() * (h - b.size)
		b.vel[2*i] = (rng.Float32() - 0.5) * 400
		b.vel[2*i+1] = (rng.Float32() - 0.5) * 400
	}
}

func (b *bunnies) step(dt float32) {
	dt = min(dt, 0.05)
	maxX, maxY := b.w-b.size, b.h-b.size
	pos, vel := b.pos, b.vel[:len(b.pos)]
	for i := 0; i+1 < len(pos); i += 2 {
		vel[i+1] += 500 * dt
		x, y := pos[i]+vel[i]*dt, pos[i+1]+vel[i+1]*dt
		if x < 0 {
			x, vel[i] = 0, -vel[i]
		} else if x > maxX {
			x, vel[i] = maxX, -vel[i]
		}
		if y > maxY {
			y, vel[i+1] = maxY, -vel[i+1]*0.85
		} else if y < 0 {
			y, vel[i+1] = 0, 0
		}
		pos[i], pos[i+1] = x, y
	}
}

// bunnyImage draws a size x size sprite: a light disc with darker ears, so
// screenshots show something textured even at 2x2.
func bunnyImage(size int) *image.RGBA {
	s := max(size, 8)
	img := image.NewRGBA(image.Rect(0, 0, s, s))
	for y := range s {
		for x := range s {
			fx, fy := float32(x)/float32(s), float32(y)/float32(s)
			dx, dy := fx-0.5, fy-0.6
			switch {
			case dx*dx+dy*dy < 0.16:
				img.SetRGBA(x, y, color.RGBA{240, 240, 250, 255})
			case fy < 0.3 && (fx > 0.2 && fx < 0.35 || fx > 0.65 && fx < 0.8):
				img.SetRGBA(x, y, color.RGBA{250, 170, 190, 255})
			}
		}
	}
	return img
}

// rendererBench draws through render2d: frame slots, packets written with
// a FrameWriter, and the GL renderer. With interp set every packet also
// carries its previous position and each frame is drawn at an alpha that
// cycles through (0, 1), as a runtime presenting between fixed steps would,
// so the renderer's interpolating shaders draw it.
type rendererBench struct {
	r      *glrender.Renderer
	tex    render2d.TextureHandle
	slots  *render2d.Slots
	b      bunnies
	prev   []float32
	w, h   float32
	interp bool
	n      int // frames drawn
}

func newRendererBench(r *glrender.Renderer, tex render2d.TextureHandle, w, h int, interp bool) *rendererBench {
	return &rendererBench{r: r, tex: tex, slots: render2d.NewSlots(render2d.Sequential, render2d.SlotOptions{}), w: float32(w), h: float32(h), interp: interp}
}

func (rb *rendererBench) setup(n, size int) {
	rb.b.reset(n, size, rb.w, rb.h)
	rb.prev = make([]float32, len(rb.b.pos))
}

// alphas are the alphas interpolated frames cycle through: never 1, where
// the renderer draws current placements with its plain shaders.
var alphas = [...]float32{0.1, 0.3, 0.5, 0.7, 0.9, 0.2, 0.4, 0.6, 0.8}

func (rb *rendererBench) frame(dt float32) {
	if rb.interp {
		copy(rb.prev, rb.b.pos)
	}
	rb.b.step(dt)
	w, ok := rb.slots.Begin()
	if !ok {
		panic("bunnymark: sequential slot unavailable")
	}
	pos := rb.b.pos
	ps := w.BeginPass(render2d.PassDesc{Clear: true, ClearColor: render2d.Color{R: 0.1, G: 0.1, B: 0.15, A: 1}}).Append(len(pos) / 2)
	size := geom.Vec2{X: rb.b.size, Y: rb.b.size}
	for i := range ps {
		p := &ps[i]
		p.Texture = rb.tex
		p.Transform.Position = geom.Vec2{X: pos[2*i], Y: pos[2*i+1]}
		p.Transform.Scale = geom.Vec2{X: 1, Y: 1}
		p.Size = size
		p.Tint = render2d.White
		if rb.interp {
			p.Prev = render2d.Placement{Position: geom.Vec2{X: rb.prev[2*i], Y: rb.prev[2*i+1]}, Scale: p.Transform.Scale, Tint: p.Tint, Set: true}
		}
	}
	rb.slots.Publish(w)
	f, _ := rb.slots.Acquire()
	if rb.interp {
		f.Present.Alpha = alphas[rb.n%len(alphas)]
	} else {
		f.Present.Alpha = 1
	}
	rb.n++
	if err := rb.r.Render(f); err != nil {
		panic(err)
	}
}

// plainBench is the comparison: what a hand-written GL program would do
// for this scene, with none of the framework. One buffer of instance
// positions (8 bytes per sprite) is orphaned and refilled each frame and
// drawn with a single glDrawArraysInstanced; size and texture are uniform.
type plainBench struct {
	prog, vao, vbo, tex uint32
	uSize, uScreen      int32
	b                   bunnies
	w, h                float32
}

const plainVS = `#version 410 core
layout(location = 0) in vec2 a_pos;
uniform vec2 u_size;
uniform vec2 u_screen;
out vec2 v_uv;
void main() {
	vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
	vec2 p = a_pos + corner * u_size;
	gl_Position = vec4(p.x / u_screen.x * 2.0 - 1.0, 1.0 - p.y / u_screen.y * 2.0, 0.0, 1.0);
	v_uv = corner;
}
`

const plainFS = `#version 410 core
in vec2 v_uv;
uniform sampler2D u_tex;
out vec4 o_color;
void main() { o_color = texture(u_tex, v_uv); }
`

func newPlainBench(img *image.RGBA, filter render2d.Filter, w, h int) (*plainBench, error) {
	vs, err := glx.Compile(gl.VERTEX_SHADER, plainVS, "plain loop vertex shader")
	if err != nil {
		return nil, err
	}
	defer gl.DeleteShader(vs)
	fs, err := glx.Compile(gl.FRAGMENT_SHADER, plainFS, "plain loop fragment shader")
	if err != nil {
		return nil, err
	}
	defer gl.DeleteShader(fs)
	pb := &plainBench{w: float32(w), h: float32(h)}
	if pb.prog, err = glx.Link(vs, fs, "plain loop program"); err != nil {
		return nil, err
	}
	pb.uSize = gl.GetUniformLocation(pb.prog, gl.Str("u_size\x00"))
	pb.uScreen = gl.GetUniformLocation(pb.prog, gl.Str("u_screen\x00"))
	gl.GenVertexArrays(1, &pb.vao)
	gl.BindVertexArray(pb.vao)
	gl.GenBuffers(1, &pb.vbo)
	gl.BindBuffer(gl.ARRAY_BUFFER, pb.vbo)
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribDivisor(0, 1)
	gl.VertexAttribPointerWithOffset(0, 2, gl.FLOAT, false, 8, 0)
	gl.GenTextures(1, &pb.tex)
	gl.BindTexture(gl.TEXTURE_2D, pb.tex)
	glFilter := int32(gl.LINEAR)
	if filter == render2d.FilterNearest {
		glFilter = gl.NEAREST
	}
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, glFilter)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, glFilter)
	b := img.Bounds()
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, int32(b.Dx()), int32(b.Dy()), 0, gl.RGBA, gl.UNSIGNED_BYTE, unsafe.Pointer(&img.Pix[0]))
	if e := gl.GetError(); e != gl.NO_ERROR {
		return nil, fmt.Errorf("plain loop setup: GL error 0x%x", e)
	}
	return pb, nil
}

func (pb *plainBench) setup(n, size int) { pb.b.reset(n, size, pb.w, pb.h) }

func (pb *plainBench) frame(dt float32) {
	pb.b.step(dt)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	gl.Viewport(0, 0, int32(pb.w), int32(pb.h))
	gl.ClearColor(0.1, 0.1, 0.15, 1)
	gl.Clear(gl.COLOR_BUFFER_BIT)
	n := len(pb.b.pos) / 2
	if n == 0 {
		return
	}
	gl.UseProgram(pb.prog)
	gl.BindVertexArray(pb.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, pb.vbo)
	gl.BufferData(gl.ARRAY_BUFFER, 8*n, unsafe.Pointer(&pb.b.pos[0]), gl.STREAM_DRAW)
	gl.ActiveTexture(gl.TEXTURE0)
	gl.BindTexture(gl.TEXTURE_2D, pb.tex)
	gl.Enable(gl.BLEND)
	gl.BlendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
	gl.Uniform2f(pb.uSize, pb.b.size, pb.b.size)
	gl.Uniform2f(pb.uScreen, pb.w, pb.h)
	gl.DrawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, int32(n))
}

func (pb *plainBench) close() {
	gl.DeleteProgram(pb.prog)
	gl.DeleteBuffers(1, &pb.vbo)
	gl.DeleteVertexArrays(1, &pb.vao)
	gl.DeleteTextures(1, &pb.tex)
}
