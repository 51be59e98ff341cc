package assets_test

import (
	"errors"
	"image/color"
	"math"
	"testing"
	"testing/fstest"

	"golang.org/x/image/font/gofont/goregular"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// FuzzLoadImage feeds arbitrary bytes to the PNG path: no panic, and the
// image loaded before stays usable whatever happens.
func FuzzLoadImage(f *testing.F) {
	good := encodePNG(f, pattern(6, 5, 1))
	f.Add(good)
	f.Add(good[:len(good)-10])
	f.Add(good[:33])
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	f.Add(encodePNG(f, solid(1, 300, color.RGBA{1, 2, 3, 4})))
	opts := assets.DefaultOptions()
	opts.MaxTextureSize = 256
	opts.PageSize = 128
	f.Fuzz(func(t *testing.T, data []byte) {
		lib := newLib(t, opts)
		keep, err := lib.AddImage("keep", pattern(3, 3, 7))
		if err != nil {
			t.Fatal(err)
		}
		rec := rendertest.NewRecorder(4, 4, 256)
		img, err := lib.LoadImage(fstest.MapFS{"x.png": {Data: data}}, "x.png")
		if uerr := lib.Upload(rec); uerr != nil {
			t.Fatalf("Upload after LoadImage (err %v): %v", err, uerr)
		}
		if err == nil {
			w, h, err := lib.ImageSize(img)
			if err != nil || w < 1 || h < 1 || w > 256 || h > 256 {
				t.Fatalf("loaded image size %dx%d, %v", w, h, err)
			}
			if _, err := lib.Region(img); err != nil {
				t.Fatalf("Region of a loaded image: %v", err)
			}
		}
		if r, err := lib.Region(keep); err != nil || !samePixels(regionPixels(t, rec, r), pattern(3, 3, 7)) {
			t.Fatalf("earlier image after a load of fuzzed bytes: %v or wrong pixels", err)
		}
	})
}

// FuzzParseFont feeds arbitrary bytes to the font path (TrueType and CFF)
// and lays text out with whatever loads: no panic, and the default font
// keeps working.
func FuzzParseFont(f *testing.F) {
	f.Add(goregular.TTF)
	f.Add(goregular.TTF[:20000])
	f.Add([]byte("\x00\x01\x00\x00\x00\x00"))
	cff := cffData(f)
	f.Add(cff)
	f.Add([]byte("OTTO\x00\x01\x00\x00"))
	f.Fuzz(fuzzFont)
}

// FuzzParseCFFFont is FuzzParseFont seeded only with the small CFF test
// font, so that the mutator spends its time on CFF tables and charstrings
// rather than on the 130 KB Go font.
func FuzzParseCFFFont(f *testing.F) {
	cff := cffData(f)
	f.Add(cff)
	f.Add(cff[:len(cff)/2])
	f.Add(cff[:len(cff)-1])
	f.Fuzz(fuzzFont)
}

func fuzzFont(t *testing.T, data []byte) {
	lib := newLib(t, small())
	def, err := lib.DefaultFont(12)
	if err != nil {
		t.Fatal(err)
	}
	rec := rendertest.NewRecorder(4, 4, 4096)
	if font, err := lib.ParseFont("fuzz.ttf", data, 12); err == nil {
		if _, _, err := lib.AppendText(nil, font, "Aé Ω\tx\nyz01Q中", assets.TextOptions{Width: 30}); err != nil {
			t.Fatalf("layout with a font that loaded: %v", err)
		}
	} else if !errors.Is(err, media.ErrCorrupt) && !errors.Is(err, media.ErrUnsupported) {
		t.Fatalf("font refused with %v, want ErrCorrupt or ErrUnsupported", err)
	}
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	if _, b, err := lib.AppendText(nil, def, "ok", assets.TextOptions{}); err != nil || b.Glyphs != 2 {
		t.Fatalf("default font after a fuzzed font: %d glyphs, %v", b.Glyphs, err)
	}
}

// FuzzLayout checks layout invariants on arbitrary text and boxes:
// measuring agrees with drawing, left-aligned wrapped glyphs stay inside
// the box (unless one glyph alone is wider), and there is at least one
// line.
func FuzzLayout(f *testing.F) {
	f.Add("Grüße, naïve café, Ωμέγα", float32(60), uint8(0))
	f.Add("one two  three\n\nfour\tfive   ", float32(25), uint8(1))
	f.Add("\xff\xfe\r\n", float32(0), uint8(2))
	f.Add("WWWWWWWWWW", float32(3), uint8(0))
	lib := newLib(f, small())
	font, err := lib.DefaultFont(14)
	if err != nil {
		f.Fatal(err)
	}
	if err := lib.Upload(rendertest.NewRecorder(4, 4, 4096)); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string, width float32, align uint8) {
		if len(text) > 2000 || math.IsNaN(float64(width)) || width < 0 || width > 1e6 {
			return
		}
		o := assets.TextOptions{Width: width, Align: assets.Align(align % 3), Position: geom.Vec2{X: 10, Y: 20}}
		ps, b, err := lib.AppendText(nil, font, text, o)
		if err != nil {
			t.Fatal(err)
		}
		m, err := lib.MeasureText(font, text, o)
		if err != nil || m.Rect != b.Rect || m.Lines != b.Lines {
			t.Fatalf("measure %+v (%v) differs from layout %+v", m, err, b)
		}
		if b.Lines < 1 || len(ps) != b.Glyphs {
			t.Fatalf("bounds %+v with %d packets", b, len(ps))
		}
		if width >= 40 && o.Align == assets.AlignLeft {
			for _, p := range ps {
				if right := p.Transform.Position.X + p.Size.X; right > 10+width+8 {
					t.Fatalf("glyph ends at %v, box ends at %v", right, 10+width)
				}
			}
		}
	})
}
