// Package nullrender is a renderer that draws nothing: it keeps the handles
// of textures, targets and materials (with the same checks and errors as
// every renderer) and validates each frame it is given, so code that needs
// a renderer can run where there is no GPU and no display — a headless
// replay, a server. Unlike render2d/rendertest it keeps no copies and is
// meant for production binaries.
package nullrender

import (
	"fmt"
	"image"

	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/internal/handles"
)

// DefaultMaxTextureSize is the texture size limit of [New].
const DefaultMaxTextureSize = 16384

// Renderer is a [render2d.Renderer] that draws nothing. Like every renderer
// it is meant for one goroutine.
type Renderer struct {
	res      handles.Resources[struct{}, struct{}, struct{}]
	rendered uint64
}

var _ render2d.Renderer = (*Renderer)(nil)

// New returns a renderer whose textures may be up to
// [DefaultMaxTextureSize] texels on a side.
func New() *Renderer {
	return &Renderer{res: handles.Resources[struct{}, struct{}, struct{}]{Prefix: "nullrender", MaxSize: DefaultMaxTextureSize}}
}

// Rendered returns how many frames Render accepted.
func (r *Renderer) Rendered() uint64 { return r.rendered }

// HasTexture implements [render2d.Resources].
func (r *Renderer) HasTexture(h render2d.TextureHandle) bool { return r.res.HasTexture(h) }

// HasMaterial implements [render2d.Resources].
func (r *Renderer) HasMaterial(h render2d.MaterialHandle) bool { return r.res.HasMaterial(h) }

// TargetTexture implements [render2d.Resources].
func (r *Renderer) TargetTexture(h render2d.TargetHandle) (render2d.TextureHandle, bool) {
	return r.res.TargetTexture(h)
}

// CreateTexture implements [render2d.Renderer].
func (r *Renderer) CreateTexture(img *image.RGBA, opts render2d.TextureOptions) (render2d.TextureHandle, error) {
	return r.res.CreateTexture(img, opts, func() (struct{}, error) { return struct{}{}, nil })
}

// UpdateTexture implements [render2d.Renderer].
func (r *Renderer) UpdateTexture(h render2d.TextureHandle, x, y int, img *image.RGBA) error {
	return r.res.UpdateTexture(h, x, y, img, func(*handles.Texture[struct{}]) error { return nil })
}

// ReleaseTexture implements [render2d.Renderer].
func (r *Renderer) ReleaseTexture(h render2d.TextureHandle) error {
	return r.res.ReleaseTexture(h, func(*struct{}) {})
}

// TextureSize implements [render2d.Renderer].
func (r *Renderer) TextureSize(h render2d.TextureHandle) (int, int, error) {
	return r.res.TextureSize(h)
}

// MaxTextureSize implements [render2d.Renderer].
func (r *Renderer) MaxTextureSize() int { return r.res.MaxSize }

// CreateRenderTarget implements [render2d.Renderer].
func (r *Renderer) CreateRenderTarget(width, height int, opts render2d.TextureOptions) (render2d.TargetHandle, render2d.TextureHandle, error) {
	return r.res.CreateTarget(width, height, opts, func() (struct{}, struct{}, error) { return struct{}{}, struct{}{}, nil })
}

// ReleaseRenderTarget implements [render2d.Renderer].
func (r *Renderer) ReleaseRenderTarget(h render2d.TargetHandle) error {
	return r.res.ReleaseTarget(h, nil)
}

// CreateMaterial implements [render2d.Renderer]; the shader is not compiled.
func (r *Renderer) CreateMaterial(desc render2d.MaterialDesc) (render2d.MaterialHandle, error) {
	return r.res.CreateMaterial(desc, func() (struct{}, error) { return struct{}{}, nil })
}

// ReleaseMaterial implements [render2d.Renderer].
func (r *Renderer) ReleaseMaterial(h render2d.MaterialHandle) error {
	return r.res.ReleaseMaterial(h, nil)
}

// SetFramebufferSize implements [render2d.Renderer]; there is no
// framebuffer.
func (r *Renderer) SetFramebufferSize(width, height int) {}

// Render validates f and draws nothing.
func (r *Renderer) Render(f *render2d.Frame) error {
	if err := r.res.Check("Render"); err != nil {
		return err
	}
	if err := render2d.ValidateFrame(f, r); err != nil {
		return err
	}
	r.rendered++
	return nil
}

// ReadPixels always fails: nothing is drawn.
func (r *Renderer) ReadPixels(target render2d.TargetHandle, rect image.Rectangle) (*image.RGBA, error) {
	if err := r.res.Check("ReadPixels"); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("nullrender: ReadPixels: this renderer draws nothing; use a GL renderer (a window, or --headless) for pixels")
}

// Close implements [render2d.Renderer].
func (r *Renderer) Close() error {
	r.res.Close(nil, nil, nil)
	return nil
}
