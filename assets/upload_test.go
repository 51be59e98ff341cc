package assets_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// TestPendingGlyphsWaitForUpload fills more than the spare page with new
// glyphs in one layout: the glyphs on the page without a texture are left
// out and counted, and the next upload makes them drawable.
func TestPendingGlyphsWaitForUpload(t *testing.T) {
	opts := assets.DefaultOptions()
	opts.PageSize = 64
	lib := newLib(t, opts)
	f, err := lib.DefaultFont(30)
	if err != nil {
		t.Fatal(err)
	}
	rec := rendertest.NewRecorder(8, 8, 4096)
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	text := "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	ps, b, err := lib.AppendText(nil, f, text, assets.TextOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if b.Pending == 0 || b.Glyphs+b.Pending != len(text) || len(ps) != b.Glyphs {
		t.Fatalf("first layout: %d drawn, %d pending, want some pending and %d in all", b.Glyphs, b.Pending, len(text))
	}
	for _, p := range ps {
		if p.Texture.IsZero() {
			t.Fatalf("a drawn glyph has no texture")
		}
	}
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	_, b, _ = lib.AppendText(nil, f, text, assets.TextOptions{})
	if b.Pending != 0 || b.Glyphs != len(text) {
		t.Errorf("after Upload: %d drawn, %d pending; want %d, 0", b.Glyphs, b.Pending, len(text))
	}
}

// TestConcurrentLayoutAndUpload runs the concurrent-mode protocol: a
// simulation goroutine loads images and lays out text with new glyphs and
// publishes frames; the graphics goroutine takes each frame, uploads, and
// checks that every packet's texture exists and its texels are on the GPU.
func TestConcurrentLayoutAndUpload(t *testing.T) {
	opts := assets.DefaultOptions()
	opts.PageSize = 128
	lib := newLib(t, opts)
	f, err := lib.DefaultFont(14)
	if err != nil {
		t.Fatal(err)
	}
	rec := rendertest.NewRecorder(8, 8, 4096)
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	frames := make(chan []render2d.DrawPacket2D, 2)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // simulation
		defer wg.Done()
		defer close(frames)
		for i := 0; i < 60; i++ {
			var ps []render2d.DrawPacket2D
			text := fmt.Sprintf("frame %d: %c%c%c", i, rune(0x391+i%25), rune(0x430+i%32), rune('A'+i%26))
			ps, _, err := lib.AppendText(ps, f, text, assets.TextOptions{})
			if err != nil {
				t.Error(err)
				return
			}
			if i%10 == 0 {
				img, err := lib.AddImage("tile", pattern(5, 5, uint8(i)))
				if err != nil {
					t.Error(err)
					return
				}
				if p, err := lib.Sprite(img, geom.Vec2{}); err == nil {
					ps = append(ps, p)
				}
			}
			frames <- ps
		}
	}()
	for ps := range frames { // graphics
		if err := lib.Upload(rec); err != nil {
			t.Fatal(err)
		}
		if err := rec.Render(&render2d.Frame{Passes: []render2d.Pass{{Packets: ps}}}); err != nil {
			t.Fatalf("frame refused: %v", err)
		}
		for _, p := range ps {
			px := regionPixels(t, rec, assets.Region{Texture: p.Texture, Source: p.Source})
			ink := 0
			for j := 3; j < len(px.Pix); j += 4 {
				ink += int(px.Pix[j])
			}
			if ink == 0 {
				t.Fatalf("packet %v drawn before its texels reached the GPU", p.Source)
			}
		}
	}
	wg.Wait()
}

// TestUploadingRenderer: with the wrapper, frames with new glyphs and
// images render correctly without any explicit Upload call, and Close
// frees the library's textures.
func TestUploadingRenderer(t *testing.T) {
	lib := newLib(t, small())
	f, err := lib.DefaultFont(12)
	if err != nil {
		t.Fatal(err)
	}
	rec := rendertest.NewRecorder(8, 8, 4096)
	r := assets.NewUploadingRenderer(lib, rec)
	var _ render2d.Renderer = r
	// The first frame has nothing: it only brings the spare page up.
	if err := r.Render(&render2d.Frame{}); err != nil {
		t.Fatal(err)
	}
	for i, text := range []string{"first", "second ΩΨ", "third жб"} {
		ps, b, err := lib.AppendText(nil, f, text, assets.TextOptions{})
		if err != nil || b.Pending != 0 {
			t.Fatalf("layout %q: %v, %d pending", text, err, b.Pending)
		}
		if err := r.Render(&render2d.Frame{Passes: []render2d.Pass{{Packets: ps}}}); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		for _, p := range ps {
			px := regionPixels(t, rec, assets.Region{Texture: p.Texture, Source: p.Source})
			ink := 0
			for j := 3; j < len(px.Pix); j += 4 {
				ink += int(px.Pix[j])
			}
			if ink == 0 {
				t.Fatalf("frame %d: glyph texels missing on the GPU", i)
			}
		}
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if n := rec.Textures(); n != 0 {
		t.Errorf("textures after Close: %d, want 0", n)
	}
}

// TestRendererLimit: a renderer whose limit is below the library's lowers
// the size accepted for later loads, and a page it cannot hold is reported.
func TestRendererLimit(t *testing.T) {
	opts := assets.DefaultOptions()
	opts.PageSize = 256
	lib := newLib(t, opts)
	if _, err := lib.AddImage("wide", pattern(300, 4, 1)); err != nil { // own 300x4 texture
		t.Fatal(err)
	}
	rec := rendertest.NewRecorder(8, 8, 200)
	err := lib.Upload(rec)
	if !errors.Is(err, media.ErrTooLarge) || !strings.Contains(err.Error(), "maximum texture size is 200") {
		t.Errorf("Upload of a 300-texel page to a 200 limit: got %v, want ErrTooLarge naming the limit", err)
	}
	if _, err := lib.AddImage("next", pattern(201, 2, 1)); !errors.Is(err, media.ErrTooLarge) {
		t.Errorf("AddImage wider than the renderer's limit: got %v, want ErrTooLarge", err)
	}
}
