package glassets_test

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	"github.com/metronome-go/metronome/assets"
	_ "github.com/metronome-go/metronome/assets/cff" // the golden text includes a CFF font
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/glrender/gltest"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// compareGolden checks img against testdata/name.png, or writes it with
// -update: a pixel matches when every channel is within 3 of the golden
// one, and at most 0.5% of pixels (edge differences between GL drivers) may
// differ.
func compareGolden(t *testing.T, name string, img *image.RGBA) {
	t.Helper()
	gltest.CompareGolden(t, "testdata", name, img, *update, 3, 0.005)
}

var background = render2d.Color{R: 0.12, G: 0.12, B: 0.16, A: 1}

// ring is a size x size image: a coloured ring with soft edges on
// transparency, so bleeding or lost alpha shows.
func ring(size int, c color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	mid := float64(size) / 2
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			d := math.Hypot(float64(x)+0.5-mid, float64(y)+0.5-mid)
			cov := math.Max(0, math.Min(1, math.Min(mid-d, d-mid/2)))
			img.SetRGBA(x, y, color.RGBA{uint8(float64(c.R) * cov), uint8(float64(c.G) * cov), uint8(float64(c.B) * cov), uint8(255 * cov)})
		}
	}
	return img
}

// stripes is an opaque w x h image of vertical bars in two colours.
func stripes(w, h int, a, b color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := a
			if (x/2)%2 == 1 {
				c = b
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// sheet is a row of four 16x16 frames: a dot moving right, changing colour.
func sheet() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 64, 16))
	cs := []color.RGBA{{255, 80, 80, 255}, {255, 200, 60, 255}, {80, 220, 120, 255}, {90, 140, 255, 255}}
	for f := 0; f < 4; f++ {
		cx, cy := float64(f*16)+3+float64(f)*3+0.5, 8.0
		for y := 0; y < 16; y++ {
			for x := f * 16; x < f*16+16; x++ {
				if math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy) < 3.2 {
					img.SetRGBA(x, y, cs[f])
				} else {
					img.SetRGBA(x, y, color.RGBA{40, 40, 60, 255})
				}
			}
		}
	}
	return img
}

func pngFS(t *testing.T, files map[string]image.Image) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, img := range files {
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		fsys[name] = &fstest.MapFile{Data: b.Bytes()}
	}
	return fsys
}

type scene struct {
	name string
	// build loads assets into lib (before the first upload) and returns a
	// function that prepares the frame's packets (after it).
	build func(t *testing.T, lib *assets.Library) func(pass *render2d.PassWriter)
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

var scenes = []scene{
	{"atlas", func(t *testing.T, lib *assets.Library) func(*render2d.PassWriter) {
		fsys := pngFS(t, map[string]image.Image{
			"ring-red.png":    ring(24, color.RGBA{255, 70, 70, 255}),
			"ring-blue.png":   ring(16, color.RGBA{70, 140, 255, 255}),
			"ring-green.png":  ring(32, color.RGBA{90, 230, 120, 255}),
			"stripes.png":     stripes(12, 20, color.RGBA{250, 250, 250, 255}, color.RGBA{200, 40, 160, 255}),
			"stripes-big.png": stripes(40, 10, color.RGBA{30, 200, 220, 255}, color.RGBA{250, 220, 40, 255}),
		})
		names := []string{"ring-red.png", "ring-blue.png", "ring-green.png", "stripes.png", "stripes-big.png"}
		imgs := make([]assets.Image, len(names))
		for i, n := range names {
			imgs[i] = must[assets.Image](t)(lib.LoadImage(fsys, n))
		}
		return func(pass *render2d.PassWriter) {
			x := float32(8)
			for _, img := range imgs { // natural size
				p := must[render2d.DrawPacket2D](t)(lib.Sprite(img, geom.Vec2{X: x, Y: 8}))
				pass.Draw(p)
				x += p.Size.X + 6
			}
			x = 8
			for _, img := range imgs[:4] { // magnified 3x with linear filtering: edges must not bleed
				p := must[render2d.DrawPacket2D](t)(lib.Sprite(img, geom.Vec2{X: x, Y: 56}))
				p.Transform.Scale = geom.Vec2{X: 2.5, Y: 2.5}
				pass.Draw(p)
				x += p.Size.X*2.5 + 6
			}
			rot := must[render2d.DrawPacket2D](t)(lib.Sprite(imgs[4], geom.Vec2{X: 128, Y: 160}))
			rot.Transform.Origin = geom.Vec2{X: 20, Y: 5}
			rot.Transform.Rotation = math.Pi / 8
			rot.Transform.Scale = geom.Vec2{X: 2, Y: 2}
			pass.Draw(rot)
		}
	}},
	{"animation", func(t *testing.T, lib *assets.Library) func(*render2d.PassWriter) {
		fsys := pngFS(t, map[string]image.Image{"dot.png": sheet()})
		s := must[assets.Sheet](t)(lib.LoadSheet(fsys, "dot.png", assets.SheetSpec{
			FrameWidth: 16, FrameHeight: 16,
			Animations: map[string]assets.Animation{
				"move":   {Frames: []int{0, 1, 2, 3}, FrameTime: 100 * time.Millisecond},
				"bounce": {Frames: []int{0, 1, 2, 3}, FrameTime: 100 * time.Millisecond, Mode: assets.PingPong},
			},
		}))
		return func(pass *render2d.PassWriter) {
			for row, anim := range []string{"move", "bounce"} {
				for i := 0; i < 6; i++ {
					elapsed := time.Duration(i) * 100 * time.Millisecond
					r := must[assets.Region](t)(lib.AnimationFrame(s, anim, elapsed+50*time.Millisecond))
					p := r.Sprite(geom.Vec2{X: float32(8 + i*40), Y: float32(16 + row*64)})
					p.Transform.Scale = geom.Vec2{X: 2, Y: 2}
					pass.Draw(p)
				}
			}
			r := must[assets.Region](t)(lib.Frame(s, 2))
			pass.Draw(r.Sprite(geom.Vec2{X: 8, Y: 160}))
		}
	}},
	{"text-sizes", func(t *testing.T, lib *assets.Library) func(*render2d.PassWriter) {
		sizes := []float64{10, 13, 16, 22, 30}
		fonts := make([]assets.Font, len(sizes))
		for i, s := range sizes {
			fonts[i] = must[assets.Font](t)(lib.DefaultFont(s))
		}
		mono := must[assets.Font](t)(lib.GoFont(assets.GoMono, 14))
		bold := must[assets.Font](t)(lib.GoFont(assets.GoBold, 18))
		return func(pass *render2d.PassWriter) {
			y := float32(4)
			for i, f := range fonts {
				b := must[assets.TextBounds](t)(lib.DrawText(pass, f, fmt.Sprintf("%vpx Metronome Ag", sizes[i]), assets.TextOptions{Position: geom.Vec2{X: 6, Y: y}}))
				y += b.Rect.H
			}
			b := must[assets.TextBounds](t)(lib.DrawText(pass, mono, "mono 0123456789", assets.TextOptions{Position: geom.Vec2{X: 6, Y: y}, Color: render2d.RGBA8(120, 230, 140, 255)}))
			y += b.Rect.H
			must[assets.TextBounds](t)(lib.DrawText(pass, bold, "Bold AVWA", assets.TextOptions{Position: geom.Vec2{X: 6, Y: y}, Color: render2d.RGBA8(255, 190, 90, 255)}))
		}
	}},
	{"text-align", func(t *testing.T, lib *assets.Library) func(*render2d.PassWriter) {
		f := must[assets.Font](t)(lib.DefaultFont(15))
		return func(pass *render2d.PassWriter) {
			box := geom.Rect{X: 28, Y: 8, W: 200, H: 176}
			edge := render2d.Color{R: 0.4, G: 0.4, B: 0.5, A: 1}
			for _, p := range []render2d.DrawPacket2D{
				render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{X: box.X - 1, Y: box.Y}, geom.Vec2{X: 1, Y: box.H}),
				render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{X: box.X + box.W, Y: box.Y}, geom.Vec2{X: 1, Y: box.H}),
			} {
				p.Tint = edge
				pass.Draw(p)
			}
			y := box.Y
			for _, a := range []assets.Align{assets.AlignLeft, assets.AlignCenter, assets.AlignRight} {
				b := must[assets.TextBounds](t)(lib.DrawText(pass, f, "one line\nand a longer one", assets.TextOptions{Position: geom.Vec2{X: box.X, Y: y}, Width: box.W, Align: a}))
				y += b.Rect.H + 6
			}
			// Unboxed: aligned about the window's centre line.
			fbW, _ := gltest.FramebufferSize()
			mid := float32(fbW / 2)
			for i, a := range []assets.Align{assets.AlignLeft, assets.AlignCenter, assets.AlignRight} {
				must[assets.TextBounds](t)(lib.DrawText(pass, f, "|pivot", assets.TextOptions{Position: geom.Vec2{X: mid, Y: 130 + float32(i)*18}, Align: a, Color: render2d.RGBA8(140, 200, 255, 255)}))
			}
		}
	}},
	{"text-cff", func(t *testing.T, lib *assets.Library) func(*render2d.PassWriter) {
		// An OpenType font with CFF outlines (cubic curves, read through
		// sfnt): three sizes, a wrapped and right-aligned line, and the
		// same glyphs in Go Regular for comparison of metrics.
		fsys := os.DirFS(filepath.Join("..", "testdata"))
		sizes := []float64{14, 28, 52}
		fonts := make([]assets.Font, len(sizes))
		for i, s := range sizes {
			fonts[i] = must[assets.Font](t)(lib.LoadFont(fsys, "CFFTest.otf", s))
		}
		goFont := must[assets.Font](t)(lib.DefaultFont(28))
		return func(pass *render2d.PassWriter) {
			y := float32(4)
			for _, f := range fonts {
				b := must[assets.TextBounds](t)(lib.DrawText(pass, f, "01Q中 10", assets.TextOptions{Position: geom.Vec2{X: 6, Y: y}}))
				y += b.Rect.H
			}
			must[assets.TextBounds](t)(lib.DrawText(pass, fonts[1], "QQ 0110 中中", assets.TextOptions{Position: geom.Vec2{X: 150, Y: 4}, Width: 100, Align: assets.AlignRight, Color: render2d.RGBA8(140, 200, 255, 255)}))
			must[assets.TextBounds](t)(lib.DrawText(pass, goFont, "01Q 10", assets.TextOptions{Position: geom.Vec2{X: 6, Y: y}, Color: render2d.RGBA8(255, 190, 90, 255)}))
		}
	}},
	{"paragraph", func(t *testing.T, lib *assets.Library) func(*render2d.PassWriter) {
		f := must[assets.Font](t)(lib.DefaultFont(14))
		text := "Grüße, naïve café, Ωμέγα! Text is laid out on the simulation side into plain glyph packets; " +
			"the renderer needs no font. Ελληνικά, кириллица, Æsir, ñandú, œuvre: all wrap to the box."
		return func(pass *render2d.PassWriter) {
			must[assets.TextBounds](t)(lib.DrawText(pass, f, text, assets.TextOptions{Position: geom.Vec2{X: 10, Y: 8}, Width: 236, Color: render2d.RGBA8(235, 235, 225, 255)}))
			must[assets.TextBounds](t)(lib.DrawText(pass, f, "scaled ×2", assets.TextOptions{Position: geom.Vec2{X: 10, Y: 140}, Scale: 2, Color: render2d.RGBA8(255, 150, 150, 255)}))
		}
	}},
}

func TestGolden(t *testing.T) {
	for _, sc := range scenes {
		t.Run(sc.name, func(t *testing.T) {
			r := gltest.Renderer(t)
			lib, err := assets.NewLibrary(assets.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			prepare := sc.build(t, lib)
			if err := lib.Upload(r); err != nil { // the game's platform init
				t.Fatalf("Upload: %v", err)
			}
			var frame render2d.Frame
			pass := render2d.NewFrameWriter(&frame).BeginPass(render2d.PassDesc{Clear: true, ClearColor: background})
			prepare(pass)
			if err := lib.Upload(r); err != nil { // glyphs rasterised while preparing
				t.Fatalf("Upload: %v", err)
			}
			if err := r.Render(&frame); err != nil {
				t.Fatalf("Render: %v", err)
			}
			w, h := gltest.FramebufferSize()
			got, err := r.ReadPixels(render2d.TargetHandle{}, image.Rect(0, 0, w, h))
			if err != nil {
				t.Fatalf("ReadPixels: %v", err)
			}
			if sc.name == "atlas" {
				// Every sprite comes from one page: one texture, one batch.
				if n := len(render2d.AppendBatches(nil, frame.Passes[0].Packets)); n != 1 {
					t.Errorf("atlas sprites drawn in %d batches, want 1", n)
				}
			}
			compareGolden(t, sc.name, got)
			if err := lib.ReleaseTextures(r); err != nil {
				t.Errorf("ReleaseTextures: %v", err)
			}
		})
	}
}

// TestStaleTextureAfterRelease: a frame prepared before its image's page
// was freed is refused by the renderer rather than drawing something else.
func TestStaleTextureAfterRelease(t *testing.T) {
	r := gltest.Renderer(t)
	opts := assets.DefaultOptions()
	opts.PageSize = 64
	lib, _ := assets.NewLibrary(opts)
	a := must[assets.Image](t)(lib.AddImage("a", ring(60, color.RGBA{255, 0, 0, 255})))
	if err := lib.Upload(r); err != nil {
		t.Fatal(err)
	}
	p := must[render2d.DrawPacket2D](t)(lib.Sprite(a, geom.Vec2{}))
	old := &render2d.Frame{Passes: []render2d.Pass{{Packets: []render2d.DrawPacket2D{p}}}}
	if err := lib.Release(a); err != nil {
		t.Fatal(err)
	}
	b := must[assets.Image](t)(lib.AddImage("b", ring(60, color.RGBA{0, 255, 0, 255})))
	if err := lib.Upload(r); err != nil {
		t.Fatal(err)
	}
	if err := r.Render(old); err == nil {
		t.Errorf("a frame using a released page rendered without error")
	}
	pb := must[render2d.DrawPacket2D](t)(lib.Sprite(b, geom.Vec2{}))
	if pb.Texture == p.Texture {
		t.Errorf("new image got the released page's texture handle %v", p.Texture)
	}
	if err := lib.ReleaseTextures(r); err != nil {
		t.Error(err)
	}
}

// TestUploadingRendererGL draws the paragraph scene through
// assets.UploadingRenderer with no explicit Upload anywhere: the glyphs
// rasterised while preparing must still be on the GPU when the frame is
// drawn, giving the same image as the golden.
func TestUploadingRendererGL(t *testing.T) {
	gl := gltest.Renderer(t)
	lib, err := assets.NewLibrary(assets.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	r := assets.NewUploadingRenderer(lib, gl)
	var sc scene
	for _, s := range scenes {
		if s.name == "paragraph" {
			sc = s
		}
	}
	prepare := sc.build(t, lib)
	if err := r.Render(&render2d.Frame{}); err != nil { // a first, empty frame brings the pages up
		t.Fatal(err)
	}
	var frame render2d.Frame
	pass := render2d.NewFrameWriter(&frame).BeginPass(render2d.PassDesc{Clear: true, ClearColor: background})
	prepare(pass)
	if err := r.Render(&frame); err != nil {
		t.Fatalf("Render: %v", err)
	}
	w, h := gltest.FramebufferSize()
	got, err := r.ReadPixels(render2d.TargetHandle{}, image.Rect(0, 0, w, h))
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		return // the golden belongs to TestGolden
	}
	compareGolden(t, "paragraph", got)
	if err := lib.ReleaseTextures(r); err != nil {
		t.Error(err)
	}
}
