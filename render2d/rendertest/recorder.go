package rendertest

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"slices"

	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/internal/handles"
)

// Recorder is a [render2d.Renderer] that keeps what it is given instead of
// drawing it: textures (with their texels), targets, materials and a copy of
// every rendered frame. It applies pass clears to its targets so
// [Recorder.ReadPixels] shows them, but it does not rasterise packets.
// It is for tests of code that produces frames or manages resources, in
// packages that must not depend on a GPU.
//
// Like every renderer it is meant for one goroutine.
type Recorder struct {
	// Frames holds a deep copy of each frame passed to Render that was
	// valid, in order.
	Frames []render2d.Frame

	maxSize   int
	fbW, fbH  int
	fb        *image.RGBA
	textures  handles.Table[recTexture]
	targets   handles.Table[recTarget]
	materials handles.Table[render2d.MaterialDesc]
	closed    bool
}

type recTexture struct {
	img    *image.RGBA
	opts   render2d.TextureOptions
	target render2d.TargetHandle // non-zero for a target's texture
}

type recTarget struct {
	tex render2d.TextureHandle
}

// NewRecorder returns a recorder whose default framebuffer is width x
// height pixels and whose textures may be up to maxTextureSize texels on a
// side.
func NewRecorder(width, height, maxTextureSize int) *Recorder {
	r := &Recorder{maxSize: maxTextureSize}
	r.SetFramebufferSize(width, height)
	return r
}

var _ render2d.Renderer = (*Recorder)(nil)

// HasTexture implements [render2d.Resources].
func (r *Recorder) HasTexture(h render2d.TextureHandle) bool {
	return r.textures.Get(h.ID, h.Gen) != nil
}

// HasMaterial implements [render2d.Resources].
func (r *Recorder) HasMaterial(h render2d.MaterialHandle) bool {
	return r.materials.Get(h.ID, h.Gen) != nil
}

// TargetTexture implements [render2d.Resources].
func (r *Recorder) TargetTexture(h render2d.TargetHandle) (render2d.TextureHandle, bool) {
	t := r.targets.Get(h.ID, h.Gen)
	if t == nil {
		return render2d.TextureHandle{}, false
	}
	return t.tex, true
}

// Textures returns the number of live textures, render target textures
// included.
func (r *Recorder) Textures() int { return r.textures.Len() }

// Texels returns a copy of a texture's current texels.
func (r *Recorder) Texels(h render2d.TextureHandle) (*image.RGBA, error) {
	t := r.textures.Get(h.ID, h.Gen)
	if t == nil {
		return nil, fmt.Errorf("rendertest: Texels: %w: %v", render2d.ErrStaleHandle, h)
	}
	out := image.NewRGBA(t.img.Bounds())
	copy(out.Pix, t.img.Pix)
	return out, nil
}

func (r *Recorder) check(op string) error {
	if r.closed {
		return fmt.Errorf("rendertest: %s: %w", op, render2d.ErrClosed)
	}
	return nil
}

func (r *Recorder) checkSize(op string, w, h int) error {
	var errs []error
	if w < 1 || w > r.maxSize {
		errs = append(errs, fmt.Errorf("rendertest: %s: width is %d, want 1 to %d", op, w, r.maxSize))
	}
	if h < 1 || h > r.maxSize {
		errs = append(errs, fmt.Errorf("rendertest: %s: height is %d, want 1 to %d", op, h, r.maxSize))
	}
	return errors.Join(errs...)
}

// CreateTexture implements [render2d.Renderer].
func (r *Recorder) CreateTexture(img *image.RGBA, opts render2d.TextureOptions) (render2d.TextureHandle, error) {
	if err := r.check("CreateTexture"); err != nil {
		return render2d.TextureHandle{}, err
	}
	if img == nil {
		return render2d.TextureHandle{}, errors.New("rendertest: CreateTexture: image is nil")
	}
	b := img.Bounds()
	if err := errors.Join(r.checkSize("CreateTexture", b.Dx(), b.Dy()), opts.Validate()); err != nil {
		return render2d.TextureHandle{}, err
	}
	cp := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(cp, cp.Bounds(), img, b.Min, draw.Src)
	id, gen := r.textures.Add(recTexture{img: cp, opts: opts})
	return render2d.TextureHandle{ID: id, Gen: gen}, nil
}

// UpdateTexture implements [render2d.Renderer].
func (r *Recorder) UpdateTexture(h render2d.TextureHandle, x, y int, img *image.RGBA) error {
	if err := r.check("UpdateTexture"); err != nil {
		return err
	}
	t := r.textures.Get(h.ID, h.Gen)
	if t == nil {
		return fmt.Errorf("rendertest: UpdateTexture: %w: %v", render2d.ErrStaleHandle, h)
	}
	if img == nil {
		return errors.New("rendertest: UpdateTexture: image is nil")
	}
	if err := checkRegion("UpdateTexture", t.img.Bounds(), x, y, img.Bounds()); err != nil {
		return err
	}
	b := img.Bounds()
	draw.Draw(t.img, image.Rect(x, y, x+b.Dx(), y+b.Dy()), img, b.Min, draw.Src)
	return nil
}

// checkRegion is the update bounds rule shared with the GL renderer's
// messages: the whole rectangle must fit inside the texture.
func checkRegion(op string, tex image.Rectangle, x, y int, src image.Rectangle) error {
	dst := image.Rect(x, y, x+src.Dx(), y+src.Dy())
	if src.Empty() || x < 0 || y < 0 || !dst.In(tex) {
		return fmt.Errorf("rendertest: %s: region %v is outside the %dx%d texture (or empty)", op, dst, tex.Dx(), tex.Dy())
	}
	return nil
}

// ReleaseTexture implements [render2d.Renderer].
func (r *Recorder) ReleaseTexture(h render2d.TextureHandle) error {
	if err := r.check("ReleaseTexture"); err != nil {
		return err
	}
	t := r.textures.Get(h.ID, h.Gen)
	if t == nil {
		return fmt.Errorf("rendertest: ReleaseTexture: %w: %v", render2d.ErrStaleHandle, h)
	}
	if !t.target.IsZero() {
		return fmt.Errorf("rendertest: ReleaseTexture: %v belongs to %v; release the target instead", h, t.target)
	}
	r.textures.Remove(h.ID, h.Gen)
	return nil
}

// TextureSize implements [render2d.Renderer].
func (r *Recorder) TextureSize(h render2d.TextureHandle) (int, int, error) {
	if err := r.check("TextureSize"); err != nil {
		return 0, 0, err
	}
	t := r.textures.Get(h.ID, h.Gen)
	if t == nil {
		return 0, 0, fmt.Errorf("rendertest: TextureSize: %w: %v", render2d.ErrStaleHandle, h)
	}
	return t.img.Bounds().Dx(), t.img.Bounds().Dy(), nil
}

// MaxTextureSize implements [render2d.Renderer].
func (r *Recorder) MaxTextureSize() int { return r.maxSize }

// CreateRenderTarget implements [render2d.Renderer].
func (r *Recorder) CreateRenderTarget(width, height int, opts render2d.TextureOptions) (render2d.TargetHandle, render2d.TextureHandle, error) {
	if err := r.check("CreateRenderTarget"); err != nil {
		return render2d.TargetHandle{}, render2d.TextureHandle{}, err
	}
	if err := errors.Join(r.checkSize("CreateRenderTarget", width, height), opts.Validate()); err != nil {
		return render2d.TargetHandle{}, render2d.TextureHandle{}, err
	}
	tid, tgen := r.textures.Add(recTexture{img: image.NewRGBA(image.Rect(0, 0, width, height)), opts: opts})
	tex := render2d.TextureHandle{ID: tid, Gen: tgen}
	id, gen := r.targets.Add(recTarget{tex: tex})
	target := render2d.TargetHandle{ID: id, Gen: gen}
	r.textures.Get(tid, tgen).target = target
	return target, tex, nil
}

// ReleaseRenderTarget implements [render2d.Renderer].
func (r *Recorder) ReleaseRenderTarget(h render2d.TargetHandle) error {
	if err := r.check("ReleaseRenderTarget"); err != nil {
		return err
	}
	t, ok := r.targets.Remove(h.ID, h.Gen)
	if !ok {
		return fmt.Errorf("rendertest: ReleaseRenderTarget: %w: %v", render2d.ErrStaleHandle, h)
	}
	r.textures.Remove(t.tex.ID, t.tex.Gen)
	return nil
}

// CreateMaterial implements [render2d.Renderer]. The shader is kept, not
// compiled.
func (r *Recorder) CreateMaterial(desc render2d.MaterialDesc) (render2d.MaterialHandle, error) {
	if err := r.check("CreateMaterial"); err != nil {
		return render2d.MaterialHandle{}, err
	}
	if err := desc.Validate(); err != nil {
		return render2d.MaterialHandle{}, err
	}
	id, gen := r.materials.Add(desc)
	return render2d.MaterialHandle{ID: id, Gen: gen}, nil
}

// ReleaseMaterial implements [render2d.Renderer].
func (r *Recorder) ReleaseMaterial(h render2d.MaterialHandle) error {
	if err := r.check("ReleaseMaterial"); err != nil {
		return err
	}
	if _, ok := r.materials.Remove(h.ID, h.Gen); !ok {
		return fmt.Errorf("rendertest: ReleaseMaterial: %w: %v", render2d.ErrStaleHandle, h)
	}
	return nil
}

// SetFramebufferSize implements [render2d.Renderer]; the recorded
// framebuffer is cleared to transparent black.
func (r *Recorder) SetFramebufferSize(width, height int) {
	r.fbW, r.fbH = max(width, 0), max(height, 0)
	r.fb = image.NewRGBA(image.Rect(0, 0, r.fbW, r.fbH))
}

// Render implements [render2d.Renderer]: it validates f, applies its
// clears and appends a deep copy to Frames.
func (r *Recorder) Render(f *render2d.Frame) error {
	if err := r.check("Render"); err != nil {
		return err
	}
	if err := render2d.ValidateFrame(f, r); err != nil {
		return err
	}
	cp := render2d.Frame{Sequence: f.Sequence, Passes: make([]render2d.Pass, len(f.Passes))}
	for i, p := range f.Passes {
		cp.Passes[i] = render2d.Pass{PassDesc: p.PassDesc, Packets: slices.Clone(p.Packets)}
		if p.Clear {
			img := r.fb
			if !p.Target.IsZero() {
				tt := r.targets.Get(p.Target.ID, p.Target.Gen)
				img = r.textures.Get(tt.tex.ID, tt.tex.Gen).img
			}
			draw.Draw(img, viewportRect(p.Camera.Viewport, img.Bounds()), image.NewUniform(premultiplied(p.ClearColor)), image.Point{}, draw.Src)
		}
	}
	r.Frames = append(r.Frames, cp)
	return nil
}

func viewportRect(v render2d.Rect, b image.Rectangle) image.Rectangle {
	if v.W == 0 || v.H == 0 {
		return b
	}
	return image.Rect(int(v.X), int(v.Y), int(v.X+v.W), int(v.Y+v.H)).Intersect(b)
}

func premultiplied(c render2d.Color) color.RGBA {
	q := func(v float32) uint8 { return uint8(min(max(v, 0), 1)*255 + 0.5) }
	a := min(max(c.A, 0), 1)
	return color.RGBA{q(c.R * a), q(c.G * a), q(c.B * a), q(a)}
}

// ReadPixels implements [render2d.Renderer]. Only clears are visible.
func (r *Recorder) ReadPixels(target render2d.TargetHandle, rect image.Rectangle) (*image.RGBA, error) {
	if err := r.check("ReadPixels"); err != nil {
		return nil, err
	}
	img := r.fb
	if !target.IsZero() {
		tt := r.targets.Get(target.ID, target.Gen)
		if tt == nil {
			return nil, fmt.Errorf("rendertest: ReadPixels: %w: %v", render2d.ErrStaleHandle, target)
		}
		img = r.textures.Get(tt.tex.ID, tt.tex.Gen).img
	}
	if rect.Empty() || !rect.In(img.Bounds()) {
		return nil, fmt.Errorf("rendertest: ReadPixels: rectangle %v is empty or outside the %dx%d target", rect, img.Bounds().Dx(), img.Bounds().Dy())
	}
	out := image.NewRGBA(image.Rect(0, 0, rect.Dx(), rect.Dy()))
	draw.Draw(out, out.Bounds(), img, rect.Min, draw.Src)
	return out, nil
}

// Close implements [render2d.Renderer].
func (r *Recorder) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	r.textures = handles.Table[recTexture]{}
	r.targets = handles.Table[recTarget]{}
	r.materials = handles.Table[render2d.MaterialDesc]{}
	r.Frames = nil
	return nil
}
