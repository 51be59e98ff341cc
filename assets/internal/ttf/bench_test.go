package ttf_test

import (
	"testing"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"github.com/metronome-go/metronome/assets/internal/ttf"
)

func BenchmarkParseAndLoad(b *testing.B) {
	b.ReportAllocs()
	var o ttf.Outline
	for b.Loop() {
		font, err := ttf.Parse(goregular.TTF)
		if err != nil {
			b.Fatal(err)
		}
		for g := 0; g < 64; g++ {
			_ = font.LoadOutline(uint16(g), &o)
		}
	}
}

// BenchmarkReaders compares this reader with golang.org/x/image/font/sfnt
// (which assets uses for CFF outlines) on the work a glyph cache miss does
// for a TrueType font: rune to glyph, advance, outline. It is the evidence
// for keeping this reader for TrueType fonts.
func BenchmarkReaders(b *testing.B) {
	const text = "Grüße, naïve café! Ωμέγα 0123456789 quick brown fox."
	b.Run("ttf", func(b *testing.B) {
		b.ReportAllocs()
		font, err := ttf.Parse(goregular.TTF)
		if err != nil {
			b.Fatal(err)
		}
		var o ttf.Outline
		for b.Loop() {
			for _, r := range text {
				g := font.Index(r)
				_ = font.Advance(g)
				_ = font.LoadOutline(g, &o)
			}
		}
	})
	b.Run("sfnt", func(b *testing.B) {
		b.ReportAllocs()
		font, err := sfnt.Parse(goregular.TTF)
		if err != nil {
			b.Fatal(err)
		}
		var buf sfnt.Buffer
		const ppem = fixed.Int26_6(2048 << 6)
		for b.Loop() {
			for _, r := range text {
				g, _ := font.GlyphIndex(&buf, r)
				_, _ = font.GlyphAdvance(&buf, g, ppem, xfont.HintingNone)
				_, _ = font.LoadGlyph(&buf, g, ppem, nil)
			}
		}
	})
	b.Run("parse-ttf", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ttf.Parse(goregular.TTF); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parse-sfnt", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := sfnt.Parse(goregular.TTF); err != nil {
				b.Fatal(err)
			}
		}
	})
}
