package assets

import (
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// cffFont is an OpenType font with CFF (PostScript) outlines, read through
// golang.org/x/image/font/sfnt. TrueType fonts keep the package's own
// reader (internal/ttf); both feed the same rasteriser and caches, so
// layout cannot tell them apart.
//
// sfnt works in 26.6 fixed-point pixels at a given size, so unlike the
// TrueType path every query takes the face's ppem. The buffer and the last
// loaded segments are scratch space guarded by the library's mutex.
type cffFont struct {
	f    *sfnt.Font
	buf  sfnt.Buffer
	segs sfnt.Segments // last outline loaded; aliases buf
}

// isCFF reports whether data starts with the signature of an OpenType font
// with CFF outlines.
func isCFF(data []byte) bool { return len(data) >= 4 && string(data[:4]) == "OTTO" }

// parseCFF parses data and loads the outlines of the missing-glyph box and
// of "a", so that a damaged file fails here rather than as missing glyphs
// later.
func parseCFF(data []byte) (*cffFont, error) {
	f, err := sfnt.Parse(data)
	if err != nil {
		return nil, detail(ErrCorrupt, "not a readable OpenType (CFF) font: %v", err)
	}
	if upem := int(f.UnitsPerEm()); upem < 16 || upem > 16384 {
		return nil, detail(ErrCorrupt, "unitsPerEm is %d, want [16, 16384]", upem)
	}
	if n := f.NumGlyphs(); n < 1 {
		return nil, detail(ErrCorrupt, "font has no glyphs")
	}
	c := &cffFont{f: f}
	const probe = 16 << 6 // any size will do to run the charstrings
	for _, r := range []rune{0, 'a'} {
		g := c.index(r)
		if _, err := f.LoadGlyph(&c.buf, sfnt.GlyphIndex(g), probe, nil); err != nil {
			return nil, detail(ErrCorrupt, "glyph %d: %v", g, err)
		}
		if _, err := f.GlyphAdvance(&c.buf, sfnt.GlyphIndex(g), probe, font.HintingNone); err != nil {
			return nil, detail(ErrCorrupt, "advance of glyph %d: %v", g, err)
		}
	}
	if _, err := f.Metrics(&c.buf, probe, font.HintingNone); err != nil {
		return nil, detail(ErrCorrupt, "metrics: %v", err)
	}
	return c, nil
}

// ppemOf is a face size in 26.6 fixed point.
func ppemOf(size float64) fixed.Int26_6 { return fixed.Int26_6(math.Round(size * 64)) }

// px converts 26.6 fixed point to pixels.
func px(v fixed.Int26_6) float64 { return float64(v) / 64 }

// metrics returns ascent, descent (positive, below the baseline) and line
// height in whole pixels, rounded as for TrueType faces.
func (c *cffFont) metrics(ppem fixed.Int26_6) (ascent, descent, lineHeight int) {
	m, err := c.f.Metrics(&c.buf, ppem, font.HintingNone)
	if err != nil { // checked by parseCFF; cannot fail afterwards
		return 0, 0, 1
	}
	return int(math.Ceil(px(m.Ascent))), int(math.Ceil(px(m.Descent))), max(1, int(math.Round(px(m.Height))))
}

// index returns r's glyph, 0 (the missing-glyph box) when the font has none.
func (c *cffFont) index(r rune) uint16 {
	g, err := c.f.GlyphIndex(&c.buf, r)
	if err != nil {
		return 0
	}
	return uint16(g)
}

// advance returns glyph g's advance in whole pixels, 0 when unreadable.
func (c *cffFont) advance(g uint16, ppem fixed.Int26_6) int32 {
	a, err := c.f.GlyphAdvance(&c.buf, sfnt.GlyphIndex(g), ppem, font.HintingNone)
	if err != nil {
		return 0
	}
	return int32(math.Round(px(a)))
}

// kern returns the kerning between glyphs a and b (GPOS pair adjustment or
// the kern table) in whole pixels; 0 for pairs the font does not kern.
func (c *cffFont) kern(a, b uint16, ppem fixed.Int26_6) int32 {
	k, err := c.f.Kern(&c.buf, sfnt.GlyphIndex(a), sfnt.GlyphIndex(b), ppem, font.HintingNone)
	if err != nil {
		return 0
	}
	return int32(math.Round(px(k)))
}

// load reads glyph g's outline at ppem into c.segs and returns its bounds
// in pixels, y down, with the pen at the origin on the baseline. ok is
// false for an empty or unreadable outline.
func (c *cffFont) load(g uint16, ppem fixed.Int26_6) (minX, minY, maxX, maxY float32, ok bool) {
	segs, err := c.f.LoadGlyph(&c.buf, sfnt.GlyphIndex(g), ppem, nil)
	c.segs = segs
	if err != nil || len(segs) == 0 {
		c.segs = nil
		return 0, 0, 0, 0, false
	}
	minX, minY = float32(math.Inf(1)), float32(math.Inf(1))
	maxX, maxY = float32(math.Inf(-1)), float32(math.Inf(-1))
	for i := range segs {
		s := &segs[i]
		for _, p := range s.Args[:segArgs(s.Op)] {
			x, y := float32(px(p.X)), float32(px(p.Y))
			minX, maxX = min(minX, x), max(maxX, x)
			minY, maxY = min(minY, y), max(maxY, y)
		}
	}
	return minX, minY, maxX, maxY, true
}

// segArgs is how many points of Segment.Args an operator uses.
func segArgs(op sfnt.SegmentOp) int {
	switch op {
	case sfnt.SegmentOpQuadTo:
		return 2
	case sfnt.SegmentOpCubeTo:
		return 3
	}
	return 1
}

// trace feeds the outline last loaded to ras, shifted by (-ox, -oy)
// pixels. Every contour is closed: sfnt starts each with a MoveTo and the
// rasteriser closes the previous one implicitly, but closing explicitly
// keeps a damaged font's open path from leaking into the next contour.
func (c *cffFont) trace(ras *vector.Rasterizer, ox, oy float32) {
	at := func(p fixed.Point26_6) (float32, float32) {
		return float32(px(p.X)) - ox, float32(px(p.Y)) - oy
	}
	open := false
	for i := range c.segs {
		s := &c.segs[i]
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			if open {
				ras.ClosePath()
			}
			x, y := at(s.Args[0])
			ras.MoveTo(x, y)
			open = true
		case sfnt.SegmentOpLineTo:
			x, y := at(s.Args[0])
			ras.LineTo(x, y)
		case sfnt.SegmentOpQuadTo:
			x0, y0 := at(s.Args[0])
			x1, y1 := at(s.Args[1])
			ras.QuadTo(x0, y0, x1, y1)
		case sfnt.SegmentOpCubeTo:
			x0, y0 := at(s.Args[0])
			x1, y1 := at(s.Args[1])
			x2, y2 := at(s.Args[2])
			ras.CubeTo(x0, y0, x1, y1, x2, y2)
		}
	}
	if open {
		ras.ClosePath()
	}
}
