package assets_test

import (
	"errors"
	"io/fs"
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// uploaded returns a library with a 16px Go Regular face, uploaded.
func uploaded(t testing.TB) (*assets.Library, assets.Font, *rendertest.Recorder) {
	t.Helper()
	lib := newLib(t, small())
	f, err := lib.DefaultFont(16)
	if err != nil {
		t.Fatal(err)
	}
	rec := rendertest.NewRecorder(64, 64, 4096)
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	return lib, f, rec
}

func layout(t testing.TB, lib *assets.Library, f assets.Font, s string, o assets.TextOptions) ([]render2d.DrawPacket2D, assets.TextBounds) {
	t.Helper()
	ps, b, err := lib.AppendText(nil, f, s, o)
	if err != nil {
		t.Fatalf("AppendText(%q): %v", s, err)
	}
	return ps, b
}

func TestTextGlyphCountsAndLines(t *testing.T) {
	lib, f, _ := uploaded(t)
	m, _ := lib.Metrics(f)
	tests := []struct {
		text          string
		width         float32
		glyphs, lines int
	}{
		{"", 0, 0, 1},
		{"Hello, world", 0, 11, 1},
		{"a\nb", 0, 2, 2},
		{"a\r\nb", 0, 2, 2},
		{"a\n", 0, 1, 2},
		{"\n\n", 0, 0, 3},
		{"Grüße, naïve café, Ωμέγα", 0, 21, 1},
		{"tab\there", 0, 7, 1},
		{"one two three four", 40, 15, 4},
		{"aaaaaaaaaaaaaaaaaaaa", 40, 20, 5}, // one long word breaks inside
		{"   ", 0, 0, 1},
		{"bad \xff byte", 0, 8, 1},
	}
	for _, tt := range tests {
		ps, b := layout(t, lib, f, tt.text, assets.TextOptions{Width: tt.width})
		if len(ps) != tt.glyphs || b.Glyphs != tt.glyphs || b.Lines != tt.lines {
			t.Errorf("%q width %v: got %d packets (%d counted), %d lines; want %d, %d", tt.text, tt.width, len(ps), b.Glyphs, b.Lines, tt.glyphs, tt.lines)
		}
		if want := float32(tt.lines) * m.LineHeight; b.Rect.H != want {
			t.Errorf("%q: height %v, want %d lines x %v", tt.text, b.Rect.H, tt.lines, m.LineHeight)
		}
		if tt.width > 0 && b.Rect.W > tt.width {
			t.Errorf("%q: wrapped width %v exceeds %v", tt.text, b.Rect.W, tt.width)
		}
		mb, err := lib.MeasureText(f, tt.text, assets.TextOptions{Width: tt.width})
		if err != nil || mb.Rect != b.Rect || mb.Lines != b.Lines {
			t.Errorf("%q: MeasureText %+v (%v), AppendText %+v", tt.text, mb, err, b)
		}
	}
}

func TestTextWrapKeepsWordsWhole(t *testing.T) {
	lib, f, _ := uploaded(t)
	text := "the quick brown fox jumps over the lazy dog"
	for _, width := range []float32{60, 90, 150, 1000} {
		ps, b := layout(t, lib, f, text, assets.TextOptions{Width: width, Position: geom.Vec2{X: 100, Y: 50}})
		for i, p := range ps {
			if right := p.Transform.Position.X + p.Size.X; right > 100+width+1 {
				t.Errorf("width %v: glyph %d ends at %v, past the box edge %v", width, i, right, 100+width)
			}
		}
		// Every line break happens at a space: lines start with a word's first letter.
		words := len(strings.Fields(text))
		if b.Lines > words {
			t.Errorf("width %v: %d lines for %d words", width, b.Lines, words)
		}
	}
	_, one := layout(t, lib, f, text, assets.TextOptions{})
	_, wide := layout(t, lib, f, text, assets.TextOptions{Width: one.Rect.W})
	if wide.Lines != 1 {
		t.Errorf("text in a box exactly its width: %d lines, want 1", wide.Lines)
	}
}

func TestTextAlignment(t *testing.T) {
	lib, f, _ := uploaded(t)
	const x, w = 100, 200
	_, natural := layout(t, lib, f, "centre me", assets.TextOptions{})
	lw := natural.Rect.W
	tests := []struct {
		align  assets.Align
		width  float32
		wantX0 float32
	}{
		{assets.AlignLeft, w, x},
		{assets.AlignCenter, w, x + (w-lw)/2},
		{assets.AlignRight, w, x + w - lw},
		{assets.AlignLeft, 0, x},
		{assets.AlignCenter, 0, x - lw/2},
		{assets.AlignRight, 0, x - lw},
	}
	for _, tt := range tests {
		_, b := layout(t, lib, f, "centre me", assets.TextOptions{Position: geom.Vec2{X: x, Y: 10}, Width: tt.width, Align: tt.align})
		if math.Abs(float64(b.Rect.X-tt.wantX0)) > 0.5 || b.Rect.W != lw {
			t.Errorf("align %d width %v: line at %v wide %v, want %v wide %v", tt.align, tt.width, b.Rect.X, b.Rect.W, tt.wantX0, lw)
		}
	}
	// Lines of a right-aligned paragraph end at the same x.
	ps, _ := layout(t, lib, f, "short\na much longer line", assets.TextOptions{Position: geom.Vec2{X: x}, Width: w, Align: assets.AlignRight})
	ends := map[float32]float32{}
	for _, p := range ps {
		y := p.Transform.Position.Y
		_ = y
		line := float32(0)
		if p.Transform.Position.Y > 20 {
			line = 1
		}
		ends[line] = max(ends[line], p.Transform.Position.X+p.Size.X)
	}
	if d := ends[0] - ends[1]; d > 2 || d < -2 {
		t.Errorf("right-aligned lines end at %v and %v, want the same edge", ends[0], ends[1])
	}
}

func TestTextPacketsAreReadyToDraw(t *testing.T) {
	lib, f, rec := uploaded(t)
	ps, _ := layout(t, lib, f, "Grüße Ωμέγα", assets.TextOptions{Color: render2d.RGBA8(255, 0, 0, 255), Layer: 3, Position: geom.Vec2{X: 5, Y: 7}})
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if p.Tint != render2d.RGBA8(255, 0, 0, 255) || p.Layer != 3 || p.Transform.Scale != (geom.Vec2{X: 1, Y: 1}) {
			t.Errorf("packet %d: tint %v layer %d scale %v", i, p.Tint, p.Layer, p.Transform.Scale)
		}
		if p.Transform.Position.X != float32(math.Round(float64(p.Transform.Position.X))) {
			t.Errorf("packet %d at x %v, want whole pixels at scale 1", i, p.Transform.Position.X)
		}
		r := assets.Region{Texture: p.Texture, Source: p.Source}
		px := regionPixels(t, rec, r)
		var ink int
		for j := 3; j < len(px.Pix); j += 4 {
			ink += int(px.Pix[j])
		}
		if ink == 0 {
			t.Errorf("packet %d: its glyph texels are empty on the GPU", i)
		}
	}
	if err := rec.Render(&render2d.Frame{Passes: []render2d.Pass{{Packets: ps}}}); err != nil {
		t.Errorf("recorder refuses the glyph packets: %v", err)
	}
}

func TestTextScaleAndSpacing(t *testing.T) {
	lib, f, _ := uploaded(t)
	_, one := layout(t, lib, f, "ab\ncd", assets.TextOptions{})
	_, two := layout(t, lib, f, "ab\ncd", assets.TextOptions{Scale: 2})
	_, spaced := layout(t, lib, f, "ab\ncd", assets.TextOptions{LineSpacing: 1.5})
	if two.Rect.W != 2*one.Rect.W || two.Rect.H != 2*one.Rect.H {
		t.Errorf("scale 2: %v, want twice %v", two.Rect, one.Rect)
	}
	if spaced.Rect.H != 1.5*one.Rect.H {
		t.Errorf("line spacing 1.5: height %v, want %v", spaced.Rect.H, 1.5*one.Rect.H)
	}
}

func TestTextErrors(t *testing.T) {
	lib, f, _ := uploaded(t)
	bad := []assets.TextOptions{
		{Width: -1},
		{Width: float32(math.NaN())},
		{Scale: float32(math.Inf(1))},
		{LineSpacing: -2},
		{Align: 7},
		{Blend: render2d.BlendModeCount},
	}
	for _, o := range bad {
		if _, _, err := lib.AppendText(nil, f, "x", o); !errors.Is(err, media.ErrInvalid) {
			t.Errorf("options %+v: got %v, want ErrInvalid", o, err)
		}
	}
	if err := lib.ReleaseFont(f); err != nil {
		t.Fatal(err)
	}
	if _, _, err := lib.AppendText(nil, f, "x", assets.TextOptions{}); !errors.Is(err, assets.ErrStale) {
		t.Errorf("layout with a released font: got %v, want ErrStale", err)
	}
	if _, err := lib.MeasureText(f, "x", assets.TextOptions{}); !errors.Is(err, assets.ErrStale) {
		t.Errorf("measure with a released font: got %v, want ErrStale", err)
	}
	if err := lib.ReleaseFont(f); !errors.Is(err, assets.ErrStale) {
		t.Errorf("second ReleaseFont: got %v, want ErrStale", err)
	}
}

func TestFontLoading(t *testing.T) {
	otf := append([]byte("OTTO"), goregular.TTF[4:]...) // TrueType tables behind a CFF signature
	ttc := append([]byte("ttcf"), goregular.TTF[4:]...)
	fsys := fstest.MapFS{
		"go.ttf":      {Data: goregular.TTF},
		"trunc.ttf":   {Data: goregular.TTF[:4000]},
		"garbage.ttf": {Data: []byte("definitely not a font file, just some words")},
		"cff.otf":     {Data: otf},
		"fonts.ttc":   {Data: ttc},
	}
	lib, keep, rec := uploaded(t)
	tests := []struct {
		file string
		size float64
		want error
		msg  string
	}{
		{"go.ttf", 24, nil, ""},
		{"go.ttf", 0, media.ErrInvalid, "size is 0"},
		{"go.ttf", math.NaN(), media.ErrInvalid, "size is NaN"},
		{"go.ttf", 1000, media.ErrInvalid, "want [1, 128]"}, // half the 256 page
		{"trunc.ttf", 16, media.ErrCorrupt, "not a readable TrueType font"},
		{"garbage.ttf", 16, media.ErrCorrupt, "unknown signature"},
		{"cff.otf", 16, media.ErrCorrupt, "not a readable OpenType (CFF) font"},
		{"fonts.ttc", 16, media.ErrUnsupported, "font collection"},
		{"missing.ttf", 16, fs.ErrNotExist, "does not exist"},
	}
	for _, tt := range tests {
		f, err := lib.LoadFont(fsys, tt.file, tt.size)
		if tt.want == nil {
			if err != nil {
				t.Errorf("LoadFont(%s, %v): %v", tt.file, tt.size, err)
			} else if _, _, err := lib.AppendText(nil, f, "ok", assets.TextOptions{}); err != nil {
				t.Errorf("layout with a loaded font: %v", err)
			}
			continue
		}
		if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.file) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("LoadFont(%s, %v): got %v, want %v naming the file and %q", tt.file, tt.size, err, tt.want, tt.msg)
		}
	}
	if _, err := lib.GoFont("comic", 12); !errors.Is(err, media.ErrInvalid) {
		t.Errorf("GoFont(comic): got %v, want ErrInvalid", err)
	}
	// The default font still works after every failure.
	ps, _, err := lib.AppendText(nil, keep, "still fine", assets.TextOptions{})
	if err != nil || len(ps) != 9 {
		t.Errorf("default font after failed loads: %d packets, %v", len(ps), err)
	}
	_ = rec
}

// TestParseFontSharesAParse: faces made from the same bytes share one
// parsed font, as GoFont's did, so a game that names its face's TTF for
// two sizes parses it once; other bytes are parsed on their own.
func TestParseFontSharesAParse(t *testing.T) {
	lib := newLib(t, small())
	for _, size := range []float64{12, 20, 36} {
		if _, err := lib.ParseFont(assets.GoBold, gobold.TTF, size); err != nil {
			t.Fatal(err)
		}
	}
	if got := lib.ParsedFonts(); got != 1 {
		t.Errorf("three sizes of one face: %d parses, want 1", got)
	}
	if _, err := lib.DefaultFont(16); err != nil {
		t.Fatal(err)
	}
	if _, err := lib.GoFont(assets.GoBold, 16); err != nil {
		t.Fatal(err)
	}
	if got := lib.ParsedFonts(); got != 2 {
		t.Errorf("after the default font and GoFont(GoBold): %d parses, want 2", got)
	}
	if _, err := lib.ParseFont("copy", append([]byte(nil), goregular.TTF...), 16); err != nil {
		t.Fatal(err)
	}
	if got := lib.ParsedFonts(); got != 3 {
		t.Errorf("after a copy of Go Regular's bytes: %d parses, want 3", got)
	}
}
