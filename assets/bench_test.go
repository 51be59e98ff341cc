package assets_test

import (
	"image"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/render2d"
)

// line200 is a 200-character line of mixed text.
var line200 = strings.Repeat("Grüße, naïve café! Ωμέγα 0123456789 quick brown fox. ", 4)[:200]

func BenchmarkLayout200(b *testing.B) {
	lib, f, _ := uploaded(b)
	dst, _, _ := lib.AppendText(nil, f, line200, assets.TextOptions{}) // warm the glyph cache
	// The floor: copying as many ready packets as the layout writes.
	b.Run("baseline-copy", func(b *testing.B) {
		b.ReportAllocs()
		src := append([]render2d.DrawPacket2D(nil), dst...)
		out := make([]render2d.DrawPacket2D, 0, len(src))
		for b.Loop() {
			out = append(out[:0], src...)
		}
	})
	b.Run("layout", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			dst, _, _ = lib.AppendText(dst[:0], f, line200, assets.TextOptions{})
		}
	})
	b.Run("layout-wrapped-centred", func(b *testing.B) {
		b.ReportAllocs()
		o := assets.TextOptions{Width: 300, Align: assets.AlignCenter}
		for b.Loop() {
			dst, _, _ = lib.AppendText(dst[:0], f, line200, o)
		}
	})
	b.Run("measure", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = lib.MeasureText(f, line200, assets.TextOptions{})
		}
	})
	// The same layout with a CFF-outline font: after the first line the
	// path is the same cache, so it should cost the same.
	cff, err := lib.ParseFont("CFFTest.otf", cffData(b), 16)
	if err != nil {
		b.Fatal(err)
	}
	dst, _, _ = lib.AppendText(dst[:0], cff, cffLine200, assets.TextOptions{})
	b.Run("layout-cff", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			dst, _, _ = lib.AppendText(dst[:0], cff, cffLine200, assets.TextOptions{})
		}
	})
}

// cffLine200 is a 200-character line of the glyphs CFFTest.otf has, with
// spaces (which it lacks: they draw its missing-glyph box).
var cffLine200 = strings.Repeat("0110 Q中Q 1001 QQ 中0 ", 10)[:200]

// sizes1000 are the sides of 1,000 sprite-sized images, 8 to 64 pixels.
func sizes1000() []image.Point {
	rng := rand.New(rand.NewPCG(7, 11))
	s := make([]image.Point, 1000)
	for i := range s {
		s[i] = image.Pt(8+rng.IntN(57), 8+rng.IntN(57))
	}
	return s
}

func BenchmarkPack1000(b *testing.B) {
	sizes := sizes1000()
	b.Run("packer", func(b *testing.B) {
		b.ReportAllocs()
		p := assets.NewPacker(2048, 2048)
		for b.Loop() {
			p.Reset()
			for _, s := range sizes {
				if _, ok := p.Pack(s.X+3, s.Y+3); !ok {
					b.Fatal("1000 images did not fit a 2048 page")
				}
			}
		}
	})
	imgs := make([]*image.RGBA, len(sizes))
	for i, s := range sizes {
		imgs[i] = pattern(s.X, s.Y, uint8(i))
	}
	b.Run("library", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			lib, _ := assets.NewLibrary(assets.DefaultOptions())
			for _, img := range imgs {
				if _, err := lib.AddImage("x", img); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
