package assets_test

import (
	"encoding/binary"
	"image"
	"sort"
	"testing"

	"golang.org/x/image/font/gofont/goregular"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/assets/internal/ttf"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// withKern returns a copy of a TrueType font with a version 0 kern table
// holding the given pairs of glyph indices (font units).
func withKern(t testing.TB, font []byte, pairs map[[2]uint16]int16) []byte {
	t.Helper()
	be := binary.BigEndian
	n := int(be.Uint16(font[4:]))
	type table struct {
		tag  string
		data []byte
	}
	var tables []table
	for i := 0; i < n; i++ {
		e := font[12+16*i:]
		off, l := be.Uint32(e[8:]), be.Uint32(e[12:])
		tables = append(tables, table{string(e[:4]), font[off : off+l]})
	}
	keys := make([][2]uint16, 0, len(pairs))
	for k := range pairs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return uint32(keys[i][0])<<16|uint32(keys[i][1]) < uint32(keys[j][0])<<16|uint32(keys[j][1])
	})
	kern := make([]byte, 4+14+6*len(keys))
	be.PutUint16(kern[2:], 1)                      // one subtable
	be.PutUint16(kern[6:], uint16(14+6*len(keys))) // subtable length
	be.PutUint16(kern[8:], 1)                      // horizontal, format 0
	be.PutUint16(kern[10:], uint16(len(keys)))
	for i, k := range keys {
		p := kern[18+6*i:]
		be.PutUint16(p, k[0])
		be.PutUint16(p[2:], k[1])
		be.PutUint16(p[4:], uint16(pairs[k]))
	}
	tables = append(tables, table{"kern", kern})
	sort.Slice(tables, func(i, j int) bool { return tables[i].tag < tables[j].tag })
	out := make([]byte, 12+16*len(tables))
	copy(out, font[:12])
	be.PutUint16(out[4:], uint16(len(tables)))
	for i, tb := range tables {
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
		e := out[12+16*i:]
		copy(e, tb.tag)
		be.PutUint32(e[8:], uint32(len(out)))
		be.PutUint32(e[12:], uint32(len(tb.data)))
		out = append(out, tb.data...)
	}
	return out
}

// TestKerning runs a kern table through both readers: the TrueType one and
// sfnt (which CFF-outline fonts use).
func TestKerning(t *testing.T) {
	lib := newLib(t, small())
	// Glyph indices of A and V in Go Regular, found through the plain font's
	// layout being unaffected: the kern table names them directly.
	a, v := glyphIndex(t, 'A'), glyphIndex(t, 'V')
	data := withKern(t, goregular.TTF, map[[2]uint16]int16{{a, v}: -400})
	for _, reader := range []struct {
		name  string
		parse func(string, []byte, float64) (assets.Font, error)
	}{{"ttf", lib.ParseFont}, {"sfnt", lib.ParseFontSfnt}} {
		plain, err := reader.parse("plain", goregular.TTF, 64)
		if err != nil {
			t.Fatal(err)
		}
		kerned, err := reader.parse("kerned", data, 64)
		if err != nil {
			t.Fatal(err)
		}
		measure := func(f assets.Font, s string) float32 {
			b, err := lib.MeasureText(f, s, assets.TextOptions{})
			if err != nil {
				t.Fatal(err)
			}
			return b.Rect.W
		}
		// -400 units at 64 px per 2048-unit em is -12.5 px, rounded to -13.
		tests := []struct {
			text string
			diff float32
		}{
			{"AV", -13},
			{"VA", 0},
			{"AAVV", -13},
			{"A V", 0},
			{"AVAV", -26},
		}
		for _, tt := range tests {
			if got := measure(kerned, tt.text) - measure(plain, tt.text); got != tt.diff {
				t.Errorf("%s %q: kerned minus plain width = %v, want %v", reader.name, tt.text, got, tt.diff)
			}
		}
	}
}

// TestReadersAgree lays the same text out in Go Regular read by the
// TrueType reader and by sfnt: metrics, advances and glyph quads match, so
// a font lays out the same whichever reader its outlines need.
func TestReadersAgree(t *testing.T) {
	const text = "Grüße, naïve café! Ωμέγα AVAWAY 0123456789\nquick brown fox"
	for _, size := range []float64{11, 16, 37} {
		opts := assets.DefaultOptions()
		opts.PageSize = 1024 // room for both faces' glyphs in the spare page
		lib := newLib(t, opts)
		tf, err := lib.ParseFont("go.ttf", goregular.TTF, size)
		if err != nil {
			t.Fatal(err)
		}
		sf, err := lib.ParseFontSfnt("go.ttf", goregular.TTF, size)
		if err != nil {
			t.Fatal(err)
		}
		rec := rendertest.NewRecorder(64, 64, 4096)
		if err := lib.Upload(rec); err != nil {
			t.Fatal(err)
		}
		tm, _ := lib.Metrics(tf)
		sm, _ := lib.Metrics(sf)
		if tm != sm {
			t.Errorf("size %v: metrics ttf %+v, sfnt %+v", size, tm, sm)
		}
		tp, tb := layout(t, lib, tf, text, assets.TextOptions{Width: 150})
		sp, sb := layout(t, lib, sf, text, assets.TextOptions{Width: 150})
		if tb != sb || len(tp) != len(sp) {
			t.Fatalf("size %v: bounds ttf %+v, sfnt %+v", size, tb, sb)
		}
		for i := range tp {
			if tp[i].Transform.Position != sp[i].Transform.Position || tp[i].Size != sp[i].Size {
				t.Errorf("size %v glyph %d: ttf quad at %v size %v, sfnt at %v size %v", size, i,
					tp[i].Transform.Position, tp[i].Size, sp[i].Transform.Position, sp[i].Size)
			}
		}
		// And the same pixels, but for curves flattened a little
		// differently: coverage within 8 of 255.
		if err := lib.Upload(rec); err != nil {
			t.Fatal(err)
		}
		pages := map[render2d.TextureHandle]*image.RGBA{}
		alpha := func(p render2d.DrawPacket2D, x, y int) int {
			img := pages[p.Texture]
			if img == nil {
				if img, err = rec.Texels(p.Texture); err != nil {
					t.Fatal(err)
				}
				pages[p.Texture] = img
			}
			return int(img.RGBAAt(int(p.Source.X)+x, int(p.Source.Y)+y).A)
		}
		for i := range tp {
		pixels:
			for y := 0; y < int(tp[i].Source.H); y++ {
				for x := 0; x < int(tp[i].Source.W); x++ {
					if a, b := alpha(tp[i], x, y), alpha(sp[i], x, y); a-b > 8 || b-a > 8 {
						t.Errorf("size %v glyph %d: coverage at (%d, %d): ttf %d, sfnt %d", size, i, x, y, a, b)
						break pixels
					}
				}
			}
		}
	}
}

func glyphIndex(t testing.TB, r rune) uint16 {
	t.Helper()
	f, err := ttf.Parse(goregular.TTF)
	if err != nil {
		t.Fatal(err)
	}
	return f.Index(r)
}
