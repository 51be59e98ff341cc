// Package ttf reads the parts of a TrueType font (or an OpenType font with
// TrueType outlines) that text layout needs: the character map, horizontal
// metrics, glyph outlines and the kern table. It parses defensively: every
// read is bounds-checked, so damaged data yields an error, never a panic.
//
// The assets package reads TrueType-outline fonts with it and CFF-outline
// fonts with golang.org/x/image/font/sfnt; either is consulted only when a
// glyph or kerning pair is first needed, and rasterisation uses
// golang.org/x/image/vector for both.
package ttf

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrFormat is wrapped by every parsing error.
var ErrFormat = errors.New("ttf: malformed font")

// ErrUnsupported reports a valid font this package cannot read, such as an
// OpenType font with CFF outlines.
var ErrUnsupported = errors.New("ttf: unsupported font")

func formatErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, args...))
}

// Font is a parsed font. It keeps a reference to the data given to
// [Parse]. Its methods are safe for concurrent use.
type Font struct {
	data       []byte
	unitsPerEm int
	numGlyphs  int
	locaLong   bool
	ascent     int
	descent    int
	lineGap    int

	cmap        []byte // the chosen subtable
	cmapFormat  int
	hmtx        []byte
	numHMetrics int
	loca, glyf  []byte
	kernPairs   []byte // format 0 pairs, 6 bytes each, sorted
}

// Parse reads a font from data (a single font, not a collection).
func Parse(data []byte) (*Font, error) {
	if len(data) < 12 {
		return nil, formatErr("%d bytes is too short for a font header", len(data))
	}
	switch tag := string(data[:4]); tag {
	case "\x00\x01\x00\x00", "true":
	case "OTTO":
		return nil, fmt.Errorf("%w: OpenType with CFF outlines", ErrUnsupported)
	case "ttcf":
		return nil, fmt.Errorf("%w: font collection, want a single font", ErrUnsupported)
	default:
		return nil, formatErr("unknown signature %q", tag)
	}
	n := int(u16(data[4:]))
	if 12+16*n > len(data) {
		return nil, formatErr("table directory of %d entries exceeds %d bytes", n, len(data))
	}
	tables := make(map[string][]byte, n)
	for i := 0; i < n; i++ {
		e := data[12+16*i:]
		off, length := int64(u32(e[8:])), int64(u32(e[12:]))
		if off+length > int64(len(data)) {
			return nil, formatErr("table %q at %d+%d exceeds %d bytes", e[:4], off, length, len(data))
		}
		tables[string(e[:4])] = data[off : off+length]
	}
	f := &Font{data: data}
	for _, t := range []string{"head", "hhea", "maxp", "hmtx", "cmap", "loca", "glyf"} {
		if tables[t] == nil {
			if t == "glyf" || t == "loca" {
				return nil, fmt.Errorf("%w: no %s table (not TrueType outlines)", ErrUnsupported, t)
			}
			return nil, formatErr("missing %s table", t)
		}
	}
	head := tables["head"]
	if len(head) < 54 {
		return nil, formatErr("head table is %d bytes, want 54", len(head))
	}
	f.unitsPerEm = int(u16(head[18:]))
	if f.unitsPerEm < 16 || f.unitsPerEm > 16384 {
		return nil, formatErr("unitsPerEm is %d, want [16, 16384]", f.unitsPerEm)
	}
	f.locaLong = u16(head[50:]) != 0
	maxp := tables["maxp"]
	if len(maxp) < 6 {
		return nil, formatErr("maxp table is %d bytes, want at least 6", len(maxp))
	}
	f.numGlyphs = int(u16(maxp[4:]))
	if f.numGlyphs < 1 {
		return nil, formatErr("font has no glyphs")
	}
	hhea := tables["hhea"]
	if len(hhea) < 36 {
		return nil, formatErr("hhea table is %d bytes, want 36", len(hhea))
	}
	f.ascent, f.descent, f.lineGap = int(int16(u16(hhea[4:]))), int(int16(u16(hhea[6:]))), int(int16(u16(hhea[8:])))
	f.numHMetrics = int(u16(hhea[34:]))
	f.hmtx = tables["hmtx"]
	if f.numHMetrics < 1 || f.numHMetrics > f.numGlyphs || len(f.hmtx) < 4*f.numHMetrics {
		return nil, formatErr("%d horizontal metrics in %d bytes for %d glyphs", f.numHMetrics, len(f.hmtx), f.numGlyphs)
	}
	f.loca, f.glyf = tables["loca"], tables["glyf"]
	entry := 2
	if f.locaLong {
		entry = 4
	}
	if len(f.loca) < entry*(f.numGlyphs+1) {
		return nil, formatErr("loca table is %d bytes, want %d for %d glyphs", len(f.loca), entry*(f.numGlyphs+1), f.numGlyphs)
	}
	if err := f.parseCmap(tables["cmap"]); err != nil {
		return nil, err
	}
	if k := tables["kern"]; k != nil {
		f.parseKern(k) // a damaged kern table only loses kerning
	}
	return f, nil
}

func u16(b []byte) uint16 { return binary.BigEndian.Uint16(b) }
func u32(b []byte) uint32 { return binary.BigEndian.Uint32(b) }

// UnitsPerEm returns the font's design units per em.
func (f *Font) UnitsPerEm() int { return f.unitsPerEm }

// NumGlyphs returns the number of glyphs.
func (f *Font) NumGlyphs() int { return f.numGlyphs }

// VMetrics returns ascent (positive, up), descent (negative, down) and line
// gap in font units.
func (f *Font) VMetrics() (ascent, descent, lineGap int) { return f.ascent, f.descent, f.lineGap }

// HasKerning reports whether the font has kerning pairs this package reads.
func (f *Font) HasKerning() bool { return len(f.kernPairs) > 0 }

func (f *Font) parseCmap(t []byte) error {
	if len(t) < 4 {
		return formatErr("cmap table is %d bytes", len(t))
	}
	n := int(u16(t[2:]))
	if 4+8*n > len(t) {
		return formatErr("cmap has %d subtables in %d bytes", n, len(t))
	}
	best, bestRank := []byte(nil), 0
	bestFormat := 0
	for i := 0; i < n; i++ {
		e := t[4+8*i:]
		pid, eid, off := u16(e), u16(e[2:]), int64(u32(e[4:]))
		if off+4 > int64(len(t)) {
			continue
		}
		sub := t[off:]
		format := int(u16(sub))
		rank := 0
		switch {
		case format == 12 && (pid == 0 || (pid == 3 && eid == 10)):
			rank = 3
		case format == 4 && (pid == 0 || (pid == 3 && eid == 1)):
			rank = 2
		}
		if rank > bestRank {
			best, bestRank, bestFormat = sub, rank, format
		}
	}
	if best == nil {
		return fmt.Errorf("%w: no Unicode character map of format 4 or 12", ErrUnsupported)
	}
	switch bestFormat {
	case 4:
		if len(best) < 14 {
			return formatErr("cmap format 4 subtable is %d bytes", len(best))
		}
		length := int(u16(best[2:]))
		segX2 := int(u16(best[6:]))
		if length > len(best) {
			length = len(best) // some fonts overstate it; the checks below still hold
		}
		if segX2%2 != 0 || 16+4*segX2 > length {
			return formatErr("cmap format 4 with %d segment bytes in %d bytes", segX2, length)
		}
		best = best[:length]
	case 12:
		if len(best) < 16 {
			return formatErr("cmap format 12 subtable is %d bytes", len(best))
		}
		groups := int64(u32(best[12:]))
		if 16+12*groups > int64(len(best)) {
			return formatErr("cmap format 12 with %d groups in %d bytes", groups, len(best))
		}
		best = best[:16+12*groups]
	}
	f.cmap, f.cmapFormat = best, bestFormat
	return nil
}

// Index returns the glyph of r, or 0 (the missing-glyph box) when the font
// has none.
func (f *Font) Index(r rune) uint16 {
	if r < 0 || r > 0x10FFFF {
		return 0
	}
	var g uint32
	switch f.cmapFormat {
	case 4:
		g = f.index4(r)
	case 12:
		g = f.index12(r)
	}
	if g >= uint32(f.numGlyphs) {
		return 0
	}
	return uint16(g)
}

func (f *Font) index4(r rune) uint32 {
	if r > 0xFFFF {
		return 0
	}
	c := uint16(r)
	t := f.cmap
	segX2 := int(u16(t[6:]))
	ends, starts, deltas, offsets := 14, 16+segX2, 16+2*segX2, 16+3*segX2
	lo, hi := 0, segX2/2
	for lo < hi {
		m := (lo + hi) / 2
		if u16(t[ends+2*m:]) < c {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo >= segX2/2 {
		return 0
	}
	start := u16(t[starts+2*lo:])
	if c < start {
		return 0
	}
	delta := u16(t[deltas+2*lo:])
	ro := int(u16(t[offsets+2*lo:]))
	if ro == 0 {
		return uint32(c + delta)
	}
	at := offsets + 2*lo + ro + 2*int(c-start)
	if at+2 > len(t) {
		return 0
	}
	g := u16(t[at:])
	if g == 0 {
		return 0
	}
	return uint32(g + delta)
}

func (f *Font) index12(r rune) uint32 {
	t := f.cmap
	c := uint32(r)
	lo, hi := 0, (len(t)-16)/12
	for lo < hi {
		m := (lo + hi) / 2
		g := t[16+12*m:]
		switch {
		case c < u32(g):
			hi = m
		case c > u32(g[4:]):
			lo = m + 1
		default:
			return u32(g[8:]) + c - u32(g)
		}
	}
	return 0
}

// Advance returns the advance width of glyph g in font units.
func (f *Font) Advance(g uint16) int {
	i := min(int(g), f.numHMetrics-1)
	return int(u16(f.hmtx[4*i:]))
}

func (f *Font) parseKern(t []byte) {
	if len(t) < 4 || u16(t) != 0 {
		return // only the common version 0 layout
	}
	n := int(u16(t[2:]))
	off := 4
	for i := 0; i < n && off+6 <= len(t); i++ {
		length := int(u16(t[off+2:]))
		coverage := u16(t[off+4:])
		sub := t[off:]
		if length >= 6 && length <= len(sub) {
			sub = sub[:length]
		}
		// Format 0, horizontal, not minimum or cross-stream.
		if coverage>>8 == 0 && coverage&0x7 == 1 && len(sub) >= 14 {
			pairs := int(u16(sub[6:]))
			if 14+6*pairs <= len(sub) {
				f.kernPairs = sub[14 : 14+6*pairs]
				return
			}
		}
		if length < 6 {
			return
		}
		off += length
	}
}

// Kern returns the kerning between glyphs a and b in font units.
func (f *Font) Kern(a, b uint16) int {
	key := uint32(a)<<16 | uint32(b)
	t := f.kernPairs
	lo, hi := 0, len(t)/6
	for lo < hi {
		m := (lo + hi) / 2
		k := u32(t[6*m:])
		switch {
		case k < key:
			lo = m + 1
		case k > key:
			hi = m
		default:
			return int(int16(u16(t[6*m+4:])))
		}
	}
	return 0
}
