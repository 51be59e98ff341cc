package assets_test

import (
	"encoding/binary"
	"sort"
	"testing"

	"golang.org/x/image/font/gofont/goregular"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/assets/internal/ttf"
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

func TestKerning(t *testing.T) {
	lib := newLib(t, small())
	plain, err := lib.ParseFont("plain", goregular.TTF, 64)
	if err != nil {
		t.Fatal(err)
	}
	// Glyph indices of A and V in Go Regular, found through the plain font's
	// layout being unaffected: the kern table names them directly.
	a, v := glyphIndex(t, 'A'), glyphIndex(t, 'V')
	kerned, err := lib.ParseFont("kerned", withKern(t, goregular.TTF, map[[2]uint16]int16{{a, v}: -400}), 64)
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
			t.Errorf("%q: kerned minus plain width = %v, want %v", tt.text, got, tt.diff)
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
