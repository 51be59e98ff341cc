package assets

import (
	"errors"
	"fmt"
	"image"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/metronome-go/metronome/internal/suggest"
	"github.com/metronome-go/metronome/media"
)

// SheetSpec describes how a sprite sheet image is cut up: an optional grid
// of equal frames and any number of named regions. Each frame and region
// is packed into the atlas on its own, with its own extruded border, so
// filtering never bleeds one frame into the next.
type SheetSpec struct {
	// FrameWidth and FrameHeight are the size of a grid cell in pixels.
	// Both zero means no grid (named regions only); otherwise both must be
	// positive.
	FrameWidth, FrameHeight int
	// Margin is the border around the grid, Spacing the gap between cells,
	// in pixels; both at least zero.
	Margin, Spacing int
	// FrameCount limits the grid to its first cells, row by row; zero
	// means every whole cell that fits the image.
	FrameCount int
	// Regions name rectangles of the image (in its pixel coordinates).
	Regions map[string]image.Rectangle
	// Animations name sequences of grid frames.
	Animations map[string]Animation
}

// LoopMode says what an animation does after its last frame.
type LoopMode uint8

const (
	// Loop starts again from the first frame (the zero value).
	Loop LoopMode = iota
	// Once stays on the last frame.
	Once
	// PingPong plays backwards to the first frame, then forwards again,
	// without showing the end frames twice.
	PingPong
)

// Animation is a sequence of grid frames shown for a fixed time each. It
// is plain data: the frame to show is a function of elapsed time (or
// ticks), so components store an elapsed value, never a cursor object.
type Animation struct {
	// Frames are indices into the sheet's grid.
	Frames []int
	// FrameTime is how long each frame shows; it must be positive.
	FrameTime time.Duration
	// Mode is what happens after the last frame.
	Mode LoopMode
}

// Index returns the position in Frames to show after elapsed time
// (negative elapsed counts as zero). It returns 0 for an empty animation.
func (a Animation) Index(elapsed time.Duration) int {
	if a.FrameTime <= 0 || elapsed < 0 {
		return 0
	}
	return a.step(int64(elapsed / a.FrameTime))
}

// IndexAtTick returns the position in Frames to show at a tick count when
// each frame lasts ticksPerFrame ticks (values below 1 count as 1): for
// games that count animation in fixed-step ticks rather than time.
func (a Animation) IndexAtTick(tick int64, ticksPerFrame int64) int {
	if ticksPerFrame < 1 {
		ticksPerFrame = 1
	}
	if tick < 0 {
		tick = 0
	}
	return a.step(tick / ticksPerFrame)
}

// Frame returns the grid frame to show after elapsed time.
func (a Animation) Frame(elapsed time.Duration) int {
	if len(a.Frames) == 0 {
		return 0
	}
	return a.Frames[a.Index(elapsed)]
}

// Duration returns the time of one pass through the frames (for PingPong,
// forward and back).
func (a Animation) Duration() time.Duration {
	n := len(a.Frames)
	if a.Mode == PingPong && n > 1 {
		n = 2*n - 2
	}
	return time.Duration(n) * a.FrameTime
}

// Done reports whether a Once animation has reached its last frame.
func (a Animation) Done(elapsed time.Duration) bool {
	return a.Mode == Once && a.FrameTime > 0 && elapsed >= time.Duration(len(a.Frames)-1)*a.FrameTime
}

func (a Animation) step(s int64) int {
	n := int64(len(a.Frames))
	if n <= 1 {
		return 0
	}
	switch a.Mode {
	case Once:
		return int(min(s, n-1))
	case PingPong:
		period := 2*n - 2
		s %= period
		if s >= n {
			s = period - s
		}
		return int(s)
	default:
		return int(s % n)
	}
}

type sheetEntry struct {
	name    string
	frames  []Image
	regions map[string]Image
	anims   map[string]Animation
}

// Sheet is a handle to a sprite sheet in a [Library]. The zero Sheet is
// never valid.
type Sheet struct{ id, gen uint32 }

// IsZero reports whether h is the zero handle.
func (h Sheet) IsZero() bool { return h == Sheet{} }

func (h Sheet) String() string { return fmt.Sprintf("sheet %d gen %d", h.id, h.gen) }

// Validate reports every problem with spec for an image of the given size.
func (spec SheetSpec) Validate(width, height int) error {
	var errs []error
	bounds := image.Rect(0, 0, width, height)
	grid := spec.FrameWidth != 0 || spec.FrameHeight != 0
	cells := 0
	if grid {
		if spec.FrameWidth <= 0 || spec.FrameHeight <= 0 {
			errs = append(errs, fmt.Errorf("FrameWidth and FrameHeight are %dx%d, want both positive (or both zero for no grid)", spec.FrameWidth, spec.FrameHeight))
		}
		if spec.Margin < 0 || spec.Spacing < 0 {
			errs = append(errs, fmt.Errorf("Margin %d and Spacing %d must be at least 0", spec.Margin, spec.Spacing))
		}
		if len(errs) == 0 {
			cols, rows := spec.gridSize(width, height)
			cells = cols * rows
			if cells == 0 {
				errs = append(errs, fmt.Errorf("no %dx%d frame fits in the %dx%d image with margin %d", spec.FrameWidth, spec.FrameHeight, width, height, spec.Margin))
			}
		}
	}
	if spec.FrameCount < 0 || (grid && cells > 0 && spec.FrameCount > cells) {
		errs = append(errs, fmt.Errorf("FrameCount is %d, want [0, %d]", spec.FrameCount, cells))
	}
	if spec.FrameCount > 0 && spec.FrameCount < cells {
		cells = spec.FrameCount
	}
	for _, name := range sortedKeys(spec.Regions) {
		r := spec.Regions[name]
		if r.Empty() || !r.In(bounds) {
			errs = append(errs, fmt.Errorf("region %q is %v, want a non-empty rectangle inside %v", name, r, bounds))
		}
	}
	for _, name := range sortedKeys(spec.Animations) {
		a := spec.Animations[name]
		if len(a.Frames) == 0 {
			errs = append(errs, fmt.Errorf("animation %q has no frames", name))
		}
		if a.FrameTime <= 0 {
			errs = append(errs, fmt.Errorf("animation %q FrameTime is %v, want > 0", name, a.FrameTime))
		}
		if a.Mode > PingPong {
			errs = append(errs, fmt.Errorf("animation %q Mode is %d, want Loop, Once or PingPong", name, a.Mode))
		}
		for i, f := range a.Frames {
			if f < 0 || f >= cells {
				errs = append(errs, fmt.Errorf("animation %q frame %d is grid frame %d, want [0, %d)", name, i, f, cells))
			}
		}
	}
	return errors.Join(errs...)
}

func (spec SheetSpec) gridSize(width, height int) (cols, rows int) {
	step := func(total, cell int) int {
		avail := total - 2*spec.Margin
		if avail < cell {
			return 0
		}
		return (avail-cell)/(cell+spec.Spacing) + 1
	}
	return step(width, spec.FrameWidth), step(height, spec.FrameHeight)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// LoadSheet decodes the PNG file name from fsys and cuts it up as spec
// says. Errors name the file and list every problem with spec; a failed
// load adds nothing. Safe from any goroutine.
func (l *Library) LoadSheet(fsys fs.FS, name string, spec SheetSpec) (Sheet, error) {
	img, err := DecodePNG(fsys, name, l.maxTextureSize())
	if err != nil {
		return Sheet{}, err
	}
	return l.AddSheet(name, img, spec)
}

// AddSheet is [Library.LoadSheet] for an image already in memory; name
// labels errors.
func (l *Library) AddSheet(name string, img image.Image, spec SheetSpec) (Sheet, error) {
	b := img.Bounds()
	if err := spec.Validate(b.Dx(), b.Dy()); err != nil {
		return Sheet{}, &media.Error{Pkg: "assets", Op: "load sheet", Path: name, Err: fmt.Errorf("%w: %w", media.ErrInvalid, err)}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.addSheetLocked(name, img, spec)
}

// addSheetLocked is [Library.AddSheet] after the spec was validated.
func (l *Library) addSheetLocked(name string, img image.Image, spec SheetSpec) (Sheet, error) {
	b := img.Bounds()
	if err := l.checkSize("load sheet", name, b.Dx(), b.Dy()); err != nil {
		return Sheet{}, err
	}
	e := sheetEntry{name: name, regions: make(map[string]Image, len(spec.Regions)), anims: make(map[string]Animation, len(spec.Animations))}
	add := func(label string, r image.Rectangle) Image {
		pi, pr := l.placeLocked(img, r.Add(b.Min), l.opts.Extrude)
		id, gen := l.images.add(imageEntry{name: label, page: pi, rect: pr})
		return Image{id, gen}
	}
	if spec.FrameWidth > 0 {
		cols, rows := spec.gridSize(b.Dx(), b.Dy())
		n := cols * rows
		if spec.FrameCount > 0 {
			n = spec.FrameCount
		}
		for i := range n {
			x := spec.Margin + (i%cols)*(spec.FrameWidth+spec.Spacing)
			y := spec.Margin + (i/cols)*(spec.FrameHeight+spec.Spacing)
			e.frames = append(e.frames, add(fmt.Sprintf("%s#%d", name, i), image.Rect(x, y, x+spec.FrameWidth, y+spec.FrameHeight)))
		}
	}
	for _, rn := range sortedKeys(spec.Regions) {
		e.regions[rn] = add(name+"#"+rn, spec.Regions[rn])
	}
	for an, a := range spec.Animations {
		a.Frames = slices.Clone(a.Frames)
		e.anims[an] = a
	}
	id, gen := l.sheets.add(e)
	return Sheet{id, gen}, nil
}

func (l *Library) sheetLocked(s Sheet) (*sheetEntry, error) {
	e := l.sheets.get(s.id, s.gen)
	if e == nil {
		return nil, staleErr("sheet", s.id, s.gen, l.sheets.current(s.id))
	}
	return e, nil
}

// FrameCount returns the number of grid frames of s.
func (l *Library) FrameCount(s Sheet) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, err := l.sheetLocked(s)
	if err != nil {
		return 0, err
	}
	return len(e.frames), nil
}

// Frame returns the region of grid frame i of s. Allocation-free.
func (l *Library) Frame(s Sheet, i int) (Region, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, err := l.sheetLocked(s)
	if err != nil {
		return Region{}, err
	}
	if i < 0 || i >= len(e.frames) {
		return Region{}, &media.Error{Pkg: "assets", Op: "draw frame", Path: e.name, Err: media.Detail(media.ErrInvalid, "frame %d, want [0, %d)", i, len(e.frames))}
	}
	return l.regionLocked(e.frames[i])
}

// FrameImage returns the image handle of grid frame i of s, for code that
// stores image handles. It goes stale with the sheet.
func (l *Library) FrameImage(s Sheet, i int) (Image, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, err := l.sheetLocked(s)
	if err != nil {
		return Image{}, err
	}
	if i < 0 || i >= len(e.frames) {
		return Image{}, &media.Error{Pkg: "assets", Op: "frame", Path: e.name, Err: media.Detail(media.ErrInvalid, "frame %d, want [0, %d)", i, len(e.frames))}
	}
	return e.frames[i], nil
}

// NamedRegion returns the region called name in s. Allocation-free.
func (l *Library) NamedRegion(s Sheet, name string) (Region, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, err := l.sheetLocked(s)
	if err != nil {
		return Region{}, err
	}
	img, ok := e.regions[name]
	if !ok {
		return Region{}, &media.Error{Pkg: "assets", Op: "draw region", Path: e.name, Err: regionNotFound(e, name)}
	}
	return l.regionLocked(img)
}

// regionNotFound names the missing region and the closest one the sheet
// has, or lists the sheet's regions when none is close.
func regionNotFound(e *sheetEntry, name string) error {
	names := sortedKeys(e.regions)
	if hint := suggest.Hint(name, names, true); hint != "" {
		return media.Detail(media.ErrInvalid, "no region named %q%s", name, hint)
	}
	if len(names) == 0 {
		return media.Detail(media.ErrInvalid, "no region named %q (the sheet has no named regions)", name)
	}
	if len(names) > 8 {
		names = append(names[:8:8], "...")
	}
	return media.Detail(media.ErrInvalid, "no region named %q (the sheet has %s)", name, strings.Join(names, ", "))
}

// Animation returns the animation called name in s. The returned value
// shares its Frames with the library; do not modify them.
func (l *Library) Animation(s Sheet, name string) (Animation, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, err := l.sheetLocked(s)
	if err != nil {
		return Animation{}, err
	}
	a, ok := e.anims[name]
	if !ok {
		return Animation{}, &media.Error{Pkg: "assets", Op: "animation", Path: e.name, Err: media.Detail(media.ErrInvalid, "no animation named %q", name)}
	}
	return a, nil
}

// AnimationFrame returns the region to draw for animation name of s after
// elapsed time: the whole lookup a sprite system needs per entity, and
// allocation-free.
func (l *Library) AnimationFrame(s Sheet, name string, elapsed time.Duration) (Region, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, err := l.sheetLocked(s)
	if err != nil {
		return Region{}, err
	}
	a, ok := e.anims[name]
	if !ok {
		return Region{}, &media.Error{Pkg: "assets", Op: "animation", Path: e.name, Err: media.Detail(media.ErrInvalid, "no animation named %q", name)}
	}
	return l.regionLocked(e.frames[a.Frame(elapsed)])
}

// ReleaseSheet releases s and all its frames and regions; see
// [Library.Release].
func (l *Library) ReleaseSheet(s Sheet) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, err := l.sheetLocked(s)
	if err != nil {
		return err
	}
	for _, img := range e.frames {
		l.releaseLocked(img)
	}
	for _, img := range e.regions {
		l.releaseLocked(img)
	}
	l.sheets.remove(s.id)
	return nil
}

func (l *Library) releaseLocked(img Image) {
	if e := l.images.get(img.id, img.gen); e != nil {
		l.unrefLocked(e.page)
		l.images.remove(img.id)
	}
}
