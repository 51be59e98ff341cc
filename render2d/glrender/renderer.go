package glrender

import (
	"errors"
	"fmt"
	"image"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/internal/handles"
)

// Renderer is the OpenGL 4.1 core [render2d.Renderer]. It draws into the
// current context's default framebuffer and into offscreen targets it
// creates; it never presents (swapping buffers is the platform's job).
//
// Every method must be called on the thread where the context is current,
// with that context current.
type Renderer struct {
	vsPlain  uint32  // vertex shader without tint or parameters
	vsTint   uint32  // with tint
	vsParams uint32  // with tint and parameters: custom materials
	builtin  program // built-in material, tinted
	untinted program // built-in material for batches tinted opaque white
	vao      uint32
	instance [4]ringBuffer
	ring     int
	white    uint32

	textures  handles.Table[texture]
	targets   handles.Table[target]
	materials handles.Table[material]

	fbW, fbH int
	maxTex   int
	closed   bool

	batches []render2d.Batch
	inst    []instance
	white8  []bool // per batch: every packet tinted opaque white
	view    mgl32.Mat4

	// state cached across batches to skip redundant GL calls
	curProgram uint32
	curTexture uint32
	curBlend   int // -1 unknown
	curFBO     uint32
}

type ringBuffer struct {
	id  uint32
	cap int
}

type texture struct {
	id     uint32
	w, h   int
	target render2d.TargetHandle
}

type target struct {
	fbo uint32
	tex render2d.TextureHandle
}

type material struct {
	name string
	prog program
}

var _ render2d.Renderer = (*Renderer)(nil)

func (r *Renderer) compileBuiltins() error {
	var err error
	if r.vsPlain, err = compileShader(gl.VERTEX_SHADER, headerPlain+vertexSource, "untinted sprite vertex shader"); err != nil {
		return err
	}
	if r.vsTint, err = compileShader(gl.VERTEX_SHADER, headerTint+vertexSource, "sprite vertex shader"); err != nil {
		return err
	}
	if r.vsParams, err = compileShader(gl.VERTEX_SHADER, headerParams+vertexSource, "material vertex shader"); err != nil {
		return err
	}
	if r.builtin, err = linkProgram(r.vsTint, headerTint, builtinShade, "built-in sprite material"); err != nil {
		return err
	}
	if r.untinted, err = linkProgram(r.vsPlain, headerPlain, untintedShade, "built-in untinted sprite material"); err != nil {
		return err
	}
	return nil
}

func (r *Renderer) deleteBuiltins() {
	for _, p := range []*program{&r.builtin, &r.untinted} {
		if p.id != 0 {
			gl.DeleteProgram(p.id)
			p.id = 0
		}
	}
	for _, s := range []*uint32{&r.vsPlain, &r.vsTint, &r.vsParams} {
		if *s != 0 {
			gl.DeleteShader(*s)
			*s = 0
		}
	}
}

// New returns a renderer for the context current on the calling thread.
// It loads the GL entry points, checks for OpenGL 4.1 or later, and takes
// the initial framebuffer size from the current viewport (the window size
// for a fresh context); call SetFramebufferSize on resize.
func New() (*Renderer, error) {
	if err := gl.Init(); err != nil {
		return nil, fmt.Errorf("glrender: loading OpenGL entry points (is a 4.1 core context current?): %w", err)
	}
	var major, minor int32
	gl.GetIntegerv(gl.MAJOR_VERSION, &major)
	gl.GetIntegerv(gl.MINOR_VERSION, &minor)
	if major < 4 || (major == 4 && minor < 1) {
		return nil, fmt.Errorf("glrender: OpenGL %d.%d context, want 4.1 or later", major, minor)
	}
	r := &Renderer{curBlend: -1}
	if err := r.compileBuiltins(); err != nil {
		r.deleteBuiltins()
		return nil, fmt.Errorf("glrender: %w", err)
	}
	var mt int32
	gl.GetIntegerv(gl.MAX_TEXTURE_SIZE, &mt)
	r.maxTex = int(mt)
	var vp [4]int32
	gl.GetIntegerv(gl.VIEWPORT, &vp[0])
	r.fbW, r.fbH = int(vp[2]), int(vp[3])

	gl.GenVertexArrays(1, &r.vao)
	gl.BindVertexArray(r.vao)
	for i := range r.instance {
		gl.GenBuffers(1, &r.instance[i].id)
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, r.instance[0].id)
	for i := range attribs {
		gl.EnableVertexAttribArray(uint32(i))
		gl.VertexAttribDivisor(uint32(i), 1)
	}
	pointAttribs(0, len(attribs))
	r.white = newGLTexture(1, 1, render2d.TextureOptions{}, unsafe.Pointer(&[4]uint8{255, 255, 255, 255}))
	if err := glError("New"); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

func glError(op string) error {
	var errs []error
	for i := 0; i < 8; i++ {
		e := gl.GetError()
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

func (r *Renderer) check(op string) error {
	if r.closed {
		return fmt.Errorf("glrender: %s: %w", op, render2d.ErrClosed)
	}
	return nil
}

func (r *Renderer) checkSize(op string, w, h int) error {
	var errs []error
	if w < 1 || w > r.maxTex {
		errs = append(errs, fmt.Errorf("glrender: %s: width is %d, want 1 to %d", op, w, r.maxTex))
	}
	if h < 1 || h > r.maxTex {
		errs = append(errs, fmt.Errorf("glrender: %s: height is %d, want 1 to %d", op, h, r.maxTex))
	}
	return errors.Join(errs...)
}

// HasTexture implements [render2d.Resources].
func (r *Renderer) HasTexture(h render2d.TextureHandle) bool {
	return r.textures.Get(h.ID, h.Gen) != nil
}

// HasMaterial implements [render2d.Resources].
func (r *Renderer) HasMaterial(h render2d.MaterialHandle) bool {
	return r.materials.Get(h.ID, h.Gen) != nil
}

// TargetTexture implements [render2d.Resources].
func (r *Renderer) TargetTexture(h render2d.TargetHandle) (render2d.TextureHandle, bool) {
	t := r.targets.Get(h.ID, h.Gen)
	if t == nil {
		return render2d.TextureHandle{}, false
	}
	return t.tex, true
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
	if err := r.check("CreateTexture"); err != nil {
		return render2d.TextureHandle{}, err
	}
	if img == nil {
		return render2d.TextureHandle{}, errors.New("glrender: CreateTexture: image is nil")
	}
	b := img.Bounds()
	if err := errors.Join(r.checkSize("CreateTexture", b.Dx(), b.Dy()), opts.Validate()); err != nil {
		return render2d.TextureHandle{}, err
	}
	id := newGLTexture(b.Dx(), b.Dy(), opts, unpack(img))
	gl.PixelStorei(gl.UNPACK_ROW_LENGTH, 0)
	r.curTexture = id
	if err := glError("CreateTexture"); err != nil {
		gl.DeleteTextures(1, &id)
		return render2d.TextureHandle{}, err
	}
	hid, gen := r.textures.Add(texture{id: id, w: b.Dx(), h: b.Dy()})
	return render2d.TextureHandle{ID: hid, Gen: gen}, nil
}

// UpdateTexture implements [render2d.Renderer].
func (r *Renderer) UpdateTexture(h render2d.TextureHandle, x, y int, img *image.RGBA) error {
	if err := r.check("UpdateTexture"); err != nil {
		return err
	}
	t := r.textures.Get(h.ID, h.Gen)
	if t == nil {
		return fmt.Errorf("glrender: UpdateTexture: %w: %v", render2d.ErrStaleHandle, h)
	}
	if img == nil {
		return errors.New("glrender: UpdateTexture: image is nil")
	}
	b := img.Bounds()
	dst := image.Rect(x, y, x+b.Dx(), y+b.Dy())
	if b.Empty() || x < 0 || y < 0 || !dst.In(image.Rect(0, 0, t.w, t.h)) {
		return fmt.Errorf("glrender: UpdateTexture: region %v is outside the %dx%d texture (or empty)", dst, t.w, t.h)
	}
	gl.BindTexture(gl.TEXTURE_2D, t.id)
	r.curTexture = t.id
	gl.TexSubImage2D(gl.TEXTURE_2D, 0, int32(x), int32(y), int32(b.Dx()), int32(b.Dy()), gl.RGBA, gl.UNSIGNED_BYTE, unpack(img))
	gl.PixelStorei(gl.UNPACK_ROW_LENGTH, 0)
	return glError("UpdateTexture")
}

// ReleaseTexture implements [render2d.Renderer].
func (r *Renderer) ReleaseTexture(h render2d.TextureHandle) error {
	if err := r.check("ReleaseTexture"); err != nil {
		return err
	}
	t := r.textures.Get(h.ID, h.Gen)
	if t == nil {
		return fmt.Errorf("glrender: ReleaseTexture: %w: %v", render2d.ErrStaleHandle, h)
	}
	if !t.target.IsZero() {
		return fmt.Errorf("glrender: ReleaseTexture: %v belongs to %v; release the target instead", h, t.target)
	}
	r.deleteTexture(t.id)
	r.textures.Remove(h.ID, h.Gen)
	return nil
}

func (r *Renderer) deleteTexture(id uint32) {
	if r.curTexture == id {
		r.curTexture = 0
	}
	gl.DeleteTextures(1, &id)
}

// TextureSize implements [render2d.Renderer].
func (r *Renderer) TextureSize(h render2d.TextureHandle) (int, int, error) {
	if err := r.check("TextureSize"); err != nil {
		return 0, 0, err
	}
	t := r.textures.Get(h.ID, h.Gen)
	if t == nil {
		return 0, 0, fmt.Errorf("glrender: TextureSize: %w: %v", render2d.ErrStaleHandle, h)
	}
	return t.w, t.h, nil
}

// MaxTextureSize implements [render2d.Renderer]: GL_MAX_TEXTURE_SIZE.
func (r *Renderer) MaxTextureSize() int { return r.maxTex }

// CreateRenderTarget implements [render2d.Renderer] with a framebuffer
// object whose colour attachment is an RGBA8 texture.
func (r *Renderer) CreateRenderTarget(width, height int, opts render2d.TextureOptions) (render2d.TargetHandle, render2d.TextureHandle, error) {
	if err := r.check("CreateRenderTarget"); err != nil {
		return render2d.TargetHandle{}, render2d.TextureHandle{}, err
	}
	if err := errors.Join(r.checkSize("CreateRenderTarget", width, height), opts.Validate()); err != nil {
		return render2d.TargetHandle{}, render2d.TextureHandle{}, err
	}
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
	if status != gl.FRAMEBUFFER_COMPLETE {
		gl.DeleteFramebuffers(1, &fbo)
		r.deleteTexture(texID)
		return render2d.TargetHandle{}, render2d.TextureHandle{}, fmt.Errorf("glrender: CreateRenderTarget: %dx%d framebuffer incomplete (status 0x%x)", width, height, status)
	}
	if err := glError("CreateRenderTarget"); err != nil {
		gl.DeleteFramebuffers(1, &fbo)
		r.deleteTexture(texID)
		return render2d.TargetHandle{}, render2d.TextureHandle{}, err
	}
	tid, tgen := r.textures.Add(texture{id: texID, w: width, h: height})
	tex := render2d.TextureHandle{ID: tid, Gen: tgen}
	id, gen := r.targets.Add(target{fbo: fbo, tex: tex})
	th := render2d.TargetHandle{ID: id, Gen: gen}
	r.textures.Get(tid, tgen).target = th
	return th, tex, nil
}

// ReleaseRenderTarget implements [render2d.Renderer].
func (r *Renderer) ReleaseRenderTarget(h render2d.TargetHandle) error {
	if err := r.check("ReleaseRenderTarget"); err != nil {
		return err
	}
	t, ok := r.targets.Remove(h.ID, h.Gen)
	if !ok {
		return fmt.Errorf("glrender: ReleaseRenderTarget: %w: %v", render2d.ErrStaleHandle, h)
	}
	if r.curFBO == t.fbo {
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		r.curFBO = 0
	}
	gl.DeleteFramebuffers(1, &t.fbo)
	if tx, ok := r.textures.Remove(t.tex.ID, t.tex.Gen); ok {
		r.deleteTexture(tx.id)
	}
	return nil
}

// CreateMaterial implements [render2d.Renderer]: desc.Shade is compiled
// into a fragment shader; compile and link errors carry the driver's log.
func (r *Renderer) CreateMaterial(desc render2d.MaterialDesc) (render2d.MaterialHandle, error) {
	if err := r.check("CreateMaterial"); err != nil {
		return render2d.MaterialHandle{}, err
	}
	if err := desc.Validate(); err != nil {
		return render2d.MaterialHandle{}, err
	}
	p, err := linkProgram(r.vsParams, headerParams, desc.Shade, fmt.Sprintf("material %q", desc.Name))
	r.curProgram = 0
	if err != nil {
		return render2d.MaterialHandle{}, fmt.Errorf("glrender: CreateMaterial: %w", err)
	}
	id, gen := r.materials.Add(material{name: desc.Name, prog: p})
	return render2d.MaterialHandle{ID: id, Gen: gen}, nil
}

// ReleaseMaterial implements [render2d.Renderer].
func (r *Renderer) ReleaseMaterial(h render2d.MaterialHandle) error {
	if err := r.check("ReleaseMaterial"); err != nil {
		return err
	}
	m, ok := r.materials.Remove(h.ID, h.Gen)
	if !ok {
		return fmt.Errorf("glrender: ReleaseMaterial: %w: %v", render2d.ErrStaleHandle, h)
	}
	if r.curProgram == m.prog.id {
		r.curProgram = 0
	}
	gl.DeleteProgram(m.prog.id)
	return nil
}

// SetFramebufferSize implements [render2d.Renderer].
func (r *Renderer) SetFramebufferSize(width, height int) {
	r.fbW, r.fbH = max(width, 0), max(height, 0)
}

// ReadPixels implements [render2d.Renderer] with glReadPixels; rows of the
// default framebuffer are flipped so the result reads from the top.
func (r *Renderer) ReadPixels(th render2d.TargetHandle, rect image.Rectangle) (*image.RGBA, error) {
	if err := r.check("ReadPixels"); err != nil {
		return nil, err
	}
	fbo, w, h := uint32(0), r.fbW, r.fbH
	if !th.IsZero() {
		t := r.targets.Get(th.ID, th.Gen)
		if t == nil {
			return nil, fmt.Errorf("glrender: ReadPixels: %w: %v", render2d.ErrStaleHandle, th)
		}
		tx := r.textures.Get(t.tex.ID, t.tex.Gen)
		fbo, w, h = t.fbo, tx.w, tx.h
	}
	if rect.Empty() || !rect.In(image.Rect(0, 0, w, h)) {
		return nil, fmt.Errorf("glrender: ReadPixels: rectangle %v is empty or outside the %dx%d target", rect, w, h)
	}
	gl.BindFramebuffer(gl.FRAMEBUFFER, fbo)
	r.curFBO = fbo
	gl.PixelStorei(gl.PACK_ALIGNMENT, 4)
	gl.PixelStorei(gl.PACK_ROW_LENGTH, 0)
	out := image.NewRGBA(image.Rect(0, 0, rect.Dx(), rect.Dy()))
	y := int32(rect.Min.Y)
	if fbo == 0 {
		gl.ReadBuffer(gl.BACK)
		y = int32(h - rect.Max.Y)
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
	if r.closed {
		return nil
	}
	r.closed = true
	r.targets.Each(func(_, _ uint32, t *target) { gl.DeleteFramebuffers(1, &t.fbo) })
	r.textures.Each(func(_, _ uint32, t *texture) { gl.DeleteTextures(1, &t.id) })
	r.materials.Each(func(_, _ uint32, m *material) { gl.DeleteProgram(m.prog.id) })
	r.targets, r.textures, r.materials = handles.Table[target]{}, handles.Table[texture]{}, handles.Table[material]{}
	if r.white != 0 {
		gl.DeleteTextures(1, &r.white)
	}
	r.deleteBuiltins()
	for i := range r.instance {
		gl.DeleteBuffers(1, &r.instance[i].id)
	}
	gl.DeleteVertexArrays(1, &r.vao)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	gl.UseProgram(0)
	return glError("Close")
}

// viewMatrix maps world coordinates to clip space for a pass drawing into a
// w x h viewport. flipY is set for offscreen targets, whose row 0 is the
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
