package assets

import (
	"image"

	"github.com/metronome-go/metronome/render2d"
)

// TextureImage returns a copy of the CPU pixels of the atlas page that
// the renderer knows as h (premultiplied, as the renderer got them), or
// knew as h until [Library.ReleaseTextures] (a replay's frames outlive its
// renderer), and false when no live page of the library was uploaded as h. It is for
// tools that draw a frame's packets away from the renderer (the
// inspector's page), not for every frame: it copies the whole page. Safe
// from any goroutine.
func (l *Library) TextureImage(h render2d.TextureHandle) (*image.RGBA, bool) {
	if h.IsZero() {
		return nil, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var found *page
	for _, p := range l.pages {
		if p.img == nil || p.retired {
			continue
		}
		if p.tex == h {
			found = p
			break
		}
		if p.tex.IsZero() && p.released == h && found == nil {
			found = p // unless a page uploaded since holds h now
		}
	}
	if found == nil {
		return nil, false
	}
	c := image.NewRGBA(found.img.Rect)
	copy(c.Pix, found.img.Pix)
	return c, true
}
