package assets

import (
	"errors"

	"github.com/metronome-go/metronome/render2d"
)

// UploadingRenderer is a [render2d.Renderer] that keeps a [Library]'s
// textures current by itself: Render first runs [Library.UploadStep] (so a
// large upload is spread across frames within [Options.UploadBudget]) and
// then draws, and Close releases the library's textures before closing. Give it
// to the runtime in place of the renderer it wraps and the upload happens
// on the graphics thread exactly where it must, after the frame to draw was
// taken and before it is drawn, with no hook in the game.
//
// Every other method is the wrapped renderer's. Like any renderer, it
// belongs to the graphics thread.
type UploadingRenderer struct {
	render2d.Renderer
	Library *Library
}

// NewUploadingRenderer wraps r for lib.
func NewUploadingRenderer(lib *Library, r render2d.Renderer) *UploadingRenderer {
	return &UploadingRenderer{Renderer: r, Library: lib}
}

// Render uploads, then renders f even if the upload failed (a failed page
// stays pending and its packets are refused by the renderer's validation),
// and reports both errors.
func (u *UploadingRenderer) Render(f *render2d.Frame) error {
	_, uerr := u.Library.UploadStep(u.Renderer)
	return errors.Join(uerr, u.Renderer.Render(f))
}

// Close releases the library's textures on this thread, then closes the
// wrapped renderer.
func (u *UploadingRenderer) Close() error {
	return errors.Join(u.Library.ReleaseTextures(u.Renderer), u.Renderer.Close())
}
