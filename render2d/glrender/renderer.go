package glrender

import (
	"errors"
	"fmt"
	"image"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/metronome-go/metronome/internal/gl"
	"github.com/metronome-go/metronome/internal/shadersrc"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/internal/handles"
)

// Renderer is the OpenGL [render2d.Renderer]: OpenGL 4.1 core on the
// desktop, WebGL2 in a browser. It draws into the context's default
// framebuffer and into offscreen targets it creates; it never presents
// (swapping buffers, or handing the canvas back to the browser, is the
// platform's job).
//
// Every method must be called on the thread where the context is current,
// with that context current (in a browser: the goroutine that runs the
// platform).
type Renderer struct {
	// vertex shaders by kind (vsPlain: no tint or parameters, vsTint,
	// vsParams: custom materials) and motion (still, slide, turn; custom
	// materials do not slide)
	vs       [numVS][numMotions]uint32
	builtin  programs // built-in material, tinted
	untinted programs // built-in material for batches tinted opaque white
	// vertex arrays: attributes 0-3 from the instance buffer (still and
	// sliding batches), and also 4-5 from the previous-placement buffer
	// (turning batches)
	vao [2]uint32
	// the same for the batched path (attributes per vertex, not per
	// instance), with the quad index buffer bound
	bvao     [2]uint32
	quads    quadIndices
	path     DrawPath
	device   string        // the driver's name for the device (RendererName)
	instance [4]ringBuffer // streamed instances, one buffer per pass in turn
	pfull    [4]ringBuffer // streamed previous placements of turning batches
	ring     int
	white    uint32

	// shapes (shapes.go): their program, vertex array and streamed
	// vertex and index buffers
	shapeProg  program
	shapeVAO   uint32
	shapeVerts [4]ringBuffer
	shapeIdx   [4]ringBuffer
	sverts     []shapeVertex
	sidx       []uint32
	sranges    []shapeRange

	res handles.Resources[texture, target, material]

	fbW, fbH int

	batches []render2d.Batch
	inst    []instance
	prev    []prevInstance // previous placements of the pass's turning batches
	vinst   []instance     // the batched path: inst, once per corner
	vlean   []leanVertex   // the same without the parameter slot, when no batch reads it
	vprev   []prevInstance // the batched path: prev, once per corner
	flags   []batchFlags
	poff    []int32 // per batch: where its previous placements start in prev
	// view is a plain array, not an mgl32.Mat4: a Renderer is held in an
	// interface, which keeps its fields' types' methods, and Mat4's String
	// would link text/tabwriter into every game.
	view  [16]float32
	alpha float32

	// state cached across batches to skip redundant GL calls
	curProgram uint32
	curTexture uint32
	curBlend   int // -1 unknown
	curFBO     uint32
	curArray   uint32 // buffer bound to GL_ARRAY_BUFFER
	curVAO     int    // index into vao, vaoShapes, vaoBatched+index into bvao, or -1 unknown

	checks int // frames left that Render checks for GL errors (checkFrames)
	// warming is set while warmUp creates its textures, whose errors it
	// asks for once, after its frame.
	warming bool
	warmed  bool // WarmUp ran: CreateMaterial warms each new material too
	// targetsWarm says a render target has been warmed (its RGBA8 format
	// makes variants of its own): CreateMaterial warms a new material in
	// a render target too.
	targetsWarm bool
}

// batchFlags say which program variant a batch needs: the motion in the
// low bits, and whether it is white.
type batchFlags uint8

const (
	batchMotion batchFlags = 3      // still, slide or turn
	batchWhite  batchFlags = 1 << 2 // every packet tinted opaque white, before and now
)

type ringBuffer struct {
	id  uint32
	cap int
}

type texture struct{ id uint32 }

type target struct{ fbo uint32 }

type material struct {
	name string
	prog programs
}

var _ render2d.Renderer = (*Renderer)(nil)

// vaoShapes is curVAO when the shape vertex array is bound.
const vaoShapes = 2

// builtinNames name shadersrc.BuiltinMaterials in errors.
var builtinNames = [len(shadersrc.BuiltinMaterials)]string{"built-in sprite material", "built-in untinted sprite material"}

func (r *Renderer) compileBuiltins() error {
	names := [numVS]string{"untinted sprite", "sprite", "material"}
	for k := range r.vs {
		for m := range numMotions {
			if !shadersrc.Kind(k).Has(shadersrc.Motion(m)) {
				continue // a slide's previous position takes the parameter slot
			}
			var err error
			if r.vs[k][m], err = gl.Compile(gl.VERTEX_SHADER, shadersrc.SpriteVertex(gl.ShaderPrelude, shadersrc.Kind(k), shadersrc.Motion(m)), motionNames[m]+names[k]+" vertex shader"); err != nil {
				return err
			}
		}
	}
	// In shadersrc.BuiltinMaterials' order, which shadersrc.Builtins lists for a
	// page to link ahead.
	for i, p := range []*programs{&r.builtin, &r.untinted} {
		mat := shadersrc.BuiltinMaterials[i]
		var err error
		if *p, err = linkPrograms(r.vs[mat.Kind], mat.Kind, mat.Shade, builtinNames[i]); err != nil {
			return err
		}
	}
	return nil
}

func (r *Renderer) deleteBuiltins() {
	r.builtin.delete()
	r.untinted.delete()
	for k := range r.vs {
		for i := range r.vs[k] {
			if s := &r.vs[k][i]; *s != 0 {
				gl.DeleteShader(*s)
				*s = 0
			}
		}
	}
}

// newRenderer builds the renderer's programs, buffers and vertex arrays in
// the context the target's New has bound the gl package to, and takes the
// initial framebuffer size from the current viewport (the window or canvas
// size for a fresh context).
func newRenderer() (*Renderer, error) {
	r := &Renderer{curBlend: -1, curVAO: -1, checks: checkFrames, res: handles.Resources[texture, target, material]{Prefix: "glrender"}}
	if err := r.compileBuiltins(); err != nil {
		r.deleteBuiltins()
		return nil, fmt.Errorf("glrender: %w", err)
	}
	var mt int32
	gl.GetIntegerv(gl.MAX_TEXTURE_SIZE, &mt)
	r.res.MaxSize = int(mt)
	var vp [4]int32
	gl.GetIntegerv(gl.VIEWPORT, &vp[0])
	r.fbW, r.fbH = int(vp[2]), int(vp[3])

	for i := range r.instance {
		gl.GenBuffers(1, &r.instance[i].id)
		gl.GenBuffers(1, &r.pfull[i].id)
	}
	gl.GenBuffers(1, &r.quads.id)
	gl.GenVertexArrays(int32(len(r.vao)), &r.vao[0])
	gl.GenVertexArrays(int32(len(r.bvao)), &r.bvao[0])
	for v := range r.vao {
		for _, b := range []struct {
			vao     uint32
			divisor uint32
		}{{r.vao[v], 1}, {r.bvao[v], 0}} {
			gl.BindVertexArray(b.vao)
			n := len(attribs) + v*len(prevAttribs)
			for i := range n {
				gl.EnableVertexAttribArray(uint32(i))
				gl.VertexAttribDivisor(uint32(i), b.divisor)
			}
			gl.BindBuffer(gl.ARRAY_BUFFER, r.instance[0].id)
			pointAttribs(0, len(attribs))
			if v == 1 {
				gl.BindBuffer(gl.ARRAY_BUFFER, r.pfull[0].id)
				pointPrevAttribs(0)
			}
			if b.divisor == 0 {
				gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, r.quads.id) // vertex array state
			}
		}
	}
	r.device = gl.RendererName()
	r.path = ChooseDrawPath(r.device)
	r.white = newGLTexture(1, 1, render2d.TextureOptions{}, unsafe.Pointer(&[4]uint8{255, 255, 255, 255}))
	if err := r.compileShapes(); err != nil {
		r.Close()
		return nil, fmt.Errorf("glrender: %w", err)
	}
	if err := glError("New"); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

func glError(op string) error {
	var errs []error
	for i := 0; i < 8; i++ {
		e := getError()
		if e == gl.NO_ERROR {
			break
		}
		errs = append(errs, fmt.Errorf("glrender: %s: GL error %s", op, glErrorName(e)))
	}
	return errors.Join(errs...)
}

func glErrorName(e uint32) string {
	switch e {
	case gl.INVALID_ENUM:
		return "GL_INVALID_ENUM"
	case gl.INVALID_VALUE:
		return "GL_INVALID_VALUE"
	case gl.INVALID_OPERATION:
		return "GL_INVALID_OPERATION"
	case gl.INVALID_FRAMEBUFFER_OPERATION:
		return "GL_INVALID_FRAMEBUFFER_OPERATION"
	case gl.OUT_OF_MEMORY:
		return "GL_OUT_OF_MEMORY"
	}
	return fmt.Sprintf("0x%x", e)
}

func newGLTexture(w, h int, opts render2d.TextureOptions, pix unsafe.Pointer) uint32 {
	var id uint32
	gl.GenTextures(1, &id)
	gl.BindTexture(gl.TEXTURE_2D, id)
	filter := int32(gl.LINEAR)
	if opts.Filter == render2d.FilterNearest {
		filter = gl.NEAREST
	}
	wrap := int32(gl.CLAMP_TO_EDGE)
	if opts.Wrap == render2d.WrapRepeat {
		wrap = gl.REPEAT
	}
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, filter)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, filter)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, wrap)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, wrap)
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 4)
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, int32(w), int32(h), 0, gl.RGBA, gl.UNSIGNED_BYTE, pix)
	return id
}

// HasTexture implements [render2d.Resources].
func (r *Renderer) HasTexture(h render2d.TextureHandle) bool { return r.res.HasTexture(h) }

// HasMaterial implements [render2d.Resources].
func (r *Renderer) HasMaterial(h render2d.MaterialHandle) bool { return r.res.HasMaterial(h) }

// TargetTexture implements [render2d.Resources].
func (r *Renderer) TargetTexture(h render2d.TargetHandle) (render2d.TextureHandle, bool) {
	return r.res.TargetTexture(h)
}

// unpack points GL's unpack state at img's pixels and returns the address
// of its first texel.
func unpack(img *image.RGBA) unsafe.Pointer {
	gl.PixelStorei(gl.UNPACK_ROW_LENGTH, int32(img.Stride/4))
	b := img.Bounds()
	return unsafe.Pointer(&img.Pix[img.PixOffset(b.Min.X, b.Min.Y)])
}

// CreateTexture implements [render2d.Renderer].
func (r *Renderer) CreateTexture(img *image.RGBA, opts render2d.TextureOptions) (render2d.TextureHandle, error) {
	return r.res.CreateTexture(img, opts, func() (texture, error) {
		b := img.Bounds()
		var pix unsafe.Pointer // none: allocated only, filled later
		if len(img.Pix) > 0 {
			pix = unpack(img)
		}
		id := newGLTexture(b.Dx(), b.Dy(), opts, pix)
		gl.PixelStorei(gl.UNPACK_ROW_LENGTH, 0)
		r.curTexture = id
		if r.warming {
			return texture{id: id}, nil // the warm-up asks once, at its end
		}
		if err := glError("CreateTexture"); err != nil {
			r.deleteTexture(id)
			return texture{}, err
		}
		return texture{id: id}, nil
	})
}

// UpdateTexture implements [render2d.Renderer].
func (r *Renderer) UpdateTexture(h render2d.TextureHandle, x, y int, img *image.RGBA) error {
	return r.res.UpdateTexture(h, x, y, img, func(t *handles.Texture[texture]) error {
		b := img.Bounds()
		gl.BindTexture(gl.TEXTURE_2D, t.Val.id)
		r.curTexture = t.Val.id
		gl.TexSubImage2D(gl.TEXTURE_2D, 0, int32(x), int32(y), int32(b.Dx()), int32(b.Dy()), gl.RGBA, gl.UNSIGNED_BYTE, unpack(img))
		gl.PixelStorei(gl.UNPACK_ROW_LENGTH, 0)
		return glError("UpdateTexture")
	})
}

// ReleaseTexture implements [render2d.Renderer].
func (r *Renderer) ReleaseTexture(h render2d.TextureHandle) error {
	return r.res.ReleaseTexture(h, func(t *texture) {
		r.resourcesChanged()
		r.deleteTexture(t.id)
	})
}

func (r *Renderer) deleteTexture(id uint32) {
	if r.curTexture == id {
		r.curTexture = 0
	}
	gl.DeleteTextures(1, &id)
}

// TextureSize implements [render2d.Renderer].
func (r *Renderer) TextureSize(h render2d.TextureHandle) (int, int, error) {
	return r.res.TextureSize(h)
}

// MaxTextureSize implements [render2d.Renderer]: GL_MAX_TEXTURE_SIZE.
func (r *Renderer) MaxTextureSize() int { return r.res.MaxSize }

// CreateRenderTarget implements [render2d.Renderer] with a framebuffer
// object whose colour attachment is an RGBA8 texture.
func (r *Renderer) CreateRenderTarget(width, height int, opts render2d.TextureOptions) (render2d.TargetHandle, render2d.TextureHandle, error) {
	th, tex, err := r.res.CreateTarget(width, height, opts, func() (texture, target, error) {
		texID := newGLTexture(width, height, opts, nil)
		r.curTexture = texID
		var fbo uint32
		gl.GenFramebuffers(1, &fbo)
		gl.BindFramebuffer(gl.FRAMEBUFFER, fbo)
		gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texID, 0)
		status := gl.CheckFramebufferStatus(gl.FRAMEBUFFER)
		if status == gl.FRAMEBUFFER_COMPLETE {
			gl.Disable(gl.SCISSOR_TEST)
			gl.ClearColor(0, 0, 0, 0)
			gl.Clear(gl.COLOR_BUFFER_BIT)
		}
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		r.curFBO = 0
		r.resourcesChanged()
		err := glError("CreateRenderTarget")
		if status != gl.FRAMEBUFFER_COMPLETE {
			err = fmt.Errorf("glrender: CreateRenderTarget: %dx%d framebuffer incomplete (status 0x%x)", width, height, status)
		}
		if err != nil {
			gl.DeleteFramebuffers(1, &fbo)
			r.deleteTexture(texID)
			return texture{}, target{}, err
		}
		return texture{id: texID}, target{fbo: fbo}, nil
	})
	if err != nil || !r.warmed || r.targetsWarm {
		return th, tex, err
	}
	// The first target after WarmUp: a target's framebuffer has a format
	// of its own, so its first draws would compile their variants again.
	r.targetsWarm = true
	err = r.warmUp(render2d.MaterialHandle{}, th)
	r.res.EachMaterial(func(m render2d.MaterialHandle) {
		if err == nil {
			err = r.warmUp(m, th)
		}
	})
	if err != nil {
		r.targetsWarm = false
		_ = r.ReleaseRenderTarget(th)
		return render2d.TargetHandle{}, render2d.TextureHandle{}, fmt.Errorf("glrender: CreateRenderTarget: %w", err)
	}
	return th, tex, nil
}

// ReleaseRenderTarget implements [render2d.Renderer].
func (r *Renderer) ReleaseRenderTarget(h render2d.TargetHandle) error {
	return r.res.ReleaseTarget(h, func(t *target, tx *texture) {
		r.resourcesChanged()
		if r.curFBO == t.fbo {
			gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
			r.curFBO = 0
		}
		gl.DeleteFramebuffers(1, &t.fbo)
		r.deleteTexture(tx.id)
	})
}

// CreateMaterial implements [render2d.Renderer]: desc.Shade is compiled
// into a fragment shader; compile and link errors carry the driver's log.
func (r *Renderer) CreateMaterial(desc render2d.MaterialDesc) (render2d.MaterialHandle, error) {
	h, err := r.res.CreateMaterial(desc, func() (material, error) {
		p, err := linkPrograms(r.vs[vsParams], shadersrc.Params, desc.Shade, fmt.Sprintf("material %q", desc.Name))
		r.curProgram = 0
		r.resourcesChanged()
		if err != nil {
			return material{}, fmt.Errorf("glrender: CreateMaterial: %w", err)
		}
		return material{name: desc.Name, prog: p}, nil
	})
	if err != nil {
		return h, err
	}
	if !r.warmed {
		return h, nil
	}
	if err := r.warmMaterial(h); err != nil {
		_ = r.ReleaseMaterial(h)
		return render2d.MaterialHandle{}, fmt.Errorf("glrender: CreateMaterial %q: %w", desc.Name, err)
	}
	return h, nil
}

// ReleaseMaterial implements [render2d.Renderer].
func (r *Renderer) ReleaseMaterial(h render2d.MaterialHandle) error {
	return r.res.ReleaseMaterial(h, func(m *material) {
		r.curProgram = 0
		r.resourcesChanged()
		m.prog.delete()
	})
}

// SetFramebufferSize implements [render2d.Renderer].
func (r *Renderer) SetFramebufferSize(width, height int) {
	w, h := max(width, 0), max(height, 0)
	if w != r.fbW || h != r.fbH {
		r.resourcesChanged()
	}
	r.fbW, r.fbH = w, h
}

// ReadPixels implements [render2d.Renderer] with glReadPixels; rows of the
// default framebuffer are flipped so the result reads from the top.
func (r *Renderer) ReadPixels(th render2d.TargetHandle, rect image.Rectangle) (*image.RGBA, error) {
	t, _, err := r.res.ReadSource(th, rect, r.fbW, r.fbH)
	if err != nil {
		return nil, err
	}
	fbo := uint32(0)
	if t != nil {
		fbo = t.Val.fbo
	}
	gl.BindFramebuffer(gl.FRAMEBUFFER, fbo)
	r.curFBO = fbo
	gl.PixelStorei(gl.PACK_ALIGNMENT, 4)
	gl.PixelStorei(gl.PACK_ROW_LENGTH, 0)
	out := image.NewRGBA(image.Rect(0, 0, rect.Dx(), rect.Dy()))
	y := int32(rect.Min.Y)
	if fbo == 0 {
		gl.ReadBuffer(gl.BACK)
		y = int32(r.fbH - rect.Max.Y)
	}
	gl.ReadPixels(int32(rect.Min.X), y, int32(rect.Dx()), int32(rect.Dy()), gl.RGBA, gl.UNSIGNED_BYTE, unsafe.Pointer(&out.Pix[0]))
	if err := glError("ReadPixels"); err != nil {
		return nil, err
	}
	if fbo == 0 {
		row := make([]byte, out.Stride)
		for top, bot := 0, rect.Dy()-1; top < bot; top, bot = top+1, bot-1 {
			a := out.Pix[top*out.Stride : (top+1)*out.Stride]
			b := out.Pix[bot*out.Stride : (bot+1)*out.Stride]
			copy(row, a)
			copy(a, b)
			copy(b, row)
		}
	}
	return out, nil
}

// Close implements [render2d.Renderer]: it deletes every texture, target,
// material, buffer and program the renderer made. The context itself
// belongs to the platform.
func (r *Renderer) Close() error {
	if !r.res.Close(
		func(t *target) { gl.DeleteFramebuffers(1, &t.fbo) },
		func(t *texture) { gl.DeleteTextures(1, &t.id) },
		func(m *material) { m.prog.delete() },
	) {
		return nil
	}
	if r.white != 0 {
		gl.DeleteTextures(1, &r.white)
	}
	r.deleteBuiltins()
	r.deleteShapes()
	for i := range r.instance {
		gl.DeleteBuffers(1, &r.instance[i].id)
		gl.DeleteBuffers(1, &r.pfull[i].id)
	}
	gl.DeleteVertexArrays(int32(len(r.vao)), &r.vao[0])
	gl.DeleteVertexArrays(int32(len(r.bvao)), &r.bvao[0])
	gl.DeleteBuffers(1, &r.quads.id)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	gl.UseProgram(0)
	return glError("Close")
}

// viewMatrix maps world coordinates to clip space for a pass whose view is
// w x h view units (the viewport's pixels, or the camera's Size). flipY is set for offscreen targets, whose row 0 is the
// top of the image when sampled as a texture.
func viewMatrix(c render2d.Camera, w, h float32, flipY bool) mgl32.Mat4 {
	var proj mgl32.Mat4
	if flipY {
		proj = mgl32.Ortho2D(0, w, 0, h)
	} else {
		proj = mgl32.Ortho2D(0, w, h, 0)
	}
	z := c.EffectiveZoom()
	anchor := mgl32.Translate3D(c.Anchor.X*w, c.Anchor.Y*h, 0)
	// y points down, so a positive mathematical angle would turn the world
	// clockwise on screen; the camera rotates it the other way.
	rot := mgl32.HomogRotate3DZ(-c.Rotation)
	return proj.Mul4(anchor).Mul4(rot).Mul4(mgl32.Scale3D(z, z, 1)).Mul4(mgl32.Translate3D(-c.Position.X, -c.Position.Y, 0))
}
