package ttf_test

import (
	"errors"
	"testing"

	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/metronome-go/metronome/assets/internal/ttf"
)

func parse(t testing.TB, data []byte) *ttf.Font {
	t.Helper()
	f, err := ttf.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestGoFontCoverage(t *testing.T) {
	f := parse(t, goregular.TTF)
	if got := f.UnitsPerEm(); got != 2048 {
		t.Errorf("UnitsPerEm: got %d, want 2048", got)
	}
	for _, r := range "AZaz09Grüße, naïve café, ΩμέγαЖж€" {
		if f.Index(r) == 0 {
			t.Errorf("Index(%q) = 0, want a glyph", r)
		}
	}
	for _, r := range []rune{0x4E00, 0x1F600, -1, 0x110000} {
		if g := f.Index(r); g != 0 {
			t.Errorf("Index(%U) = %d, want 0 (missing)", r, g)
		}
	}
	if f.Advance(f.Index('i')) >= f.Advance(f.Index('m')) {
		t.Errorf("advance of i is not below that of m")
	}
	mono := parse(t, gomono.TTF)
	if a, b := mono.Advance(mono.Index('i')), mono.Advance(mono.Index('m')); a != b {
		t.Errorf("Go Mono advances differ: i %d, m %d", a, b)
	}
	if asc, desc, _ := f.VMetrics(); asc <= 0 || desc >= 0 {
		t.Errorf("VMetrics: ascent %d, descent %d; want positive and negative", asc, desc)
	}
	if f.HasKerning() {
		t.Errorf("Go Regular has no kern table, HasKerning = true")
	}
}

func TestOutlines(t *testing.T) {
	f := parse(t, goregular.TTF)
	var o ttf.Outline
	tests := []struct {
		r        rune
		contours int
	}{
		{'o', 2},
		{'l', 1},
		{'B', 3},
		{' ', 0},
		{'ü', 3}, // a composite in Go Regular: u plus two dots
		{'é', 3}, // e (two contours) and the accent
	}
	for _, tt := range tests {
		if err := f.LoadOutline(f.Index(tt.r), &o); err != nil {
			t.Fatalf("LoadOutline(%q): %v", tt.r, err)
		}
		if len(o.Ends) != tt.contours {
			t.Errorf("%q: %d contours, want %d", tt.r, len(o.Ends), tt.contours)
		}
		if n := len(o.Ends); n > 0 && o.Ends[n-1] != len(o.Points) {
			t.Errorf("%q: last contour ends at %d of %d points", tt.r, o.Ends[n-1], len(o.Points))
		}
		for _, p := range o.Points {
			if p.X < -200 || p.X > 2500 || p.Y < -700 || p.Y > 2500 {
				t.Errorf("%q: point %v outside the em box", tt.r, p)
				break
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	cff := append([]byte("OTTO"), goregular.TTF[4:]...)
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ttf.ErrFormat},
		{"short", goregular.TTF[:11], ttf.ErrFormat},
		{"unknown tag", []byte("wOFF00000000000000000000"), ttf.ErrFormat},
		{"CFF", cff, ttf.ErrUnsupported},
		{"collection", append([]byte("ttcf"), goregular.TTF[4:]...), ttf.ErrUnsupported},
		{"directory cut", goregular.TTF[:100], ttf.ErrFormat},
		{"tables cut", goregular.TTF[:2000], ttf.ErrFormat},
	}
	for _, tt := range tests {
		if _, err := ttf.Parse(tt.data); !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(tinyFont())
	f.Add(goregular.TTF)
	f.Add([]byte("\x00\x01\x00\x00\x00\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		font, err := ttf.Parse(data)
		if err != nil {
			return
		}
		var o ttf.Outline
		for _, r := range "Aaé Ω\x00" {
			g := font.Index(r)
			_ = font.Advance(g)
			_ = font.Kern(g, g)
			_ = font.LoadOutline(g, &o)
		}
		for g := 0; g < min(font.NumGlyphs(), 64); g++ {
			_ = font.LoadOutline(uint16(g), &o)
		}
	})
}

func TestTinyFont(t *testing.T) {
	f := parse(t, tinyFont())
	if f.NumGlyphs() != 4 || f.UnitsPerEm() != 1000 {
		t.Fatalf("NumGlyphs %d, UnitsPerEm %d; want 4, 1000", f.NumGlyphs(), f.UnitsPerEm())
	}
	if a, d, g := f.VMetrics(); a != 800 || d != -200 || g != 100 {
		t.Errorf("VMetrics: %d %d %d, want 800 -200 100", a, d, g)
	}
	for r, want := range map[rune]uint16{'a': 1, 'b': 2, 'c': 3, 'd': 0, 'A': 0} {
		if got := f.Index(r); got != want {
			t.Errorf("Index(%q) = %d, want %d", r, got, want)
		}
	}
	if got := f.Advance(2); got != 700 {
		t.Errorf("Advance(2) = %d, want 700", got)
	}
	if !f.HasKerning() || f.Kern(1, 2) != -50 || f.Kern(2, 1) != 0 {
		t.Errorf("kerning: has %v, a-b %d, b-a %d; want true, -50, 0", f.HasKerning(), f.Kern(1, 2), f.Kern(2, 1))
	}
	var o ttf.Outline
	tests := []struct {
		g      uint16
		points []ttf.Point
	}{
		{0, nil},
		{1, []ttf.Point{{0, 0, true}, {500, 0, true}, {500, 500, true}, {0, 500, true}}},
		{2, []ttf.Point{{0, 0, true}, {200, 400, false}, {400, 0, true}}},
		{3, []ttf.Point{{100, 0, true}, {600, 0, true}, {600, 500, true}, {100, 500, true}}},
	}
	for _, tt := range tests {
		if err := f.LoadOutline(tt.g, &o); err != nil {
			t.Fatalf("LoadOutline(%d): %v", tt.g, err)
		}
		if len(o.Points) != len(tt.points) {
			t.Errorf("glyph %d: %v, want %v", tt.g, o.Points, tt.points)
			continue
		}
		for i := range o.Points {
			if o.Points[i] != tt.points[i] {
				t.Errorf("glyph %d point %d: got %v, want %v", tt.g, i, o.Points[i], tt.points[i])
			}
		}
	}
	if err := f.LoadOutline(9, &o); !errors.Is(err, ttf.ErrFormat) {
		t.Errorf("LoadOutline(9) of a 4-glyph font: got %v, want ErrFormat", err)
	}
}
