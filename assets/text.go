package assets

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/render2d"
)

// Align places each line of text horizontally.
type Align uint8

const (
	// AlignLeft starts lines at the left edge (the zero value).
	AlignLeft Align = iota
	// AlignCenter centres lines.
	AlignCenter
	// AlignRight ends lines at the right edge.
	AlignRight
)

// TextOptions say where and how to lay out text. The zero value draws
// white, left-aligned, unwrapped text whose first line's top is at (0, 0).
type TextOptions struct {
	// Position is the top-left corner of the text box, in world units.
	Position geom.Vec2
	// Width is the width of the text box. Lines longer than a positive
	// Width wrap at spaces (or inside a word that alone is too long) and
	// align within it. With Width zero nothing wraps and lines align about
	// Position.X: left starts there, center centres on it, right ends there.
	Width float32
	// Align places each line.
	Align Align
	// LineSpacing multiplies the font's line height; zero means 1.
	LineSpacing float32
	// Scale multiplies glyph sizes and offsets; zero means 1. At 1, glyphs
	// land on whole pixels so text stays crisp.
	Scale float32
	// Color tints the glyphs (straight alpha); the zero Color means white.
	Color render2d.Color
	// Layer and Blend are copied into every glyph packet.
	Layer int16
	Blend render2d.BlendMode
}

// TextBounds describe laid-out text.
type TextBounds struct {
	// Rect covers every line: from the left of the leftmost line to the
	// right of the widest, from the top of the first line to the bottom of
	// the last (line count times line height), in world units. Widths are
	// advance widths: trailing spaces at a wrap are not counted.
	Rect geom.Rect
	// Lines is the number of lines, at least 1 for any text (an empty
	// string has one empty line of zero width).
	Lines int
	// Glyphs is the number of packets written.
	Glyphs int
	// Pending is the number of glyphs left out because the atlas page they
	// were rasterised into has no texture yet. It is non-zero only when a
	// single frame rasterises more new glyphs than the spare page holds;
	// they appear from the frame after the next [Library.Upload].
	Pending int
}

const tabSpaces = 4

// AppendText lays out text (UTF-8; invalid bytes show as U+FFFD) in font f
// and appends one packet per visible glyph to dst: hard line breaks at
// '\n', wrapping, kerning and alignment are resolved here, on the calling
// goroutine, so the frame carries only plain packets. Glyphs seen for the
// first time are rasterised into the atlas and reach the GPU at the next
// [Library.Upload].
//
// Once f's glyphs for the text are cached it allocates only when dst must
// grow. Safe from any goroutine.
func (l *Library) AppendText(dst []render2d.DrawPacket2D, f Font, text string, opts TextOptions) ([]render2d.DrawPacket2D, TextBounds, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fe, err := l.fontLocked(f)
	if err != nil {
		return dst, TextBounds{}, err
	}
	if err := opts.validate(); err != nil {
		return dst, TextBounds{}, err
	}
	return l.layoutLocked(dst, fe, text, opts, true)
}

// DrawText is [Library.AppendText] writing into a pass.
func (l *Library) DrawText(pw *render2d.PassWriter, f Font, text string, opts TextOptions) (TextBounds, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fe, err := l.fontLocked(f)
	if err != nil {
		return TextBounds{}, err
	}
	if err := opts.validate(); err != nil {
		return TextBounds{}, err
	}
	var b TextBounds
	l.scratch, b, _ = l.layoutLocked(l.scratch[:0], fe, text, opts, true)
	for i := range l.scratch {
		pw.DrawPtr(&l.scratch[i])
	}
	return b, nil
}

// MeasureText returns the bounds text would have, without drawing it
// (glyphs it has not seen are still rasterised: their advances come from
// the same cache).
func (l *Library) MeasureText(f Font, text string, opts TextOptions) (TextBounds, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fe, err := l.fontLocked(f)
	if err != nil {
		return TextBounds{}, err
	}
	if err := opts.validate(); err != nil {
		return TextBounds{}, err
	}
	_, b, _ := l.layoutLocked(nil, fe, text, opts, false)
	return b, nil
}

func (o TextOptions) validate() error {
	bad := func(v float32) bool { return v < 0 || math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) }
	var msg string
	switch {
	case bad(o.Width):
		msg = fmt.Sprintf("TextOptions.Width is %v, want a finite value >= 0", o.Width)
	case bad(o.LineSpacing):
		msg = fmt.Sprintf("TextOptions.LineSpacing is %v, want a finite value >= 0", o.LineSpacing)
	case bad(o.Scale):
		msg = fmt.Sprintf("TextOptions.Scale is %v, want a finite value >= 0", o.Scale)
	case o.Align > AlignRight:
		msg = fmt.Sprintf("TextOptions.Align is %d, want AlignLeft, AlignCenter or AlignRight", o.Align)
	case o.Blend >= render2d.BlendModeCount:
		msg = fmt.Sprintf("TextOptions.Blend is %v, want a render2d blend mode", o.Blend)
	default:
		return nil
	}
	return media.Detail(media.ErrInvalid, "assets: %s", msg)
}

func isBreakSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\u3000' || (r >= '\u2000' && r <= '\u200a')
}

// placed is one rune of the line being laid out: its glyph's cache slot
// and the pen position (kerning applied) where the glyph goes.
type placed struct {
	slot int32
	x    int32
}

// lineEnd lays out the line starting at byte start into l.line, one entry
// per rune: its content ends at byte end (trailing spaces dropped) and
// covers the first count entries, it is width pixels wide, and the next
// line starts at byte next. maxW <= 0 means no wrapping.
func (l *Library) lineEnd(fe *fontEntry, text string, start int, maxW int32) (end, next, count int, width int32) {
	l.line = l.line[:0]
	var pen int32
	prev := int32(-1) // glyph index of the previous rune, for kerning
	content := false  // a non-space rune is on the line
	inSpace := false
	spaceAt, spaceN, spaceW := start, 0, int32(0) // where the current run of spaces began
	breakOK := false
	var bEnd, bNext, bN int
	var bW int32
	for i := start; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == '\n' {
			if inSpace {
				return spaceAt, i + size, spaceN, spaceW
			}
			return i, i + size, len(l.line), pen
		}
		if r == '\r' {
			i += size
			continue
		}
		if isBreakSpace(r) {
			if !inSpace {
				inSpace, spaceAt, spaceN, spaceW = true, i, len(l.line), pen
			}
			slot := l.glyphLocked(fe, ' ')
			adv := fe.glyphs[slot].advance
			if r == '\t' {
				adv *= tabSpaces
			} else if r != ' ' {
				slot = l.glyphLocked(fe, r)
				adv = fe.glyphs[slot].advance
			}
			l.line = append(l.line, placed{slot, pen})
			pen += adv
			prev = int32(fe.glyphs[slot].index)
			i += size
			continue
		}
		slot := l.glyphLocked(fe, r)
		g := &fe.glyphs[slot]
		kern := int32(0)
		if prev >= 0 {
			kern = l.kernLocked(fe, uint16(prev), g.index)
		}
		if inSpace {
			// A break before this word. Leading spaces count too: a word
			// that does not fit after an indent moves to the next line.
			breakOK, bEnd, bNext, bN, bW = true, spaceAt, i, spaceN, spaceW
		}
		inSpace = false
		if maxW > 0 && (content || breakOK) && pen+kern+g.advance > maxW {
			if breakOK {
				return bEnd, bNext, bN, bW
			}
			return i, i, len(l.line), pen // a word wider than the box: break inside it
		}
		l.line = append(l.line, placed{slot, pen + kern})
		pen += kern + g.advance
		prev = int32(g.index)
		content = true
		i += size
	}
	if inSpace {
		return spaceAt, len(text), spaceN, spaceW
	}
	return len(text), len(text), len(l.line), pen
}

func (l *Library) layoutLocked(dst []render2d.DrawPacket2D, fe *fontEntry, text string, o TextOptions, emit bool) ([]render2d.DrawPacket2D, TextBounds, error) {
	scale := o.Scale
	if scale == 0 {
		scale = 1
	}
	spacing := o.LineSpacing
	if spacing == 0 {
		spacing = 1
	}
	tint := o.Color
	if tint == (render2d.Color{}) {
		tint = render2d.White
	}
	lineH := float32(fe.lineHeight) * spacing * scale
	maxW := int32(-1)
	if o.Width > 0 {
		maxW = max(int32(math.Floor(float64(o.Width/scale))), 1)
	}
	var b TextBounds
	minX, maxX := float32(math.Inf(1)), float32(math.Inf(-1))
	final := false
	for start := 0; ; {
		_, next, count, w := l.lineEnd(fe, text, start, maxW)
		lw := float32(w) * scale
		x := o.Position.X
		switch {
		case o.Align == AlignCenter && o.Width > 0:
			x += (o.Width - lw) / 2
		case o.Align == AlignCenter:
			x -= lw / 2
		case o.Align == AlignRight && o.Width > 0:
			x += o.Width - lw
		case o.Align == AlignRight:
			x -= lw
		}
		baseline := o.Position.Y + float32(b.Lines)*lineH + float32(fe.ascent)*scale
		if scale == 1 { // whole pixels keep glyphs crisp
			x = float32(math.Round(float64(x)))
			baseline = float32(math.Round(float64(baseline)))
		}
		minX, maxX = min(minX, x), max(maxX, x+lw)
		b.Lines++
		if emit {
			for _, e := range l.line[:count] {
				g := &fe.glyphs[e.slot]
				if g.page < 0 {
					continue
				}
				pg := l.pages[g.page]
				tex := pg.tex
				if pg.pendingLocked(g.src) {
					b.Pending++
					continue
				}
				dst = append(dst, render2d.DrawPacket2D{
					Texture: tex,
					Source:  g.srcF,
					Transform: render2d.Transform{
						Position: geom.Vec2{X: x + (float32(e.x)+g.offX)*scale, Y: baseline + g.offY*scale},
						Scale:    geom.Vec2{X: 1, Y: 1},
					},
					Size:  geom.Vec2{X: g.srcF.W * scale, Y: g.srcF.H * scale},
					Tint:  tint,
					Blend: o.Blend,
					Layer: o.Layer,
				})
				b.Glyphs++
			}
		}
		if next >= len(text) {
			// Text ending in '\n' has one more, empty line.
			if !final && len(text) > 0 && text[len(text)-1] == '\n' {
				final = true
				start = len(text)
				continue
			}
			break
		}
		start = next
	}
	b.Rect = geom.Rect{X: minX, Y: o.Position.Y, W: maxX - minX, H: float32(b.Lines) * lineH}
	return dst, b, nil
}
