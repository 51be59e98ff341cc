package assets_test

import (
	"errors"
	"image"
	"image/color"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

func TestLoadAndUploadKeepsPixels(t *testing.T) {
	imgs := map[string]image.Image{
		"a.png":   pattern(10, 7, 1),
		"b.png":   pattern(33, 20, 2),
		"c.png":   pattern(1, 1, 3),
		"big.png": pattern(300, 90, 4), // larger than a 256 page: own texture
	}
	fsys := fsWith(t, imgs)
	opts := assets.DefaultOptions()
	opts.PageSize = 256
	lib := newLib(t, opts)
	handles := map[string]assets.Image{}
	for name := range imgs {
		h, err := lib.LoadImage(fsys, name)
		if err != nil {
			t.Fatalf("LoadImage(%q): %v", name, err)
		}
		handles[name] = h
	}
	if _, err := lib.Region(handles["a.png"]); !errors.Is(err, assets.ErrPending) {
		t.Fatalf("Region before Upload: got %v, want ErrPending", err)
	}
	rec := rendertest.NewRecorder(64, 64, 4096)
	if err := lib.Upload(rec); err != nil {
		t.Fatalf("Upload: %v", err)
	}
	small := map[render2d.TextureHandle]bool{}
	for name, h := range handles {
		r, err := lib.Region(h)
		if err != nil {
			t.Fatalf("Region(%s): %v", name, err)
		}
		got := regionPixels(t, rec, r)
		if !samePixels(got, imgs[name].(*image.RGBA)) {
			t.Errorf("%s: texels in the atlas differ from the file", name)
		}
		if name != "big.png" {
			small[r.Texture] = true
		}
	}
	if len(small) != 1 {
		t.Errorf("small images on %d textures, want 1 (one atlas page batches them)", len(small))
	}
}

func TestExtrudedBorder(t *testing.T) {
	lib := newLib(t, small())
	img := pattern(5, 4, 9)
	h, err := lib.AddImage("p", img)
	if err != nil {
		t.Fatal(err)
	}
	rec := rendertest.NewRecorder(8, 8, 4096)
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	r, _ := lib.Region(h)
	tex, _ := rec.Texels(r.Texture)
	x0, y0 := int(r.Source.X), int(r.Source.Y)
	tests := []struct {
		name           string
		tx, ty, sx, sy int // texel in page, the image pixel it must repeat
	}{
		{"left", x0 - 1, y0 + 2, 0, 2},
		{"right", x0 + 5, y0 + 1, 4, 1},
		{"top", x0 + 3, y0 - 1, 3, 0},
		{"bottom", x0 + 2, y0 + 4, 2, 3},
		{"corner", x0 - 1, y0 - 1, 0, 0},
		{"far corner", x0 + 5, y0 + 4, 4, 3},
	}
	for _, tt := range tests {
		if got, want := tex.RGBAAt(tt.tx, tt.ty), img.RGBAAt(tt.sx, tt.sy); got != want {
			t.Errorf("%s border texel: got %v, want %v", tt.name, got, want)
		}
	}
}

func TestBadInput(t *testing.T) {
	good := encodePNG(t, pattern(8, 8, 1))
	zero := append([]byte(nil), good...)
	copy(zero[16:20], []byte{0, 0, 0, 0}) // IHDR width = 0
	opts := assets.DefaultOptions()
	opts.MaxTextureSize = 64
	opts.PageSize = 64
	fsys := fstest.MapFS{
		"good.png":      {Data: good},
		"truncated.png": {Data: good[:len(good)/2]},
		"corrupt.png":   {Data: []byte("GIF89a this is not a png at all")},
		"zero.png":      {Data: zero},
		"huge.png":      {Data: encodePNG(t, solid(65, 2, color.RGBA{1, 2, 3, 255}))},
		"empty.png":     {Data: nil},
	}
	tests := []struct {
		file string
		want error
		msg  string
	}{
		{"truncated.png", media.ErrCorrupt, "not a valid PNG"},
		{"corrupt.png", media.ErrCorrupt, "not a valid PNG"},
		{"empty.png", media.ErrCorrupt, "not a valid PNG"},
		{"zero.png", assets.ErrEmpty, "0x8"},
		{"huge.png", media.ErrTooLarge, "65x2, the maximum texture size is 64"},
		{"missing.png", fs.ErrNotExist, "does not exist"},
	}
	lib := newLib(t, opts)
	rec := rendertest.NewRecorder(8, 8, 4096)
	keep, err := lib.LoadImage(fsys, "good.png")
	if err != nil {
		t.Fatal(err)
	}
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	before := lib.Stats()
	for _, tt := range tests {
		_, err := lib.LoadImage(fsys, tt.file)
		var ae *media.Error
		if !errors.Is(err, tt.want) || !errors.As(err, &ae) || ae.Path != tt.file {
			t.Errorf("LoadImage(%s): got %v, want a *media.Error for the file wrapping %v", tt.file, err, tt.want)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "assets: load image "+tt.file+": ") || !strings.Contains(msg, tt.msg) {
			t.Errorf("LoadImage(%s) message: got %q, want the file name and %q", tt.file, msg, tt.msg)
		}
		_, err = lib.LoadSheet(fsys, tt.file, assets.SheetSpec{FrameWidth: 4, FrameHeight: 4})
		if !errors.Is(err, tt.want) {
			t.Errorf("LoadSheet(%s): got %v, want %v", tt.file, err, tt.want)
		}
	}
	if got := lib.Stats(); got != before {
		t.Errorf("stats after failed loads: got %+v, want unchanged %+v", got, before)
	}
	if _, err := lib.Region(keep); err != nil {
		t.Errorf("loaded image after failed loads: %v", err)
	}
	if _, err := lib.AddImage("nothing", image.NewRGBA(image.Rect(0, 0, 0, 5))); !errors.Is(err, assets.ErrEmpty) {
		t.Errorf("AddImage of a 0x5 image: got %v, want ErrEmpty", err)
	}
}

func TestStaleHandles(t *testing.T) {
	fsys := fsWith(t, map[string]image.Image{"a.png": pattern(4, 4, 1), "b.png": pattern(6, 6, 2)})
	lib := newLib(t, small())
	rec := rendertest.NewRecorder(8, 8, 4096)
	a, _ := lib.LoadImage(fsys, "a.png")
	b, _ := lib.LoadImage(fsys, "b.png")
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	if err := lib.Release(a); err != nil {
		t.Fatalf("Release: %v", err)
	}
	c, err := lib.AddImage("c", pattern(4, 4, 3)) // may reuse a's slot
	if err != nil {
		t.Fatal(err)
	}
	for name, call := range map[string]func() error{
		"Region":    func() error { _, err := lib.Region(a); return err },
		"Sprite":    func() error { _, err := lib.Sprite(a, geom.Vec2{}); return err },
		"Release":   func() error { return lib.Release(a) },
		"ImageSize": func() error { _, _, err := lib.ImageSize(a); return err },
		"zero":      func() error { _, err := lib.Region(assets.Image{}); return err },
	} {
		if err := call(); !errors.Is(err, assets.ErrStale) {
			t.Errorf("%s with a released handle: got %v, want ErrStale", name, err)
		}
	}
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	if r, err := lib.Region(c); err != nil || !samePixels(regionPixels(t, rec, r), pattern(4, 4, 3)) {
		t.Errorf("new image after a release: %v, or wrong pixels", err)
	}

	// Reload: the old handle goes stale, the new one shows the new file.
	fsys["b.png"] = &fstest.MapFile{Data: encodePNG(t, pattern(6, 6, 99))}
	b2, err := lib.Reload(b)
	if err != nil {
		t.Fatalf("Reload: %v", err)
	}
	if _, err := lib.Region(b); !errors.Is(err, assets.ErrStale) {
		t.Errorf("old handle after Reload: got %v, want ErrStale", err)
	}
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	r, err := lib.Region(b2)
	if err != nil || !samePixels(regionPixels(t, rec, r), pattern(6, 6, 99)) {
		t.Errorf("reloaded image: %v, or not the new pixels", err)
	}
	// A failed reload keeps the handle valid.
	fsys["b.png"] = &fstest.MapFile{Data: []byte("broken")}
	b3, err := lib.Reload(b2)
	if !errors.Is(err, media.ErrCorrupt) || b3 != b2 {
		t.Errorf("Reload of a broken file: got %v, %v; want ErrCorrupt and the same handle", b3, err)
	}
	if _, err := lib.Region(b2); err != nil {
		t.Errorf("handle after a failed reload: %v", err)
	}
}

func TestRetiredPageIsReleased(t *testing.T) {
	opts := assets.DefaultOptions()
	opts.PageSize = 64
	lib := newLib(t, opts)
	rec := rendertest.NewRecorder(8, 8, 4096)
	// Fill the first page completely with one image so the second goes elsewhere.
	a, _ := lib.AddImage("a", pattern(60, 60, 1))
	b, _ := lib.AddImage("b", pattern(60, 60, 2))
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	ra, _ := lib.Region(a)
	rb, _ := lib.Region(b)
	if ra.Texture == rb.Texture {
		t.Fatalf("both 60x60 images on one 64x64 page")
	}
	n := rec.Textures()
	if err := lib.Release(a); err != nil {
		t.Fatal(err)
	}
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	if got := rec.Textures(); got != n-1 {
		t.Errorf("textures after releasing the only image of a page: got %d, want %d", got, n-1)
	}
	if rec.HasTexture(ra.Texture) {
		t.Errorf("retired page's texture %v still exists: an old frame would draw it", ra.Texture)
	}
	if !rec.HasTexture(rb.Texture) {
		t.Errorf("live page's texture was released")
	}
	if err := lib.ReleaseTextures(rec); err != nil {
		t.Fatal(err)
	}
	if got := rec.Textures(); got != 0 {
		t.Errorf("textures after ReleaseTextures: got %d, want 0", got)
	}
	// Handles survive; a new upload recreates the pages.
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	if r, err := lib.Region(b); err != nil || !samePixels(regionPixels(t, rec, r), pattern(60, 60, 2)) {
		t.Errorf("image after ReleaseTextures and Upload: %v, or wrong pixels", err)
	}
}

func TestOptionsValidate(t *testing.T) {
	err := assets.Options{PageSize: 10, MaxTextureSize: 70000, Padding: -1, Extrude: 17, Texture: render2d.TextureOptions{Filter: 9}}.Validate()
	for _, want := range []string{"PageSize is 10", "MaxTextureSize is 70000", "Padding is -1", "Extrude is 17", "Filter is 9"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate: got %v, want it to mention %q", err, want)
		}
	}
	if err := assets.DefaultOptions().Validate(); err != nil {
		t.Errorf("DefaultOptions().Validate(): %v", err)
	}
	if err := (assets.Options{}).Validate(); err != nil {
		t.Errorf("zero Options: %v", err)
	}
}

// TestDecodeConvertsToPremultiplied: PNGs of any colour model come out as
// premultiplied RGBA, which is what renderers blend.
func TestDecodeConvertsToPremultiplied(t *testing.T) {
	nrgba := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	nrgba.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 128})
	nrgba.SetNRGBA(1, 0, color.NRGBA{10, 20, 30, 255})
	gray := image.NewGray(image.Rect(0, 0, 1, 1))
	gray.SetGray(0, 0, color.Gray{200})
	pal := image.NewPaletted(image.Rect(0, 0, 1, 1), color.Palette{color.NRGBA{0, 255, 0, 64}})
	tests := []struct {
		name string
		img  image.Image
		want []color.RGBA
	}{
		{"nrgba", nrgba, []color.RGBA{{128, 0, 0, 128}, {10, 20, 30, 255}}},
		{"gray", gray, []color.RGBA{{200, 200, 200, 255}}},
		{"paletted", pal, []color.RGBA{{0, 64, 0, 64}}},
	}
	for _, tt := range tests {
		got, err := assets.DecodePNG(fstest.MapFS{"x.png": {Data: encodePNG(t, tt.img)}}, "x.png", 0)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for x, want := range tt.want {
			if c := got.RGBAAt(x, 0); c != want {
				t.Errorf("%s pixel %d: got %v, want %v", tt.name, x, c, want)
			}
		}
	}
}
