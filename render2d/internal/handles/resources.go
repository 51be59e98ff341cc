package handles

import (
	"errors"
	"fmt"
	"image"

	"github.com/metronome-go/metronome/render2d"
)

// Resources is the handle bookkeeping every renderer shares: the three
// generation-checked tables of textures, render targets and materials, the
// checks on their arguments and the error messages, so that the GL renderer
// and the recording renderer refuse exactly the same calls with the same
// words. A renderer keeps its own GPU (or in-memory) data in the type
// parameters: T per texture, G per target, M per material.
//
// Every error starts with Prefix (the renderer's package name) and the
// operation.
type Resources[T, G, M any] struct {
	// Prefix names the renderer in error messages, such as "glrender".
	Prefix string
	// MaxSize is the largest texture or target width and height.
	MaxSize int

	textures  Table[Texture[T]]
	targets   Table[Target[G]]
	materials Table[M]
	closed    bool
}

// Texture is one texture's entry: its size, the target it belongs to (zero
// for an ordinary texture) and the renderer's data.
type Texture[T any] struct {
	W, H   int
	Target render2d.TargetHandle
	Val    T
}

// Target is one render target's entry: the texture holding its pixels and
// the renderer's data.
type Target[G any] struct {
	Tex render2d.TextureHandle
	Val G
}

// Check reports ErrClosed once [Resources.Close] has run.
func (r *Resources[T, G, M]) Check(op string) error {
	if r.closed {
		return fmt.Errorf("%s: %s: %w", r.Prefix, op, render2d.ErrClosed)
	}
	return nil
}

// Closed reports whether [Resources.Close] has run.
func (r *Resources[T, G, M]) Closed() bool { return r.closed }

// checkSize reports a width or height outside [1, MaxSize], both at once.
func (r *Resources[T, G, M]) checkSize(op string, w, h int) error {
	var errs []error
	if w < 1 || w > r.MaxSize {
		errs = append(errs, fmt.Errorf("%s: %s: width is %d, want 1 to %d", r.Prefix, op, w, r.MaxSize))
	}
	if h < 1 || h > r.MaxSize {
		errs = append(errs, fmt.Errorf("%s: %s: height is %d, want 1 to %d", r.Prefix, op, h, r.MaxSize))
	}
	return errors.Join(errs...)
}

// CheckCreate is the whole argument check of CreateTexture: the renderer
// is open, img is not nil, its size is in range and opts are valid.
func (r *Resources[T, G, M]) checkCreate(img *image.RGBA, opts render2d.TextureOptions) error {
	const op = "CreateTexture"
	if err := r.Check(op); err != nil {
		return err
	}
	if img == nil {
		return fmt.Errorf("%s: %s: image is nil", r.Prefix, op)
	}
	b := img.Bounds()
	var short error
	if n := len(img.Pix); n > 0 && !b.Empty() && n < img.PixOffset(b.Max.X-1, b.Max.Y-1)+4 {
		short = fmt.Errorf("%s: %s: image has %d bytes of pixels, too few for its %v bounds with stride %d", r.Prefix, op, n, b, img.Stride)
	}
	return errors.Join(r.checkSize(op, b.Dx(), b.Dy()), short, opts.Validate())
}

// checkCreateTarget is the whole argument check of CreateRenderTarget.
func (r *Resources[T, G, M]) checkCreateTarget(w, h int, opts render2d.TextureOptions) error {
	const op = "CreateRenderTarget"
	if err := r.Check(op); err != nil {
		return err
	}
	return errors.Join(r.checkSize(op, w, h), opts.Validate())
}

// stale is the error for a handle that names nothing live.
func (r *Resources[T, G, M]) stale(op string, h fmt.Stringer) error {
	return fmt.Errorf("%s: %s: %w: %v", r.Prefix, op, render2d.ErrStaleHandle, h)
}

// HasTexture implements [render2d.Resources].
func (r *Resources[T, G, M]) HasTexture(h render2d.TextureHandle) bool {
	return r.textures.Get(h.ID, h.Gen) != nil
}

// HasMaterial implements [render2d.Resources].
func (r *Resources[T, G, M]) HasMaterial(h render2d.MaterialHandle) bool {
	return r.materials.Get(h.ID, h.Gen) != nil
}

// EachMaterial calls fn with every live material's handle.
func (r *Resources[T, G, M]) EachMaterial(fn func(render2d.MaterialHandle)) {
	r.materials.Each(func(id, gen uint32, _ *M) { fn(render2d.MaterialHandle{ID: id, Gen: gen}) })
}

// TargetTexture implements [render2d.Resources].
func (r *Resources[T, G, M]) TargetTexture(h render2d.TargetHandle) (render2d.TextureHandle, bool) {
	t := r.targets.Get(h.ID, h.Gen)
	if t == nil {
		return render2d.TextureHandle{}, false
	}
	return t.Tex, true
}

// Texture returns the live texture h, or an error wrapping ErrStaleHandle
// (or ErrClosed).
func (r *Resources[T, G, M]) Texture(op string, h render2d.TextureHandle) (*Texture[T], error) {
	if err := r.Check(op); err != nil {
		return nil, err
	}
	t := r.textures.Get(h.ID, h.Gen)
	if t == nil {
		return nil, r.stale(op, h)
	}
	return t, nil
}

// MustTexture returns the texture of a handle that has been validated
// (by [render2d.ValidateFrame]); it panics on a stale one.
func (r *Resources[T, G, M]) MustTexture(h render2d.TextureHandle) *Texture[T] {
	t := r.textures.Get(h.ID, h.Gen)
	if t == nil {
		panic(fmt.Sprintf("%s: %v used after validation found it live", r.Prefix, h))
	}
	return t
}

// MustTarget is [Resources.MustTexture] for a validated target: it returns
// the target and its texture.
func (r *Resources[T, G, M]) MustTarget(h render2d.TargetHandle) (*Target[G], *Texture[T]) {
	t := r.targets.Get(h.ID, h.Gen)
	if t == nil {
		panic(fmt.Sprintf("%s: %v used after validation found it live", r.Prefix, h))
	}
	return t, r.MustTexture(t.Tex)
}

// MustMaterial is [Resources.MustTexture] for a validated material.
func (r *Resources[T, G, M]) MustMaterial(h render2d.MaterialHandle) *M {
	m := r.materials.Get(h.ID, h.Gen)
	if m == nil {
		panic(fmt.Sprintf("%s: %v used after validation found it live", r.Prefix, h))
	}
	return m
}

// checkUpdate is the whole argument check of UpdateTexture: h is live, img
// is not nil and not empty, and the rectangle of img's size at (x, y) lies
// inside the texture. It returns the texture to update.
func (r *Resources[T, G, M]) checkUpdate(h render2d.TextureHandle, x, y int, img *image.RGBA) (*Texture[T], error) {
	const op = "UpdateTexture"
	t, err := r.Texture(op, h)
	if err != nil {
		return nil, err
	}
	if img == nil {
		return nil, fmt.Errorf("%s: %s: image is nil", r.Prefix, op)
	}
	b := img.Bounds()
	dst := image.Rect(x, y, x+b.Dx(), y+b.Dy())
	if b.Empty() || x < 0 || y < 0 || !dst.In(image.Rect(0, 0, t.W, t.H)) {
		return nil, fmt.Errorf("%s: %s: region %v is outside the %dx%d texture (or empty)", r.Prefix, op, dst, t.W, t.H)
	}
	return t, nil
}

// TextureSize implements the size query of [render2d.Renderer].
func (r *Resources[T, G, M]) TextureSize(h render2d.TextureHandle) (int, int, error) {
	t, err := r.Texture("TextureSize", h)
	if err != nil {
		return 0, 0, err
	}
	return t.W, t.H, nil
}

// CreateTexture checks the arguments of [render2d.Renderer.CreateTexture],
// calls upload to make the renderer's copy of img, and records it.
func (r *Resources[T, G, M]) CreateTexture(img *image.RGBA, opts render2d.TextureOptions, upload func() (T, error)) (render2d.TextureHandle, error) {
	if err := r.checkCreate(img, opts); err != nil {
		return render2d.TextureHandle{}, err
	}
	v, err := upload()
	if err != nil {
		return render2d.TextureHandle{}, err
	}
	b := img.Bounds()
	return r.addTexture(b.Dx(), b.Dy(), v), nil
}

func (r *Resources[T, G, M]) addTexture(w, h int, v T) render2d.TextureHandle {
	id, gen := r.textures.Add(Texture[T]{W: w, H: h, Val: v})
	return render2d.TextureHandle{ID: id, Gen: gen}
}

// UpdateTexture checks the arguments of [render2d.Renderer.UpdateTexture]
// (see checkUpdate) and then calls write with the texture.
func (r *Resources[T, G, M]) UpdateTexture(h render2d.TextureHandle, x, y int, img *image.RGBA, write func(*Texture[T]) error) error {
	t, err := r.checkUpdate(h, x, y, img)
	if err != nil {
		return err
	}
	return write(t)
}

// ReleaseTexture forgets a texture, after calling free with its data. The
// texture must be live and must not belong to a render target.
func (r *Resources[T, G, M]) ReleaseTexture(h render2d.TextureHandle, free func(*T)) error {
	t, err := r.checkRelease(h)
	if err != nil {
		return err
	}
	free(&t.Val)
	r.textures.Remove(h.ID, h.Gen)
	return nil
}

// checkRelease returns the texture ReleaseTexture may free: it must be
// live and must not belong to a render target.
func (r *Resources[T, G, M]) checkRelease(h render2d.TextureHandle) (*Texture[T], error) {
	const op = "ReleaseTexture"
	t, err := r.Texture(op, h)
	if err != nil {
		return nil, err
	}
	if !t.Target.IsZero() {
		return nil, fmt.Errorf("%s: %s: %v belongs to %v; release the target instead", r.Prefix, op, h, t.Target)
	}
	return t, nil
}

// CreateTarget checks the arguments of
// [render2d.Renderer.CreateRenderTarget], calls make for the renderer's
// texture and target data, and records a w x h target whose pixels are in
// that texture, returning both handles.
func (r *Resources[T, G, M]) CreateTarget(w, h int, opts render2d.TextureOptions, make func() (T, G, error)) (render2d.TargetHandle, render2d.TextureHandle, error) {
	if err := r.checkCreateTarget(w, h, opts); err != nil {
		return render2d.TargetHandle{}, render2d.TextureHandle{}, err
	}
	tex, target, err := make()
	if err != nil {
		return render2d.TargetHandle{}, render2d.TextureHandle{}, err
	}
	th := r.addTexture(w, h, tex)
	id, gen := r.targets.Add(Target[G]{Tex: th, Val: target})
	h2 := render2d.TargetHandle{ID: id, Gen: gen}
	r.textures.Get(th.ID, th.Gen).Target = h2
	return h2, th, nil
}

// ReleaseTarget forgets a live target and its texture after calling free
// with their data (free may be nil).
func (r *Resources[T, G, M]) ReleaseTarget(h render2d.TargetHandle, free func(*G, *T)) error {
	t, err := take(r.Check, r.stale, &r.targets, "ReleaseRenderTarget", h.ID, h.Gen, h)
	if err != nil {
		return err
	}
	tex, _ := r.textures.Remove(t.Tex.ID, t.Tex.Gen)
	if free != nil {
		free(&t.Val, &tex.Val)
	}
	return nil
}

// take removes (id, gen) from tab for op, after check (ErrClosed); a pair
// that is not live is reported by stale.
func take[V any](check func(string) error, stale func(string, fmt.Stringer) error, tab *Table[V], op string, id, gen uint32, h fmt.Stringer) (V, error) {
	var zero V
	if err := check(op); err != nil {
		return zero, err
	}
	v, ok := tab.Remove(id, gen)
	if !ok {
		return zero, stale(op, h)
	}
	return v, nil
}

// CreateMaterial checks desc, calls build for the renderer's material
// (compiling it, say) and records it.
func (r *Resources[T, G, M]) CreateMaterial(desc render2d.MaterialDesc, build func() (M, error)) (render2d.MaterialHandle, error) {
	if err := r.Check("CreateMaterial"); err != nil {
		return render2d.MaterialHandle{}, err
	}
	if err := desc.Validate(); err != nil {
		return render2d.MaterialHandle{}, err
	}
	m, err := build()
	if err != nil {
		return render2d.MaterialHandle{}, err
	}
	id, gen := r.materials.Add(m)
	return render2d.MaterialHandle{ID: id, Gen: gen}, nil
}

// ReleaseMaterial forgets a live material after calling free with its
// data (free may be nil).
func (r *Resources[T, G, M]) ReleaseMaterial(h render2d.MaterialHandle, free func(*M)) error {
	m, err := take(r.Check, r.stale, &r.materials, "ReleaseMaterial", h.ID, h.Gen, h)
	if err != nil {
		return err
	}
	if free != nil {
		free(&m)
	}
	return nil
}

// ReadSource resolves the target of ReadPixels and checks the rectangle:
// for the zero handle (the default framebuffer, fbW x fbH) it returns nil
// entries, otherwise the target and its texture.
func (r *Resources[T, G, M]) ReadSource(h render2d.TargetHandle, rect image.Rectangle, fbW, fbH int) (*Target[G], *Texture[T], error) {
	const op = "ReadPixels"
	if err := r.Check(op); err != nil {
		return nil, nil, err
	}
	var tg *Target[G]
	var tx *Texture[T]
	w, hh := fbW, fbH
	if !h.IsZero() {
		if tg = r.targets.Get(h.ID, h.Gen); tg == nil {
			return nil, nil, r.stale(op, h)
		}
		tx = r.textures.Get(tg.Tex.ID, tg.Tex.Gen)
		w, hh = tx.W, tx.H
	}
	if rect.Empty() || !rect.In(image.Rect(0, 0, w, hh)) {
		return nil, nil, fmt.Errorf("%s: %s: rectangle %v is empty or outside the %dx%d target", r.Prefix, op, rect, w, hh)
	}
	return tg, tx, nil
}

// Close marks the resources closed and hands every live entry to the
// given functions (any may be nil) so the renderer can free them, targets
// first, then textures (target textures included), then materials, and
// forgets them all. It reports false, doing nothing, when already closed.
func (r *Resources[T, G, M]) Close(target func(*G), texture func(*T), material func(*M)) bool {
	if r.closed {
		return false
	}
	r.closed = true
	if target != nil {
		r.targets.Each(func(_, _ uint32, t *Target[G]) { target(&t.Val) })
	}
	if texture != nil {
		r.textures.Each(func(_, _ uint32, t *Texture[T]) { texture(&t.Val) })
	}
	if material != nil {
		r.materials.Each(func(_, _ uint32, m *M) { material(m) })
	}
	r.targets, r.textures, r.materials = Table[Target[G]]{}, Table[Texture[T]]{}, Table[M]{}
	return true
}

// Textures returns the number of live textures, target textures included.
func (r *Resources[T, G, M]) Textures() int { return r.textures.Len() }
