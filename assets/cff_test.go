package assets_test

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"github.com/metronome-go/metronome/assets"
	_ "github.com/metronome-go/metronome/assets/cff" // the tests read CFF fonts
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/media"
)

// CFFTest.otf (from golang.org/x/image, see testdata/README.md) has CFF
// outlines and five glyphs: .notdef, '0' (600 units wide), '1' (400),
// U+4E2D '中' (600) and 'Q' (1000), at 1000 units per em.
const cffFile = "CFFTest.otf"

func cffData(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + cffFile)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// sfntRef is the reference: the same font read directly through sfnt.
type sfntRef struct {
	f   *sfnt.Font
	buf sfnt.Buffer
}

func newSfntRef(t testing.TB, data []byte) *sfntRef {
	t.Helper()
	f, err := sfnt.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return &sfntRef{f: f}
}

func (r *sfntRef) glyph(t testing.TB, c rune) sfnt.GlyphIndex {
	t.Helper()
	g, err := r.f.GlyphIndex(&r.buf, c)
	if err != nil || g == 0 {
		t.Fatalf("sfnt: no glyph for %q (%v)", c, err)
	}
	return g
}

// advance is the glyph's advance at size in whole pixels.
func (r *sfntRef) advance(t testing.TB, c rune, size float64) float32 {
	t.Helper()
	a, err := r.f.GlyphAdvance(&r.buf, r.glyph(t, c), fixed.Int26_6(size*64), font.HintingNone)
	if err != nil {
		t.Fatal(err)
	}
	return float32(math.Round(float64(a) / 64))
}

// bounds is the glyph's outline bounds at size in pixels, y down.
func (r *sfntRef) bounds(t testing.TB, c rune, size float64) (minX, minY, maxX, maxY float64) {
	t.Helper()
	segs, err := r.f.LoadGlyph(&r.buf, r.glyph(t, c), fixed.Int26_6(size*64), nil)
	if err != nil {
		t.Fatal(err)
	}
	b := segs.Bounds()
	return float64(b.Min.X) / 64, float64(b.Min.Y) / 64, float64(b.Max.X) / 64, float64(b.Max.Y) / 64
}

func TestCFFFontAtTwoSizes(t *testing.T) {
	data := cffData(t)
	ref := newSfntRef(t, data)
	lib, _, rec := uploaded(t) // a spare page is ready: new glyphs draw at once
	for _, size := range []float64{20, 48} {
		f, err := lib.LoadFont(os.DirFS("testdata"), cffFile, size)
		if err != nil {
			t.Fatalf("LoadFont(%s, %v): %v", cffFile, size, err)
		}
		m, err := lib.Metrics(f)
		if err != nil {
			t.Fatal(err)
		}
		rm, _ := ref.f.Metrics(&ref.buf, fixed.Int26_6(size*64), font.HintingNone)
		wantAscent, wantDescent := float32(math.Ceil(float64(rm.Ascent)/64)), float32(math.Ceil(float64(rm.Descent)/64))
		if m.Size != size || m.Ascent != wantAscent || m.Descent != wantDescent || m.LineHeight < m.Ascent+m.Descent {
			t.Errorf("size %v: metrics %+v, want ascent %v, descent %v, line height at least their sum", size, m, wantAscent, wantDescent)
		}
		if m.Ascent < float32(size)/2 || m.Ascent > float32(size)*1.5 {
			t.Errorf("size %v: implausible ascent %v", size, m.Ascent)
		}
		for _, tt := range []struct {
			r     rune
			units float64 // design advance
		}{{'0', 600}, {'1', 400}, {'中', 600}, {'Q', 1000}} {
			s := string(tt.r)
			mb, err := lib.MeasureText(f, s, assets.TextOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := ref.advance(t, tt.r, size)
			if mb.Rect.W != want || math.Abs(float64(want)-tt.units*size/1000) > 0.5 {
				t.Errorf("size %v %q: advance %v, want %v (sfnt) = %v units", size, tt.r, mb.Rect.W, want, tt.units)
			}
			ps, b := layout(t, lib, f, s, assets.TextOptions{Position: geom.Vec2{X: 10, Y: 5}})
			if len(ps) != 1 || b.Glyphs != 1 || b.Pending != 0 {
				t.Fatalf("size %v %q: %d packets, bounds %+v, want one glyph", size, tt.r, len(ps), b)
			}
			// The quad covers the outline's pixel bounds, placed from the
			// pen (x 10) and the baseline (y 5 + ascent).
			x0, y0, x1, y1 := ref.bounds(t, tt.r, size)
			p := ps[0]
			wantPos := geom.Vec2{X: 10 + float32(math.Floor(x0)), Y: 5 + m.Ascent + float32(math.Floor(y0))}
			wantSize := geom.Vec2{X: float32(math.Ceil(x1) - math.Floor(x0)), Y: float32(math.Ceil(y1) - math.Floor(y0))}
			if p.Transform.Position != wantPos || p.Size != wantSize || p.Source.W != wantSize.X || p.Source.H != wantSize.Y {
				t.Errorf("size %v %q: quad at %v size %v (source %v), want at %v size %v", size, tt.r, p.Transform.Position, p.Size, p.Source, wantPos, wantSize)
			}
			if wantSize.X < float32(size)/5 || wantSize.Y < float32(size)/2 || wantSize.Y > float32(size)*1.2 {
				t.Errorf("size %v %q: implausible glyph size %v", size, tt.r, wantSize)
			}
		}
	}
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
}

// TestCFFGlyphCoverage checks the rasterised pixels of the CFF glyphs: ink
// where the outline is, a hole in the middle of '0', a box no larger than
// the outline. Quads cover the control points' box, which is the ink's box
// when every extreme is an on-curve point: true of '0', '1' and '中', not
// of 'Q', whose bowl bulges past its on-curve points.
func TestCFFGlyphCoverage(t *testing.T) {
	lib, _, rec := uploaded(t)
	f, err := lib.ParseFont(cffFile, cffData(t), 40)
	if err != nil {
		t.Fatal(err)
	}
	const text = "01中Q"
	ps, _ := layout(t, lib, f, text, assets.TextOptions{})
	if len(ps) != 4 {
		t.Fatalf("%d packets for 4 glyphs", len(ps))
	}
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		img := regionPixels(t, rec, assets.Region{Texture: p.Texture, Source: p.Source})
		w, h := img.Rect.Dx(), img.Rect.Dy()
		ink, full := 0, 0
		for j := 3; j < len(img.Pix); j += 4 {
			if img.Pix[j] > 0 {
				ink++
			}
			if img.Pix[j] == 255 {
				full++
			}
		}
		// Outlines cover a fair share of the box; '1' is a rectangle on
		// whole pixels at this size (x 4 to 12, y -32 to 0), all solid.
		if frac := float64(ink) / float64(w*h); frac < 0.1 || full == 0 || (i == 1) != (full == w*h) {
			t.Errorf("glyph %d (%dx%d): %d inked, %d solid pixels", i, w, h, ink, full)
		}
		if i == 3 {
			continue // 'Q'
		}
		// Every edge row and column of the tight box has some ink.
		edge := func(x, y int) bool { return img.Pix[img.PixOffset(x, y)+3] > 0 }
		for _, side := range []struct {
			name string
			hit  func(k int) bool
			n    int
		}{
			{"top", func(k int) bool { return edge(k, 0) }, w},
			{"bottom", func(k int) bool { return edge(k, h-1) }, w},
			{"left", func(k int) bool { return edge(0, k) }, h},
			{"right", func(k int) bool { return edge(w-1, k) }, h},
		} {
			found := false
			for k := 0; k < side.n && !found; k++ {
				found = side.hit(k)
			}
			if !found {
				t.Errorf("glyph %d: no ink on its %s edge: the box is not tight", i, side.name)
			}
		}
		if i == 0 { // the counter of '0' is empty
			if a := img.Pix[img.PixOffset(w/2, h/2)+3]; a != 0 {
				t.Errorf("'0': centre pixel alpha %d, want 0 (the counter)", a)
			}
		}
	}
}

func TestCFFTextLayout(t *testing.T) {
	lib, _, _ := uploaded(t)
	f, err := lib.ParseFont(cffFile, cffData(t), 20)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := lib.Metrics(f)
	// Advances at 20 px: '0' 12, '1' 8, 'Q' 20, '中' 12, space: the
	// missing glyph's advance.
	_, one := layout(t, lib, f, "01", assets.TextOptions{})
	if one.Rect.W != 20 || one.Lines != 1 {
		t.Errorf("\"01\": %+v, want width 20 on one line", one)
	}
	tests := []struct {
		text          string
		width         float32
		align         assets.Align
		glyphs, lines int
	}{
		{"0110", 0, assets.AlignLeft, 4, 1},
		{"0\n1\nQ", 0, assets.AlignLeft, 3, 3},
		{"QQQQ", 50, assets.AlignLeft, 4, 2}, // 80 wide: breaks inside the word
		{"中中中", 30, assets.AlignCenter, 3, 2},
		{"1010", 100, assets.AlignRight, 4, 1},
	}
	for _, tt := range tests {
		o := assets.TextOptions{Width: tt.width, Align: tt.align, Position: geom.Vec2{X: 7, Y: 3}}
		ps, b := layout(t, lib, f, tt.text, o)
		if len(ps) != tt.glyphs || b.Lines != tt.lines || b.Rect.H != float32(tt.lines)*m.LineHeight {
			t.Errorf("%q: %d packets, %+v; want %d glyphs on %d lines", tt.text, len(ps), b, tt.glyphs, tt.lines)
		}
		if tt.width > 0 && (b.Rect.W > tt.width || b.Rect.X < 7 || b.Rect.X+b.Rect.W > 7+tt.width) {
			t.Errorf("%q: lines span %v..%v, outside the box 7..%v", tt.text, b.Rect.X, b.Rect.X+b.Rect.W, 7+tt.width)
		}
		if tt.align == assets.AlignRight && b.Rect.X+b.Rect.W != 7+tt.width {
			t.Errorf("%q right-aligned: line ends at %v, want %v", tt.text, b.Rect.X+b.Rect.W, 7+tt.width)
		}
		mb, err := lib.MeasureText(f, tt.text, o)
		if err != nil || mb.Rect != b.Rect || mb.Lines != b.Lines {
			t.Errorf("%q: MeasureText %+v (%v), AppendText %+v", tt.text, mb, err, b)
		}
	}
}

// TestCFFCorruptNeverPanics damages the CFF test font byte by byte and by
// truncation: every load either fails with ErrCorrupt or ErrUnsupported
// naming the file, or yields a face that lays text out.
func TestCFFCorruptNeverPanics(t *testing.T) {
	data := cffData(t)
	lib := newLib(t, small())
	keep, err := lib.DefaultFont(12)
	if err != nil {
		t.Fatal(err)
	}
	try := func(what string, d []byte) {
		f, err := lib.ParseFont("bad.otf", d, 24)
		if err != nil {
			var ae *media.Error
			if !errors.As(err, &ae) || ae.Path != "bad.otf" || !(errors.Is(err, media.ErrCorrupt) || errors.Is(err, media.ErrUnsupported)) {
				t.Fatalf("%s: got %v, want ErrCorrupt or ErrUnsupported naming bad.otf", what, err)
			}
			return
		}
		if _, _, err := lib.AppendText(nil, f, "01Q中x", assets.TextOptions{Width: 40}); err != nil {
			t.Fatalf("%s: layout with a face that loaded: %v", what, err)
		}
		if err := lib.ReleaseFont(f); err != nil {
			t.Fatal(err)
		}
	}
	step := 1
	if testing.Short() {
		step = 7
	}
	buf := make([]byte, len(data))
	for i := 0; i < len(data); i += step {
		try("truncated", data[:i])
		copy(buf, data)
		buf[i] ^= 0xff
		try("flipped", buf)
	}
	for _, d := range []string{"OTTO", "OTTO\x00\x00\x00\x00\x00\x00\x00\x00", "OTTO\x00\x01" + string(data[6:100])} {
		if _, err := lib.ParseFont("bad.otf", []byte(d), 24); !errors.Is(err, media.ErrCorrupt) {
			t.Errorf("%q: got %v, want ErrCorrupt", d, err)
		}
	}
	if _, _, err := lib.AppendText(nil, keep, "ok", assets.TextOptions{}); err != nil {
		t.Errorf("default font after damaged fonts: %v", err)
	}
}

func TestCFFLoadErrors(t *testing.T) {
	data := cffData(t)
	fsys := fstest.MapFS{
		"trunc.otf": {Data: data[:600]},
		"head.otf":  {Data: data[:12]},
	}
	lib := newLib(t, small())
	for _, tt := range []struct {
		file string
		size float64
		want error
		msg  string
	}{
		{"trunc.otf", 16, media.ErrCorrupt, "not a readable OpenType (CFF) font"},
		{"head.otf", 16, media.ErrCorrupt, "not a readable OpenType (CFF) font"},
		{"gone.otf", 16, os.ErrNotExist, "does not exist"},
	} {
		_, err := lib.LoadFont(fsys, tt.file, tt.size)
		if !errors.Is(err, tt.want) || !containsAll(err.Error(), tt.file, tt.msg) {
			t.Errorf("LoadFont(%s): got %v, want %v naming the file and %q", tt.file, err, tt.want, tt.msg)
		}
	}
	if _, err := lib.ParseFont("ok.otf", data, 200); !errors.Is(err, media.ErrInvalid) || !containsAll(err.Error(), "ok.otf", "size is 200") {
		t.Errorf("CFF font at size 200 with 256 pages: got %v, want ErrInvalid naming the size", err)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
