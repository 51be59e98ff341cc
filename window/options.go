package window

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/option"
)

// Limits of an [Options].
const (
	// MaxSide is the largest width or height of a window, its size limits
	// and its aspect ratio's terms, in screen coordinates: the texture
	// size every OpenGL 4.1 implementation the platforms target supports.
	MaxSide = 16384
	// MaxTitle is the longest title, in bytes.
	MaxTitle = 256
)

// Options describe the game's window. Start from [DefaultOptions]: a zero
// size is invalid.
type Options struct {
	// Title is the window title, at most MaxTitle bytes.
	Title string
	// Width and Height are the logical window size in screen coordinates,
	// 1 to MaxSide each, within MinSize and MaxSize. Default 1280 x 720.
	Width, Height int
	// Resizable lets the player resize the window. Default true.
	Resizable bool
	// MinSize and MaxSize bound the logical size the player can resize
	// the window to: each side 1 to MaxSide, or 0 for no bound on that
	// side; a minimum at most its maximum. Default unbounded.
	MinSize, MaxSize input.Size
	// AspectRatio keeps the window's width:height while the player
	// resizes it (16:9): both sides 1 to MaxSide, or the zero Ratio
	// (default) for a free ratio.
	AspectRatio Ratio
	// Fullscreen opens the window fullscreen on its monitor, in the
	// monitor's current video mode; the window returns to Width x Height
	// when it leaves fullscreen. Default false.
	Fullscreen bool
	// VSync makes each present wait for the display's refresh. Default
	// false: the runtime paces frames itself.
	VSync bool `toml:"vsync"`
}

// Ratio is a width:height aspect ratio such as 16:9.
type Ratio struct{ Width, Height int }

// DefaultOptions returns a resizable 1280 x 720 window titled "Metronome",
// without size limits, aspect ratio, fullscreen or vsync.
func DefaultOptions() Options {
	return Options{Title: "Metronome", Width: 1280, Height: 720, Resizable: true}
}

// Validate reports every invalid field at once, joined with errors.Join,
// each an *[option.Error] naming the field (Options.Width,
// Options.MinSize, ...) and its allowed range.
func (o Options) Validate() error {
	var errs []error
	bad := func(field string, value any, problem, allowed string) {
		errs = append(errs, &option.Error{Pkg: "window", Field: field, Value: value, Problem: problem, Allowed: allowed})
	}
	if len(o.Title) > MaxTitle {
		bad("Options.Title", nil, fmt.Sprintf("is too long (%d bytes)", len(o.Title)), fmt.Sprintf("at most %d bytes", MaxTitle))
	}
	side := fmt.Sprintf("1 to %d", MaxSide)
	if o.Width < 1 || o.Width > MaxSide {
		bad("Options.Width", o.Width, "is out of range", side)
	}
	if o.Height < 1 || o.Height > MaxSide {
		bad("Options.Height", o.Height, "is out of range", side)
	}
	bound := fmt.Sprintf("each side %d to %d, or 0 (no bound on that side)", 1, MaxSide)
	okMin, okMax := inBound(o.MinSize), inBound(o.MaxSize)
	if !okMin {
		bad("Options.MinSize", o.MinSize, "is out of range", bound)
	}
	if !okMax {
		bad("Options.MaxSize", o.MaxSize, "is out of range", bound)
	}
	if okMin && okMax {
		sides := []struct {
			name, field    string
			size, min, max int
		}{
			{"width", "Options.Width", o.Width, o.MinSize.Width, o.MaxSize.Width},
			{"height", "Options.Height", o.Height, o.MinSize.Height, o.MaxSize.Height},
		}
		// Each is wrong only against the other bound or the size.
		relative := func(field string, value any, problem, allowed string) {
			errs = append(errs, &option.Error{Pkg: "window", Field: field, Value: value, Problem: problem, Allowed: allowed,
				Names: []string{"Options.MinSize", "Options.MaxSize"}, Relative: true})
		}
		for _, s := range sides {
			switch {
			case s.min > 0 && s.max > 0 && s.min > s.max:
				relative("Options.MinSize", o.MinSize, fmt.Sprintf("has its %s %d above Options.MaxSize's %d", s.name, s.min, s.max),
					"a minimum at most the maximum on each side")
			case s.min > 0 && s.size < s.min:
				relative(s.field, s.size, fmt.Sprintf("is below Options.MinSize's %s %d", s.name, s.min), "Options.MinSize to Options.MaxSize")
			case s.max > 0 && s.size > s.max:
				relative(s.field, s.size, fmt.Sprintf("is above Options.MaxSize's %s %d", s.name, s.max), "Options.MinSize to Options.MaxSize")
			}
		}
	}
	if a := o.AspectRatio; a != (Ratio{}) && (a.Width < 1 || a.Width > MaxSide || a.Height < 1 || a.Height > MaxSide) {
		bad("Options.AspectRatio", a, "is out of range", fmt.Sprintf("each side 1 to %d, or both 0 (free)", MaxSide))
	}
	return errors.Join(errs...)
}

// inBound reports whether each side of a size limit is 0 or 1 to MaxSide.
func inBound(s input.Size) bool {
	return s.Width >= 0 && s.Width <= MaxSide && s.Height >= 0 && s.Height <= MaxSide
}

// MarshalText writes r as "W:H", such as "16:9".
func (r Ratio) MarshalText() ([]byte, error) {
	return fmt.Appendf(nil, "%d:%d", r.Width, r.Height), nil
}

// UnmarshalText reads "W:H", such as "16:9" ("0:0" is a free ratio). The
// range is [Options.Validate]'s.
func (r *Ratio) UnmarshalText(b []byte) error {
	w, h, ok := strings.Cut(strings.TrimSpace(string(b)), ":")
	x, err1 := strconv.Atoi(strings.TrimSpace(w))
	y, err2 := strconv.Atoi(strings.TrimSpace(h))
	if !ok || err1 != nil || err2 != nil {
		return fmt.Errorf(`window: want a ratio string "W:H" such as "16:9"`)
	}
	*r = Ratio{Width: x, Height: y}
	return nil
}
