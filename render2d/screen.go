package render2d

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/option"
)

// Scaling says how a logical screen fills the window's framebuffer.
type Scaling uint8

const (
	// ScaleLetterbox scales the logical screen by the largest factor that
	// fits the framebuffer, keeping its aspect ratio, and centres it; bars
	// in the clear colour fill the rest. It is the zero value.
	ScaleLetterbox Scaling = iota
	// ScaleInteger scales by the largest whole factor that fits, so every
	// logical pixel is the same number of framebuffer pixels (crisp pixel
	// art), centred with bars around it. A framebuffer smaller than the
	// logical screen cannot hold a factor of 1; it is letterboxed below 1
	// rather than cropped.
	ScaleInteger
	// ScaleStretch fills the whole framebuffer, stretching the logical
	// screen along one axis when the aspect ratios differ.
	ScaleStretch
	// ScaleResize makes the logical screen the window's own size in window
	// units (the units of the cursor): a larger window shows more of the
	// world, and a high-density framebuffer is scaled by its content
	// scale. The logical size follows every resize, so [Screen.Width] and
	// [Screen.Height] must be zero.
	ScaleResize

	// ScalingCount is the number of scaling modes; valid modes are below
	// it.
	ScalingCount
)

var scalingNames = [...]string{"letterbox", "integer", "stretch", "resize"}

func (s Scaling) String() string {
	if s < ScalingCount {
		return scalingNames[s]
	}
	return fmt.Sprintf("Scaling(%d)", uint8(s))
}

// ParseScaling returns the Scaling whose String is s.
func ParseScaling(s string) (Scaling, error) {
	for i, n := range scalingNames {
		if n == s {
			return Scaling(i), nil
		}
	}
	return 0, fmt.Errorf("render2d: unknown scaling %q, want %s", s, quoteNames(scalingNames[:]))
}

// MarshalText implements encoding.TextMarshaler.
func (s Scaling) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with [ParseScaling].
func (s *Scaling) UnmarshalText(b []byte) error {
	v, err := ParseScaling(string(b))
	if err == nil {
		*s = v
	}
	return err
}

// quoteNames lists names as "a", "b" or "c".
func quoteNames(names []string) string {
	var b strings.Builder
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(n))
	}
	return b.String()
}

// MaxScreenSize is the largest logical width or height.
const MaxScreenSize = 16384

// Screen describes the window's screen: the colour the whole window is
// cleared to before anything is drawn, and optionally a logical resolution
// that the game draws in whatever the window's size (Ebitengine's Layout).
// [Screen.Layout] places the logical screen in the framebuffer; cameras
// drawing into the window then take their viewport from the layout and
// their [Camera.Size] from the logical screen, so the world, zooms and
// anchors are in logical units.
//
// The zero Screen has no logical resolution (views are measured in
// framebuffer pixels) and clears to transparent black, which a window
// shows as black.
type Screen struct {
	// Width and Height are the logical resolution, 1 to [MaxScreenSize]
	// each, or both zero for none. ScaleResize takes them from the window
	// and needs both zero.
	Width, Height int `toml:"logical_size"`
	// Scaling says how the logical screen fills the framebuffer.
	Scaling Scaling
	// ClearColor fills the whole window, bars included, before the passes
	// ([Frame.Clear]).
	ClearColor Color
}

// Logical reports whether s has a logical resolution: a size, or
// ScaleResize.
func (s Screen) Logical() bool {
	return s.Scaling == ScaleResize || s.Width > 0 && s.Height > 0
}

// Validate reports every out-of-range field as an [*option.Error].
func (s Screen) Validate() error {
	var errs []error
	bad := func(field string, v any, problem, allowed string) {
		errs = append(errs, &option.Error{Pkg: "render2d", Field: field, Value: v, Problem: problem, Allowed: allowed})
	}
	sides := fmt.Sprintf("1 to %d on both sides, or both 0 (no logical resolution)", MaxScreenSize)
	if s.Width < 0 || s.Width > MaxScreenSize || s.Width == 0 && s.Height != 0 {
		bad("Screen.Width", s.Width, "is out of range", sides)
	}
	if s.Height < 0 || s.Height > MaxScreenSize || s.Height == 0 && s.Width != 0 {
		bad("Screen.Height", s.Height, "is out of range", sides)
	}
	if s.Scaling >= ScalingCount {
		bad("Screen.Scaling", s.Scaling, "is out of range", quoteNames(scalingNames[:]))
	} else if s.Scaling == ScaleResize && (s.Width != 0 || s.Height != 0) {
		errs = append(errs, &option.Error{Pkg: "render2d", Field: "Screen.Scaling", Value: s.Scaling,
			Problem: fmt.Sprintf("takes the logical size from the window, but a logical size of %dx%d is set", s.Width, s.Height),
			Allowed: fmt.Sprintf("%q with no logical size, or %s", ScaleResize, quoteNames(scalingNames[:ScaleResize])),
			Names:   []string{"Screen.Width", "Screen.Height"}, Relative: true})
	}
	c := s.ClearColor
	for _, ch := range [4]float32{c.R, c.G, c.B, c.A} {
		if !(ch >= 0 && ch <= 1) {
			bad("Screen.ClearColor", c, "has a channel outside 0 to 1", "channels 0 to 1")
			break
		}
	}
	return errors.Join(errs...)
}

// Layout is where a logical screen lies in the framebuffer.
type Layout struct {
	// Size is the logical screen's size in logical units.
	Size geom.Vec2
	// Viewport is the logical screen's rectangle in the framebuffer, in
	// whole pixels from its top-left corner.
	Viewport geom.Rect
	// Scale is framebuffer pixels per logical unit along each axis: the
	// viewport's size over Size. Both are equal unless the screen is
	// stretched.
	Scale geom.Vec2
}

// Layout places s in a framebuffer of fbW x fbH pixels belonging to a
// window of winW x winH window units (the window's size is used by
// ScaleResize only; zero means the framebuffer's). Letterboxed and
// integer-scaled screens are centred, with any odd pixel of the bars on the
// right or at the bottom. A Screen without a logical resolution lays out
// as the whole framebuffer at scale 1. A framebuffer of no area (a
// minimised window) gives the zero Layout. It allocates nothing.
func (s Screen) Layout(fbW, fbH, winW, winH int) Layout {
	if fbW <= 0 || fbH <= 0 {
		return Layout{}
	}
	whole := geom.Rect{W: float32(fbW), H: float32(fbH)}
	if !s.Logical() {
		return Layout{Size: geom.Vec2{X: float32(fbW), Y: float32(fbH)}, Viewport: whole, Scale: geom.Vec2{X: 1, Y: 1}}
	}
	if s.Scaling == ScaleResize {
		if winW <= 0 || winH <= 0 {
			winW, winH = fbW, fbH
		}
		return Layout{Size: geom.Vec2{X: float32(winW), Y: float32(winH)}, Viewport: whole,
			Scale: geom.Vec2{X: float32(fbW) / float32(winW), Y: float32(fbH) / float32(winH)}}
	}
	w, h := s.Width, s.Height
	var vw, vh int
	switch s.Scaling {
	case ScaleStretch:
		vw, vh = fbW, fbH
	case ScaleInteger:
		if k := min(fbW/w, fbH/h); k >= 1 {
			vw, vh = w*k, h*k
			break
		}
		fallthrough
	default: // ScaleLetterbox
		f := min(float64(fbW)/float64(w), float64(fbH)/float64(h))
		vw = min(int(math.Round(float64(w)*f)), fbW)
		vh = min(int(math.Round(float64(h)*f)), fbH)
	}
	return Layout{
		Size:     geom.Vec2{X: float32(w), Y: float32(h)},
		Viewport: geom.Rect{X: float32((fbW - vw) / 2), Y: float32((fbH - vh) / 2), W: float32(vw), H: float32(vh)},
		Scale:    geom.Vec2{X: float32(vw) / float32(w), Y: float32(vh) / float32(h)},
	}
}

// ToLogical converts a point in framebuffer pixels to logical units (a
// point in a bar lies outside 0 to Size). A layout of no area maps every
// point to the origin.
func (l Layout) ToLogical(p geom.Vec2) geom.Vec2 {
	if l.Scale.X == 0 || l.Scale.Y == 0 {
		return geom.Vec2{}
	}
	return geom.Vec2{X: (p.X - l.Viewport.X) / l.Scale.X, Y: (p.Y - l.Viewport.Y) / l.Scale.Y}
}

// FromLogical converts a point in logical units to framebuffer pixels.
func (l Layout) FromLogical(p geom.Vec2) geom.Vec2 {
	return geom.Vec2{X: l.Viewport.X + p.X*l.Scale.X, Y: l.Viewport.Y + p.Y*l.Scale.Y}
}

// Place converts a rectangle of the logical screen (a camera's viewport in
// logical units; zero is the whole screen) to framebuffer pixels, each
// edge rounded to the nearest whole pixel, so that neighbouring viewports
// share their edges exactly. On the zero Layout every rectangle has no
// area.
func (l Layout) Place(r geom.Rect) geom.Rect {
	if r.IsZero() {
		r = geom.Rect{W: l.Size.X, H: l.Size.Y}
	}
	round := func(v float32) float32 { return float32(math.Round(float64(v))) }
	x0, y0 := round(l.Viewport.X+r.X*l.Scale.X), round(l.Viewport.Y+r.Y*l.Scale.Y)
	x1, y1 := round(l.Viewport.X+(r.X+r.W)*l.Scale.X), round(l.Viewport.Y+(r.Y+r.H)*l.Scale.Y)
	return geom.Rect{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}
