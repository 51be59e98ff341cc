package ttf

// Point is an outline point in font units, y up.
type Point struct {
	X, Y float32
	On   bool // on the curve; off-curve points are quadratic controls
}

// Outline is a glyph's contours: Points, split at the indices in Ends (each
// one past a contour's last point). Reuse an Outline across calls to avoid
// allocating.
type Outline struct {
	Points []Point
	Ends   []int
	loads  int // glyphs visited, composites included
}

// Reset empties o, keeping its storage.
func (o *Outline) Reset() {
	o.Points = o.Points[:0]
	o.Ends = o.Ends[:0]
	o.loads = 0
}

// maxDepth bounds composite glyph nesting, which damaged fonts can make
// cyclic.
const maxDepth = 8

// maxLoads bounds the components visited for one glyph, which damaged
// fonts could otherwise multiply at every level of nesting.
const maxLoads = 4096

// maxPoints bounds the points of one glyph, composites included.
const maxPoints = 1 << 16

func (f *Font) glyphData(g uint16) ([]byte, error) {
	if int(g) >= f.numGlyphs {
		return nil, formatErr("glyph %d, the font has %d", g, f.numGlyphs)
	}
	var start, end int64
	if f.locaLong {
		start, end = int64(u32(f.loca[4*int(g):])), int64(u32(f.loca[4*int(g)+4:]))
	} else {
		start, end = 2*int64(u16(f.loca[2*int(g):])), 2*int64(u16(f.loca[2*int(g)+2:]))
	}
	if start > end || end > int64(len(f.glyf)) {
		return nil, formatErr("glyph %d data at [%d, %d) outside the %d-byte glyf table", g, start, end, len(f.glyf))
	}
	return f.glyf[start:end], nil
}

// LoadOutline appends the contours of glyph g to o (after resetting it).
// An empty outline (a space) is not an error.
func (f *Font) LoadOutline(g uint16, o *Outline) error {
	o.Reset()
	return f.load(g, o, 0, [6]float32{1, 0, 0, 1, 0, 0})
}

// load appends glyph g transformed by m = {xx, xy, yx, yy, dx, dy}.
func (f *Font) load(g uint16, o *Outline, depth int, m [6]float32) error {
	if depth > maxDepth {
		return formatErr("composite glyphs nested deeper than %d", maxDepth)
	}
	if o.loads++; o.loads > maxLoads {
		return formatErr("composite glyph has more than %d components", maxLoads)
	}
	d, err := f.glyphData(g)
	if err != nil {
		return err
	}
	if len(d) == 0 {
		return nil
	}
	if len(d) < 10 {
		return formatErr("glyph %d header is %d bytes", g, len(d))
	}
	nc := int(int16(u16(d)))
	if nc < 0 {
		return f.loadComposite(d[10:], o, depth, m)
	}
	return f.loadSimple(g, d[10:], nc, o, m)
}

func (f *Font) loadSimple(g uint16, d []byte, nc int, o *Outline, m [6]float32) error {
	if 2*nc+2 > len(d) {
		return formatErr("glyph %d: %d contours in %d bytes", g, nc, len(d))
	}
	n := 0
	base := len(o.Points)
	prevEnd := -1
	for i := 0; i < nc; i++ {
		e := int(u16(d[2*i:]))
		if i > 0 && e <= prevEnd {
			return formatErr("glyph %d: contour ends out of order", g)
		}
		prevEnd = e
		n = e + 1
	}
	if nc == 0 {
		return nil
	}
	if base+n > maxPoints {
		return formatErr("glyph %d has more than %d points", g, maxPoints)
	}
	p := 2 * nc
	ins := int(u16(d[p:]))
	p += 2 + ins
	if p > len(d) {
		return formatErr("glyph %d: instructions overrun", g)
	}
	// Flags, with repeats.
	flagStart := len(o.Points)
	for i := 0; i < n; {
		if p >= len(d) {
			return formatErr("glyph %d: flags overrun", g)
		}
		fl := d[p]
		p++
		count := 1
		if fl&8 != 0 {
			if p >= len(d) {
				return formatErr("glyph %d: flags overrun", g)
			}
			count += int(d[p])
			p++
		}
		for ; count > 0 && i < n; count-- {
			// Keep the flag in X for now; coordinates replace it below.
			o.Points = append(o.Points, Point{X: float32(fl), On: fl&1 != 0})
			i++
		}
	}
	pts := o.Points[flagStart:]
	flags := make([]uint8, n) // small: glyphs are loaded once and cached
	for i := range pts {
		flags[i] = uint8(pts[i].X)
	}
	var v int
	for i := range pts {
		fl := flags[i]
		switch {
		case fl&2 != 0:
			if p >= len(d) {
				return formatErr("glyph %d: x coordinates overrun", g)
			}
			dx := int(d[p])
			p++
			if fl&16 == 0 {
				dx = -dx
			}
			v += dx
		case fl&16 == 0:
			if p+2 > len(d) {
				return formatErr("glyph %d: x coordinates overrun", g)
			}
			v += int(int16(u16(d[p:])))
			p += 2
		}
		pts[i].X = float32(v)
	}
	v = 0
	for i := range pts {
		fl := flags[i]
		switch {
		case fl&4 != 0:
			if p >= len(d) {
				return formatErr("glyph %d: y coordinates overrun", g)
			}
			dy := int(d[p])
			p++
			if fl&32 == 0 {
				dy = -dy
			}
			v += dy
		case fl&32 == 0:
			if p+2 > len(d) {
				return formatErr("glyph %d: y coordinates overrun", g)
			}
			v += int(int16(u16(d[p:])))
			p += 2
		}
		pts[i].Y = float32(v)
	}
	for i := range pts {
		x, y := pts[i].X, pts[i].Y
		pts[i].X = m[0]*x + m[2]*y + m[4]
		pts[i].Y = m[1]*x + m[3]*y + m[5]
	}
	for i := 0; i < nc; i++ {
		o.Ends = append(o.Ends, base+int(u16(d[2*i:]))+1)
	}
	return nil
}

func (f *Font) loadComposite(d []byte, o *Outline, depth int, m [6]float32) error {
	p := 0
	for {
		if p+4 > len(d) {
			return formatErr("composite glyph overruns its data")
		}
		fl := u16(d[p:])
		g := u16(d[p+2:])
		p += 4
		var dx, dy float32
		if fl&1 != 0 {
			if p+4 > len(d) {
				return formatErr("composite glyph overruns its data")
			}
			dx, dy = float32(int16(u16(d[p:]))), float32(int16(u16(d[p+2:])))
			p += 4
		} else {
			if p+2 > len(d) {
				return formatErr("composite glyph overruns its data")
			}
			dx, dy = float32(int8(d[p])), float32(int8(d[p+1]))
			p += 2
		}
		if fl&2 == 0 { // point matching, rare: place the component unshifted
			dx, dy = 0, 0
		}
		c := [4]float32{1, 0, 0, 1}
		f2 := func(i int) float32 { return float32(int16(u16(d[i:]))) / 16384 }
		switch {
		case fl&8 != 0:
			if p+2 > len(d) {
				return formatErr("composite glyph overruns its data")
			}
			c[0] = f2(p)
			c[3] = c[0]
			p += 2
		case fl&0x40 != 0:
			if p+4 > len(d) {
				return formatErr("composite glyph overruns its data")
			}
			c[0], c[3] = f2(p), f2(p+2)
			p += 4
		case fl&0x80 != 0:
			if p+8 > len(d) {
				return formatErr("composite glyph overruns its data")
			}
			c[0], c[1], c[2], c[3] = f2(p), f2(p+2), f2(p+4), f2(p+6)
			p += 8
		}
		// Component transform then parent transform.
		cm := [6]float32{
			m[0]*c[0] + m[2]*c[1], m[1]*c[0] + m[3]*c[1],
			m[0]*c[2] + m[2]*c[3], m[1]*c[2] + m[3]*c[3],
			m[0]*dx + m[2]*dy + m[4], m[1]*dx + m[3]*dy + m[5],
		}
		if err := f.load(g, o, depth+1, cm); err != nil {
			return err
		}
		if fl&0x20 == 0 {
			return nil
		}
	}
}
