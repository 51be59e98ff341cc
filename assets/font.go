package assets

import (
	"errors"
	"fmt"
	"image"
	"image/draw"
	"io/fs"
	"math"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/vector"

	"github.com/metronome-go/metronome/assets/internal/cffont"
	"github.com/metronome-go/metronome/assets/internal/ttf"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/media"
)

// Font is a handle to a font face (a font file at one size) in a
// [Library]. The zero Font is never valid.
type Font struct{ id, gen uint32 }

// IsZero reports whether h is the zero handle.
func (h Font) IsZero() bool { return h == Font{} }

func (h Font) String() string { return fmt.Sprintf("font %d gen %d", h.id, h.gen) }

// Font sizes are in pixels per em, in [MinFontSize, MaxFontSize], and at
// most half the atlas page size.
const (
	MinFontSize = 1
	MaxFontSize = 512
)

// The embedded Go fonts, by the name [Library.GoFont] takes.
const (
	GoRegular = "goregular"
	GoBold    = "gobold"
	GoMono    = "gomono"
)

// parsedFont is a parsed font file, shared by the faces made from it. Exactly
// one of tf (TrueType outlines) and cff (CFF outlines) is set.
type parsedFont struct {
	name string
	tf   *ttf.Font
	cff  cffont.Outlines
}

// fontEntry is one face: a parsed font at one size, with its glyph and
// kerning caches. Everything in it is guarded by the library's mutex: the
// rasteriser and buffers of x/image are not safe for concurrent use.
type fontEntry struct {
	name  string
	pf    *parsedFont
	size  float64
	scale float32 // pixels per font unit
	// Vertical metrics in whole pixels.
	ascent, descent, lineHeight int

	low    [lowRunes]int32 // glyph slot+1 for Latin, Greek, Cyrillic...; 0 = not cached
	runes  map[rune]int32
	glyphs []glyph
	pages  map[int]int // atlas page -> glyphs placed there

	kern    map[uint32]int32 // pixels, by glyph pair
	kerning bool             // the font has kerning data
}

// glyph is a rasterised glyph: where its pixels are in the atlas and how
// it advances the pen.
type glyph struct {
	index   uint16
	advance int32           // whole pixels: advances are rounded so glyphs sit on the pixel grid
	page    int32           // -1: nothing to draw (space)
	src     image.Rectangle // in page texels
	srcF    geom.Rect       // src, ready for a packet
	// offX, offY place the top-left of src relative to the pen on the
	// baseline, in pixels.
	offX, offY float32
}

// lowRunes is how many runes from U+0000 get a direct-indexed cache slot:
// up to U+07FF, every two-byte UTF-8 rune (Latin, Greek, Cyrillic, Hebrew,
// Arabic), which keeps map lookups out of most layouts.
const lowRunes = 0x800

// maxKernPairs bounds the kerning cache of one face; past it pairs are
// looked up in the font each time.
const maxKernPairs = 1 << 14

func (f *fontEntry) glyphCount() int { return len(f.glyphs) }

// DefaultFont returns Go Regular at size pixels per em: text works with no
// font file at all. Each call returns a new face with its own glyph cache;
// keep the handle. Go Regular is the one face every game that calls it
// links; another face comes from its own package through
// [Library.ParseFont]. Safe from any goroutine.
func (l *Library) DefaultFont(size float64) (Font, error) {
	return l.ParseFont(GoRegular, goregular.TTF, size)
}

// GoFont returns one of the embedded Go fonts ([GoRegular], [GoBold],
// [GoMono]) at size pixels per em.
//
// Deprecated: use [Library.ParseFont] with the face's TTF from its
// golang.org/x/image/font/gofont package, as ParseFont(GoBold, gobold.TTF,
// size): GoFont picks the face at run time, so it links all three (about
// 400 kB) into every game that calls it.
func (l *Library) GoFont(name string, size float64) (Font, error) {
	var data []byte
	switch name {
	case GoRegular:
		data = goregular.TTF
	case GoBold:
		data = gobold.TTF
	case GoMono:
		data = gomono.TTF
	default:
		return Font{}, &media.Error{Pkg: "assets", Op: "load font", Path: name, Err: media.Detail(media.ErrInvalid, "no embedded Go font named %q, want %q, %q or %q", name, GoRegular, GoBold, GoMono)}
	}
	return l.ParseFont(name, data, size)
}

// LoadFont reads a TrueType or OpenType file (TrueType or CFF outlines)
// from fsys and returns a face at size pixels per em. Errors name the file.
// Safe from any goroutine.
func (l *Library) LoadFont(fsys fs.FS, name string, size float64) (Font, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return Font{}, &media.Error{Pkg: "assets", Op: "load font", Path: name, Err: err}
	}
	return l.ParseFont(name, data, size)
}

// ParseFont is [Library.LoadFont] for font bytes already in memory, such
// as a file embedded with go:embed or a gofont package's TTF; name labels
// errors. Faces made from the same bytes share one parse, so asking for a
// second size costs only its glyphs. The library keeps data: do not modify
// it afterwards. Safe from any goroutine.
func (l *Library) ParseFont(name string, data []byte, size float64) (Font, error) {
	key := fontKey{name: name, n: len(data)}
	if len(data) > 0 {
		key.p = &data[0]
	}
	l.mu.Lock()
	pf := l.parsed[key]
	l.mu.Unlock()
	if pf == nil {
		var err error
		if pf, err = parseFont(name, data); err != nil {
			return Font{}, &media.Error{Pkg: "assets", Op: "load font", Path: name, Err: err}
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.parsed == nil {
		l.parsed = make(map[fontKey]*parsedFont)
	}
	if prev := l.parsed[key]; prev != nil {
		pf = prev // another goroutine parsed the same bytes meanwhile
	} else {
		l.parsed[key] = pf
	}
	return l.addFontLocked(pf, size)
}

// fontKey names font bytes by identity: ParseFont's callers pass the same
// slice (an embedded file, a package's TTF) for each size they ask for.
type fontKey struct {
	name string
	p    *byte
	n    int
}

// parseFont parses data, with the package's TrueType reader or, for CFF
// outlines, with sfnt when the game imports package assets/cff, and loads the outlines of the missing-glyph box and
// of "a", so that a damaged file fails here rather than as missing glyphs
// later.
func parseFont(name string, data []byte) (*parsedFont, error) {
	if cffont.IsCFF(data) {
		if cffont.Parse == nil {
			return nil, media.Detail(media.ErrUnsupported, "an OpenType font with CFF outlines: a game reads them when it imports package github.com/metronome-go/metronome/assets/cff (import _ \"github.com/metronome-go/metronome/assets/cff\")")
		}
		c, err := cffont.Parse(data)
		if err != nil {
			return nil, err
		}
		return &parsedFont{name: name, cff: c}, nil
	}
	tf, err := parseTrueType(data)
	if err != nil {
		return nil, err
	}
	return &parsedFont{name: name, tf: tf}, nil
}

func parseTrueType(data []byte) (*ttf.Font, error) {
	tf, err := ttf.Parse(data)
	if errors.Is(err, ttf.ErrUnsupported) {
		return nil, media.Detail(media.ErrUnsupported, "%v", err)
	}
	if err != nil {
		return nil, media.Detail(media.ErrCorrupt, "not a readable TrueType font: %v", err)
	}
	var o ttf.Outline
	for _, r := range []rune{0, 'a'} {
		g := tf.Index(r)
		if err := tf.LoadOutline(g, &o); err != nil {
			return nil, media.Detail(media.ErrCorrupt, "glyph %d: %v", g, err)
		}
	}
	return tf, nil
}

func (l *Library) addFontLocked(pf *parsedFont, size float64) (Font, error) {
	limit := min(MaxFontSize, float64(l.opts.PageSize)/2)
	if !(size >= MinFontSize && size <= limit) { // also refuses NaN
		return Font{}, &media.Error{Pkg: "assets", Op: "load font", Path: pf.name, Err: media.Detail(media.ErrInvalid, "size is %v, want [%d, %v] pixels per em", size, MinFontSize, limit)}
	}
	fe := &fontEntry{name: pf.name, pf: pf, size: size,
		runes: make(map[rune]int32), pages: make(map[int]int), kern: make(map[uint32]int32)}
	var a, d, gap int
	if c := pf.cff; c != nil {
		fe.scale = float32(size) / float32(c.UnitsPerEm())
		fe.kerning = c.HasKerning()
		a, d, gap = c.VMetrics()
	} else {
		tf := pf.tf
		fe.scale = float32(size) / float32(tf.UnitsPerEm())
		fe.kerning = tf.HasKerning()
		a, d, gap = tf.VMetrics()
	}
	fe.ascent = int(math.Ceil(float64(float32(a) * fe.scale)))
	fe.descent = int(math.Ceil(float64(float32(-d) * fe.scale)))
	fe.lineHeight = max(1, int(math.Round(float64(float32(a-d+gap)*fe.scale))))
	id, gen := l.fonts.add(fe)
	return Font{id, gen}, nil
}

func (l *Library) fontLocked(f Font) (*fontEntry, error) {
	p := l.fonts.get(f.id, f.gen)
	if p == nil {
		return nil, staleErr("font", f.id, f.gen, l.fonts.current(f.id))
	}
	return *p, nil
}

// FontMetrics are a face's vertical metrics in pixels.
type FontMetrics struct {
	// Size is the face's size in pixels per em.
	Size float64
	// Ascent is the distance from the top of a line to the baseline,
	// Descent from the baseline to the bottom, LineHeight from one
	// baseline to the next.
	Ascent, Descent, LineHeight float32
}

// Metrics returns the vertical metrics of f.
func (l *Library) Metrics(f Font) (FontMetrics, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fe, err := l.fontLocked(f)
	if err != nil {
		return FontMetrics{}, err
	}
	return FontMetrics{Size: fe.size, Ascent: float32(fe.ascent), Descent: float32(fe.descent), LineHeight: float32(fe.lineHeight)}, nil
}

// ReleaseFont forgets f and its glyph cache; its handle goes stale. Glyph
// pixels already in the atlas stay until their page retires, as with
// [Library.Release].
func (l *Library) ReleaseFont(f Font) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	fe, err := l.fontLocked(f)
	if err != nil {
		return err
	}
	for pi, n := range fe.pages {
		for range n {
			l.unrefLocked(pi)
		}
	}
	l.fonts.remove(f.id)
	return nil
}

// glyphLocked returns the cache slot of r's glyph in fe.glyphs,
// rasterising it into the atlas on first use. Allocation-free for cached
// glyphs. Slots stay valid for the face's life; pointers into fe.glyphs do
// not survive the next miss.
func (l *Library) glyphLocked(fe *fontEntry, r rune) int32 {
	if r >= 0 && r < lowRunes {
		if i := fe.low[r]; i > 0 {
			return i - 1
		}
	} else if i, ok := fe.runes[r]; ok {
		return i - 1
	}
	g := l.rasterLocked(fe, r)
	fe.glyphs = append(fe.glyphs, g)
	n := int32(len(fe.glyphs))
	if r >= 0 && r < lowRunes {
		fe.low[r] = n
	} else {
		fe.runes[r] = n
	}
	return n - 1
}

func (l *Library) rasterLocked(fe *fontEntry, r rune) glyph {
	g := glyph{page: -1}
	// Pixel bounds of the outline, y down, with the pen at the origin on
	// the baseline. A damaged glyph draws as nothing but still advances.
	var minX, minY, maxX, maxY float32
	cff := fe.pf.cff
	if cff != nil {
		g.index = cff.Index(r)
		g.advance = int32(math.Round(float64(float32(cff.Advance(g.index)) * fe.scale)))
		var ok bool
		if minX, minY, maxX, maxY, ok = cff.Load(g.index, fe.scale); !ok {
			return g
		}
	} else {
		tf := fe.pf.tf
		g.index = tf.Index(r)
		g.advance = int32(math.Round(float64(float32(tf.Advance(g.index)) * fe.scale)))
		o := &l.outline
		if err := tf.LoadOutline(g.index, o); err != nil || len(o.Points) == 0 {
			return g
		}
		minX, minY = float32(math.Inf(1)), float32(math.Inf(1))
		maxX, maxY = float32(math.Inf(-1)), float32(math.Inf(-1))
		for _, p := range o.Points {
			x, y := p.X*fe.scale, -p.Y*fe.scale
			minX, maxX = min(minX, x), max(maxX, x)
			minY, maxY = min(minY, y), max(maxY, y)
		}
	}
	limit := float32(l.opts.PageSize - l.opts.Padding)
	if !(maxX-minX < limit && maxY-minY < limit) { // also NaN from a damaged font
		return g
	}
	dr := image.Rect(int(math.Floor(float64(minX))), int(math.Floor(float64(minY))), int(math.Ceil(float64(maxX))), int(math.Ceil(float64(maxY))))
	if dr.Empty() {
		return g
	}
	w, h := dr.Dx(), dr.Dy()
	if l.raster == nil {
		l.raster = vector.NewRasterizer(w, h)
	} else {
		l.raster.Reset(w, h)
	}
	ras := l.raster
	ras.DrawOp = draw.Src
	ox, oy := float32(dr.Min.X), float32(dr.Min.Y)
	if cff != nil {
		cff.Trace(ras, fe.scale, ox, oy)
	} else {
		o := &l.outline
		pt := func(p ttf.Point) (float32, float32) { return p.X*fe.scale - ox, -p.Y*fe.scale - oy }
		start := 0
		for _, end := range o.Ends {
			if end > start {
				traceContour(ras, o.Points[start:end], pt)
			}
			start = end
		}
	}
	if cap(l.mask.Pix) < w*h {
		l.mask.Pix = make([]uint8, w*h)
	}
	l.mask.Pix, l.mask.Stride, l.mask.Rect = l.mask.Pix[:w*h], w, image.Rect(0, 0, w, h)
	ras.Draw(&l.mask, l.mask.Rect, image.Opaque, image.Point{})

	pi, at := l.reserveLocked(w+l.opts.Padding, h+l.opts.Padding)
	p := l.pages[pi]
	dst := image.Rectangle{Min: at, Max: at.Add(image.Pt(w, h))}
	for y := 0; y < h; y++ {
		do := p.img.PixOffset(dst.Min.X, dst.Min.Y+y)
		row := p.img.Pix[do : do+4*w]
		for x, v := range l.mask.Pix[y*w : (y+1)*w] {
			// White, premultiplied: every channel equals coverage.
			row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = v, v, v, v
		}
	}
	p.used = true
	p.refs++
	p.markDirty(dst)
	fe.pages[pi]++
	g.page, g.src = int32(pi), dst
	g.srcF = rectOf(dst)
	g.offX, g.offY = float32(dr.Min.X), float32(dr.Min.Y)
	return g
}

// traceContour feeds one closed TrueType contour (quadratic B-spline:
// two consecutive off-curve points imply an on-curve point midway) to the
// rasteriser.
func traceContour(ras *vector.Rasterizer, pts []ttf.Point, pt func(ttf.Point) (float32, float32)) {
	n := len(pts)
	// Start on an on-curve point, or midway between two off-curve ones.
	first := -1
	for i, p := range pts {
		if p.On {
			first = i
			break
		}
	}
	var sx, sy float32
	if first >= 0 {
		sx, sy = pt(pts[first])
	} else {
		ax, ay := pt(pts[0])
		bx, by := pt(pts[1%n])
		sx, sy = (ax+bx)/2, (ay+by)/2
		first = 0
	}
	ras.MoveTo(sx, sy)
	var cx, cy float32
	haveCtrl := false
	for k := 1; k <= n; k++ {
		p := pts[(first+k)%n]
		x, y := pt(p)
		if p.On {
			if haveCtrl {
				ras.QuadTo(cx, cy, x, y)
			} else {
				ras.LineTo(x, y)
			}
			haveCtrl = false
			continue
		}
		if haveCtrl {
			mx, my := (cx+x)/2, (cy+y)/2
			ras.QuadTo(cx, cy, mx, my)
		}
		cx, cy, haveCtrl = x, y, true
	}
	if haveCtrl {
		ras.QuadTo(cx, cy, sx, sy)
	}
	ras.ClosePath()
}

// reserveLocked finds room for a w x h cell in a shared page, adding a page
// when none has room. The cell must fit a page.
func (l *Library) reserveLocked(w, h int) (int, image.Point) {
	for i, p := range l.pages {
		if p.dedicated || p.retired {
			continue
		}
		if at, ok := p.packer.Pack(w, h); ok {
			return i, at
		}
	}
	l.pages = append(l.pages, l.newPage())
	i := len(l.pages) - 1
	at, _ := l.pages[i].packer.Pack(w, h)
	return i, at
}

// kernLocked returns the kerning between two glyphs in whole pixels,
// cached.
func (l *Library) kernLocked(fe *fontEntry, a, b uint16) int32 {
	if !fe.kerning {
		return 0
	}
	key := uint32(a)<<16 | uint32(b)
	if k, ok := fe.kern[key]; ok {
		return k
	}
	var units int
	if c := fe.pf.cff; c != nil {
		units = c.Kern(a, b)
	} else {
		units = fe.pf.tf.Kern(a, b)
	}
	k := int32(math.Round(float64(float32(units) * fe.scale)))
	if len(fe.kern) < maxKernPairs {
		fe.kern[key] = k
	}
	return k
}
