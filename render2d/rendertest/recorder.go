package rendertest

import (
	"image"
	"image/color"
	"image/draw"
	"slices"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/internal/handles"
	"github.com/metronome-go/metronome/timing"
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
	// valid, in order. Close keeps them: a test inspects what was drawn
	// after the code under test has shut its renderer down.
	Frames []render2d.Frame

	fbW, fbH int
	fb       *image.RGBA
	res      handles.Resources[recTexture, struct{}, render2d.MaterialDesc]
}

type recTexture struct {
	img  *image.RGBA
	opts render2d.TextureOptions
}

// NewRecorder returns a recorder whose default framebuffer is width x
// height pixels and whose textures may be up to maxTextureSize texels on a
// side.
func NewRecorder(width, height, maxTextureSize int) *Recorder {
	r := &Recorder{res: handles.Resources[recTexture, struct{}, render2d.MaterialDesc]{Prefix: "rendertest", MaxSize: maxTextureSize}}
	r.SetFramebufferSize(width, height)
	return r
}

var _ render2d.Renderer = (*Recorder)(nil)

// HasTexture implements [render2d.Resources].
func (r *Recorder) HasTexture(h render2d.TextureHandle) bool { return r.res.HasTexture(h) }

// HasMaterial implements [render2d.Resources].
func (r *Recorder) HasMaterial(h render2d.MaterialHandle) bool { return r.res.HasMaterial(h) }

// TargetTexture implements [render2d.Resources].
func (r *Recorder) TargetTexture(h render2d.TargetHandle) (render2d.TextureHandle, bool) {
	return r.res.TargetTexture(h)
}

// Textures returns the number of live textures, render target textures
// included.
func (r *Recorder) Textures() int { return r.res.Textures() }

// Texels returns a copy of a texture's current texels.
func (r *Recorder) Texels(h render2d.TextureHandle) (*image.RGBA, error) {
	t, err := r.res.Texture("Texels", h)
	if err != nil {
		return nil, err
	}
	out := image.NewRGBA(t.Val.img.Bounds())
	copy(out.Pix, t.Val.img.Pix)
	return out, nil
}

// TextureOptions returns the options texture h was created with.
func (r *Recorder) TextureOptions(h render2d.TextureHandle) (render2d.TextureOptions, error) {
	t, err := r.res.Texture("TextureOptions", h)
	if err != nil {
		return render2d.TextureOptions{}, err
	}
	return t.Val.opts, nil
}

// CreateTexture implements [render2d.Renderer].
func (r *Recorder) CreateTexture(img *image.RGBA, opts render2d.TextureOptions) (render2d.TextureHandle, error) {
	return r.res.CreateTexture(img, opts, func() (recTexture, error) {
		b := img.Bounds()
		cp := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		if len(img.Pix) > 0 {
			draw.Draw(cp, cp.Bounds(), img, b.Min, draw.Src)
		}
		return recTexture{img: cp, opts: opts}, nil
	})
}

// UpdateTexture implements [render2d.Renderer].
func (r *Recorder) UpdateTexture(h render2d.TextureHandle, x, y int, img *image.RGBA) error {
	return r.res.UpdateTexture(h, x, y, img, func(t *handles.Texture[recTexture]) error {
		b := img.Bounds()
		draw.Draw(t.Val.img, image.Rect(x, y, x+b.Dx(), y+b.Dy()), img, b.Min, draw.Src)
		return nil
	})
}

// ReleaseTexture implements [render2d.Renderer].
func (r *Recorder) ReleaseTexture(h render2d.TextureHandle) error {
	return r.res.ReleaseTexture(h, func(*recTexture) {})
}

// TextureSize implements [render2d.Renderer].
func (r *Recorder) TextureSize(h render2d.TextureHandle) (int, int, error) {
	return r.res.TextureSize(h)
}

// MaxTextureSize implements [render2d.Renderer].
func (r *Recorder) MaxTextureSize() int { return r.res.MaxSize }

// CreateRenderTarget implements [render2d.Renderer].
func (r *Recorder) CreateRenderTarget(width, height int, opts render2d.TextureOptions) (render2d.TargetHandle, render2d.TextureHandle, error) {
	return r.res.CreateTarget(width, height, opts, func() (recTexture, struct{}, error) {
		return recTexture{img: image.NewRGBA(image.Rect(0, 0, width, height)), opts: opts}, struct{}{}, nil
	})
}

// ReleaseRenderTarget implements [render2d.Renderer].
func (r *Recorder) ReleaseRenderTarget(h render2d.TargetHandle) error {
	return r.res.ReleaseTarget(h, nil)
}

// CreateMaterial implements [render2d.Renderer]. The shader is kept, not
// compiled.
func (r *Recorder) CreateMaterial(desc render2d.MaterialDesc) (render2d.MaterialHandle, error) {
	return r.res.CreateMaterial(desc, func() (render2d.MaterialDesc, error) { return desc, nil })
}

// ReleaseMaterial implements [render2d.Renderer].
func (r *Recorder) ReleaseMaterial(h render2d.MaterialHandle) error {
	return r.res.ReleaseMaterial(h, nil)
}

// SetFramebufferSize implements [render2d.Renderer]; the recorded
// framebuffer is cleared to transparent black.
func (r *Recorder) SetFramebufferSize(width, height int) {
	r.fbW, r.fbH = max(width, 0), max(height, 0)
	r.fb = image.NewRGBA(image.Rect(0, 0, r.fbW, r.fbH))
}

// Render implements [render2d.Renderer]: it validates f, applies its
// clears (the frame's over the whole framebuffer, then each pass's over its
// viewport) and appends a deep copy to Frames. The copy keeps f.Present (the
// alpha and instant of this present) and every packet's previous
// placement; [render2d.Frame.Resolved] or [Recorder.ShownAt] gives what
// was drawn, resolved by the same functions the GL renderer's shader
// follows. A frame rendered again at the next present is recorded again.
func (r *Recorder) Render(f *render2d.Frame) error {
	if err := r.res.Check("Render"); err != nil {
		return err
	}
	if err := render2d.ValidateFrame(f, r); err != nil {
		return err
	}
	if f.Clear {
		draw.Draw(r.fb, r.fb.Bounds(), image.NewUniform(premultiplied(f.ClearColor)), image.Point{}, draw.Src)
	}
	cp := *f
	cp.Passes = make([]render2d.Pass, len(f.Passes))
	for i, p := range f.Passes {
		cp.Passes[i] = render2d.Pass{PassDesc: p.PassDesc, Packets: slices.Clone(p.Packets), Vertices: slices.Clone(p.Vertices), Indices: slices.Clone(p.Indices)}
		if p.Clear {
			img := r.fb
			if !p.Target.IsZero() {
				_, tx := r.res.MustTarget(p.Target)
				img = tx.Val.img
			}
			draw.Draw(img, viewportRect(p.Camera.Viewport, img.Bounds()), image.NewUniform(premultiplied(p.ClearColor)), image.Point{}, draw.Src)
		}
	}
	r.Frames = append(r.Frames, cp)
	return nil
}

// ShownAt returns what was on screen at instant at: the newest recorded
// frame presented at or before at (by Present.At), resolved at its alpha
// with [render2d.Frame.Resolved]. It reports false when no frame had been
// presented by then. Frames are searched from the newest, so a test that
// renders with increasing instants finds the right one.
func (r *Recorder) ShownAt(at timing.Instant) (render2d.Frame, bool) {
	for i := len(r.Frames) - 1; i >= 0; i-- {
		if r.Frames[i].Present.At <= at {
			return r.Frames[i].Resolved(), true
		}
	}
	return render2d.Frame{}, false
}

func viewportRect(v geom.Rect, b image.Rectangle) image.Rectangle {
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
	_, tx, err := r.res.ReadSource(target, rect, r.fbW, r.fbH)
	if err != nil {
		return nil, err
	}
	img := r.fb
	if tx != nil {
		img = tx.Val.img
	}
	out := image.NewRGBA(image.Rect(0, 0, rect.Dx(), rect.Dy()))
	draw.Draw(out, out.Bounds(), img, rect.Min, draw.Src)
	return out, nil
}

// Close implements [render2d.Renderer]: it forgets every texture, target
// and material. Frames stays as it was, so a test can inspect what was
// drawn after the code under test closed the renderer (a runtime closes
// it at shutdown).
func (r *Recorder) Close() error {
	r.res.Close(nil, nil, nil)
	return nil
}
