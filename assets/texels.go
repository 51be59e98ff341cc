package assets

import (
	"image"

	"github.com/metronome-go/metronome/render2d"
)

// TextureImage returns a copy of the CPU pixels of the atlas page that
// the renderer [Library.Upload] sent it to knows as h (premultiplied, as
// the renderer got them), and false when no live page is uploaded as h.
// It is for tools that draw a frame's packets away from the renderer
// (the inspector's page), not for every frame: it copies the whole page.
// Safe from any goroutine.
func (l *Library) TextureImage(h render2d.TextureHandle) (*image.RGBA, bool) {
	if h.IsZero() {
		return nil, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, p := range l.pages {
		if p.tex == h && p.img != nil && !p.retired {
			c := image.NewRGBA(p.img.Rect)
			copy(c.Pix, p.img.Pix)
			return c, true
		}
	}
	return nil, false
}
