// Package cffont reads OpenType fonts with CFF (PostScript) outlines
// through golang.org/x/image/font/sfnt, for package assets. Its reader is
// linked only into games that import package assets/cff, which sets
// [Parse]: sfnt is a few hundred kilobytes of every browser build, and
// most games draw TrueType faces, which assets reads itself.
package cffont

import (
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"github.com/metronome-go/metronome/media"
)

// Outlines is what assets asks of a font with CFF outlines: *[Font]'s
// methods, so that package assets names no sfnt code of its own.
type Outlines interface {
	UnitsPerEm() int
	HasKerning() bool
	VMetrics() (ascent, descent, lineGap int)
	Index(r rune) uint16
	Advance(g uint16) int
	Kern(a, b uint16) int
	Load(g uint16, scale float32) (minX, minY, maxX, maxY float32, ok bool)
	Trace(ras *vector.Rasterizer, scale, ox, oy float32)
}

// Parse reads a font with CFF outlines; nil until package assets/cff is
// imported, which sets it to [ParseFont].
var Parse func(data []byte) (Outlines, error)

// Font is an OpenType font with CFF (PostScript) outlines, read through
// golang.org/x/image/font/sfnt. TrueType fonts keep the package's own
// reader (internal/ttf); both feed the same rasteriser and caches, so
// layout cannot tell them apart.
//
// sfnt answers in 26.6 fixed-point pixels at a given ppem. Every query here
// passes a ppem of unitsPerEm/64 pixels, which makes sfnt's scaling the
// identity: the answers are font units, exact, and the face scales them to
// pixels with the same float arithmetic as a TrueType face (scaling in
// sfnt and rounding again would differ by a pixel at half-pixel values).
// The buffer and the last loaded segments are scratch space guarded by the
// library's mutex.
type Font struct {
	f       *sfnt.Font
	units   fixed.Int26_6 // ppem whose pixels are font units
	kerning bool          // the font has a kern or GPOS table
	buf     sfnt.Buffer
	segs    sfnt.Segments // last outline loaded; aliases buf
}

// IsCFF reports whether data starts with the signature of an OpenType font
// with CFF outlines.
func IsCFF(data []byte) bool { return len(data) >= 4 && string(data[:4]) == "OTTO" }

// ParseFont parses data and loads the outlines of the missing-glyph box and
// of "a", so that a damaged file fails here rather than as missing glyphs
// later.
func ParseFont(data []byte) (*Font, error) {
	f, err := sfnt.Parse(data)
	if err != nil {
		return nil, media.Detail(media.ErrCorrupt, "not a readable OpenType (CFF) font: %v", err)
	}
	upem := int(f.UnitsPerEm())
	if upem < 16 || upem > 16384 {
		return nil, media.Detail(media.ErrCorrupt, "unitsPerEm is %d, want [16, 16384]", upem)
	}
	if n := f.NumGlyphs(); n < 1 {
		return nil, media.Detail(media.ErrCorrupt, "font has no glyphs")
	}
	// sfnt does not say whether a font kerns; without a table that can,
	// layout skips the pair lookups altogether.
	c := &Font{f: f, units: fixed.Int26_6(upem), kerning: hasTable(data, "kern") || hasTable(data, "GPOS")}
	for _, r := range []rune{0, 'a'} {
		g := c.Index(r)
		if _, err := f.LoadGlyph(&c.buf, sfnt.GlyphIndex(g), c.units, nil); err != nil {
			return nil, media.Detail(media.ErrCorrupt, "glyph %d: %v", g, err)
		}
		if _, err := f.GlyphAdvance(&c.buf, sfnt.GlyphIndex(g), c.units, font.HintingNone); err != nil {
			return nil, media.Detail(media.ErrCorrupt, "advance of glyph %d: %v", g, err)
		}
	}
	if _, err := f.Metrics(&c.buf, c.units, font.HintingNone); err != nil {
		return nil, media.Detail(media.ErrCorrupt, "metrics: %v", err)
	}
	return c, nil
}

// hasTable reports whether the table directory of the font in data (which
// sfnt has parsed, but the checks are repeated) lists tag.
func hasTable(data []byte, tag string) bool {
	if len(data) < 12 {
		return false
	}
	n := int(data[4])<<8 | int(data[5])
	for i := 0; i < n && 12+16*i+4 <= len(data); i++ {
		if string(data[12+16*i:12+16*i+4]) == tag {
			return true
		}
	}
	return false
}

// HasKerning reports whether the font has a kern or GPOS table.
func (c *Font) HasKerning() bool { return c.kerning }

// UnitsPerEm returns the font's design units per em.
func (c *Font) UnitsPerEm() int { return int(c.units) }

// VMetrics returns the ascent, descent (negative below the baseline) and
// line gap in font units, like [ttf.Font.VMetrics].
func (c *Font) VMetrics() (ascent, descent, lineGap int) {
	m, err := c.f.Metrics(&c.buf, c.units, font.HintingNone)
	if err != nil { // checked by ParseFont; cannot fail afterwards
		return 0, 0, 0
	}
	return int(m.Ascent), -int(m.Descent), int(m.Height - m.Ascent - m.Descent)
}

// Index returns r's glyph, 0 (the missing-glyph box) when the font has none.
func (c *Font) Index(r rune) uint16 {
	g, err := c.f.GlyphIndex(&c.buf, r)
	if err != nil {
		return 0
	}
	return uint16(g)
}

// Advance returns glyph g's advance in font units, 0 when unreadable.
func (c *Font) Advance(g uint16) int {
	a, err := c.f.GlyphAdvance(&c.buf, sfnt.GlyphIndex(g), c.units, font.HintingNone)
	if err != nil {
		return 0
	}
	return int(a)
}

// Kern returns the kerning between glyphs a and b (GPOS pair adjustment or
// the kern table) in font units; 0 for pairs the font does not kern.
func (c *Font) Kern(a, b uint16) int {
	k, err := c.f.Kern(&c.buf, sfnt.GlyphIndex(a), sfnt.GlyphIndex(b), c.units, font.HintingNone)
	if err != nil {
		return 0
	}
	return int(k)
}

// Load reads glyph g's outline into c.segs and returns its bounds in pixels
// at scale pixels per unit, y down, with the pen at the origin on the
// baseline. ok is false for an empty or unreadable outline.
func (c *Font) Load(g uint16, scale float32) (minX, minY, maxX, maxY float32, ok bool) {
	segs, err := c.f.LoadGlyph(&c.buf, sfnt.GlyphIndex(g), c.units, nil)
	if err != nil || len(segs) == 0 {
		c.segs = nil
		return 0, 0, 0, 0, false
	}
	c.segs = segs
	minX, minY = float32(math.Inf(1)), float32(math.Inf(1))
	maxX, maxY = float32(math.Inf(-1)), float32(math.Inf(-1))
	for i := range segs {
		s := &segs[i]
		for _, p := range s.Args[:segArgs(s.Op)] {
			x, y := float32(p.X)*scale, float32(p.Y)*scale
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

// Trace feeds the outline last loaded to ras at scale pixels per unit,
// shifted by (-ox, -oy) pixels. sfnt starts every contour with a MoveTo;
// each is closed explicitly so that a damaged font's open path cannot leak
// into the next contour.
func (c *Font) Trace(ras *vector.Rasterizer, scale, ox, oy float32) {
	at := func(p fixed.Point26_6) (float32, float32) {
		return float32(p.X)*scale - ox, float32(p.Y)*scale - oy
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
