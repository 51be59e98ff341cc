package ttf_test

import (
	"encoding/binary"
	"sort"
)

// tinyFont builds a minimal TrueType font by hand: glyph 0 is empty, glyph
// 1 ('a') a 500-unit square, glyph 2 ('b') a triangle with an off-curve
// point, glyph 3 ('c') a composite of glyph 1 shifted right by 100. 'a'
// then 'b' kern by -50. It is small, so fuzzing mutates it quickly, and
// every value in it is known.
func tinyFont() []byte {
	be := binary.BigEndian
	u16 := func(v ...int) []byte {
		b := make([]byte, 2*len(v))
		for i, x := range v {
			be.PutUint16(b[2*i:], uint16(x))
		}
		return b
	}
	cat := func(parts ...[]byte) []byte {
		var out []byte
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	head := make([]byte, 54)
	be.PutUint16(head[18:], 1000) // unitsPerEm
	be.PutUint16(head[50:], 0)    // short loca
	hhea := make([]byte, 36)
	be.PutUint16(hhea[4:], 800)            // ascent
	be.PutUint16(hhea[6:], uint16(0xFF38)) // descent -200
	be.PutUint16(hhea[8:], 100)            // line gap
	be.PutUint16(hhea[34:], 4)             // numberOfHMetrics
	maxp := cat(u16(0, 0x5000), u16(4))    // version 0.5, 4 glyphs
	hmtx := u16(500, 0, 600, 0, 700, 0, 800, 0)

	// glyph 1: square, all on-curve, 4 points, coordinates as words.
	square := cat(u16(1, 0, 0, 500, 500), u16(3), u16(0),
		[]byte{1, 1, 1, 1},
		u16(0, 500, 0, 0xFE0C), // x deltas: 0, +500, 0, -500
		u16(0, 0, 500, 0))      // y deltas: 0, 0, +500, 0
	// glyph 2: triangle with one off-curve control point.
	tri := cat(u16(1, 0, 0, 400, 400), u16(2), u16(0),
		[]byte{1, 0, 1},
		u16(0, 200, 200),
		u16(0, 400, 0xFE70)) // y: 0, +400, -400
	// glyph 3: composite of glyph 1 at (+100, 0), word arguments, xy values.
	comp := cat(u16(0xFFFF, 0, 0, 600, 500), u16(0x0003, 1), u16(100, 0))
	pad := func(b []byte) []byte {
		if len(b)%2 == 1 {
			b = append(b, 0)
		}
		return b
	}
	square, tri, comp = pad(square), pad(tri), pad(comp)
	glyf := cat(square, tri, comp)
	o1, o2, o3 := len(square), len(square)+len(tri), len(glyf)
	loca := u16(0, 0, o1/2, o2/2, o3/2)

	// cmap: one format 4 subtable, segments 'a'-'c' and the 0xFFFF end.
	seg := 2
	sub := cat(u16(4, 0, 0, 2*seg, 2, 0, 0),
		u16('c', 0xFFFF), u16(0),
		u16('a', 0xFFFF),
		u16(1-'a', 1), // delta: 'a' -> 1
		u16(0, 0))
	be.PutUint16(sub[2:], uint16(len(sub)))
	cmap := cat(u16(0, 1), u16(3, 1), []byte{0, 0, 0, 12}, sub)

	kern := cat(u16(0, 1), u16(0, 6+8+6, 1), u16(1, 0, 0, 0), u16(1, 2, 0xFFCE))

	tables := map[string][]byte{"head": head, "hhea": hhea, "maxp": maxp, "hmtx": hmtx,
		"loca": loca, "glyf": glyf, "cmap": cmap, "kern": kern}
	tags := make([]string, 0, len(tables))
	for t := range tables {
		tags = append(tags, t)
	}
	sort.Strings(tags)
	out := cat([]byte{0, 1, 0, 0}, u16(len(tags), 0, 0, 0))
	out = append(out, make([]byte, 16*len(tags))...)
	for i, t := range tags {
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
		e := out[12+16*i:]
		copy(e, t)
		be.PutUint32(e[8:], uint32(len(out)))
		be.PutUint32(e[12:], uint32(len(tables[t])))
		out = append(out, tables[t]...)
	}
	return out
}
