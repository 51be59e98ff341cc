package assets

import (
	"errors"
	"fmt"
	"image"
	"io/fs"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/image/vector"

	"github.com/metronome-go/metronome/assets/internal/ttf"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/timing"
)

// Options configure a [Library]. Start from [DefaultOptions]: in a zero
// Options, PageSize and MaxTextureSize take their defaults but Padding and
// Extrude are zero, which is what a packer of glyph-free pixel data may want
// and not what filtered sprites want.
type Options struct {
	// PageSize is the side of an atlas page in texels. Images that do not
	// fit a page (with their border) get a texture of their own. Zero means
	// 1024; otherwise it must be in [64, MaxTextureSize].
	PageSize int
	// MaxTextureSize is the largest image side accepted. Zero means
	// [DefaultMaxTextureSize]. [Library.Upload] lowers it to the
	// renderer's limit when that is smaller. Range [64, 65536].
	MaxTextureSize int
	// Padding is the number of transparent texels kept between neighbours
	// in a page, in [0, 16]. Default 1.
	Padding int
	// Extrude repeats each image's edge texels this many times around it,
	// in [0, 16], so linear filtering at a sprite's edge samples its own
	// colour rather than transparency or a neighbour. Default 1. Glyphs
	// are never extruded: their edges are already transparent.
	Extrude int
	// Texture is passed to the renderer for every page: the filter and
	// wrap of every image, sprite sheet and glyph placed in the library.
	// The zero value is linear filtering; a framework game picks the
	// filter with the render.filter configuration key.
	Texture render2d.TextureOptions
	// UploadBudget is the most time one [Library.UploadStep] spends
	// sending texels to the renderer: a new page or a large change (a
	// background load placing images) is sent in bands across several
	// steps, one per presented frame, so that it never makes a frame
	// late. Small changes (new glyphs, a sprite) are sent whole at every
	// step. Zero sends everything at every step, as [Library.Upload] does.
	// [DefaultOptions] sets [DefaultUploadBudget]; 0 to [MaxUploadBudget].
	UploadBudget time.Duration
	// Clock measures UploadBudget and the upload statistics; nil is
	// [timing.SystemClock].
	Clock timing.Clock
}

// DefaultUploadBudget is [DefaultOptions]' UploadBudget: an eighth of a
// 60 Hz frame. MaxUploadBudget bounds it.
const (
	DefaultUploadBudget = 2 * time.Millisecond
	MaxUploadBudget     = time.Second
)

// uploadBand is the most bytes of texels one band of a budgeted upload
// sends, and the largest change a budgeted step sends whole whatever its
// budget: 64 KiB is 16 rows of a 1024-texel page.
const uploadBand = 64 << 10

// DefaultOptions returns 1024-texel pages, a 4096 limit, one texel of
// padding and one of extrusion, linear filtering ([render2d.FilterLinear]),
// and uploads spread across frames within [DefaultUploadBudget].
func DefaultOptions() Options {
	return Options{PageSize: 1024, MaxTextureSize: DefaultMaxTextureSize, Padding: 1, Extrude: 1, UploadBudget: DefaultUploadBudget}
}

func (o Options) withDefaults() Options {
	if o.PageSize == 0 {
		o.PageSize = 1024
	}
	if o.MaxTextureSize == 0 {
		o.MaxTextureSize = DefaultMaxTextureSize
	}
	return o
}

// Validate reports every out-of-range field at once.
func (o Options) Validate() error {
	o = o.withDefaults()
	var errs []error
	if o.MaxTextureSize < 64 || o.MaxTextureSize > 65536 {
		errs = append(errs, fmt.Errorf("assets: Options.MaxTextureSize is %d, want 0 (default) or [64, 65536]", o.MaxTextureSize))
	}
	if o.PageSize < 64 || o.PageSize > o.MaxTextureSize {
		errs = append(errs, fmt.Errorf("assets: Options.PageSize is %d, want 0 (default 1024) or [64, MaxTextureSize=%d]", o.PageSize, o.MaxTextureSize))
	}
	if o.Padding < 0 || o.Padding > 16 {
		errs = append(errs, fmt.Errorf("assets: Options.Padding is %d, want [0, 16]", o.Padding))
	}
	if o.Extrude < 0 || o.Extrude > 16 {
		errs = append(errs, fmt.Errorf("assets: Options.Extrude is %d, want [0, 16]", o.Extrude))
	}
	if err := o.Texture.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("assets: Options.Texture: %w", err))
	}
	if o.UploadBudget < 0 || o.UploadBudget > MaxUploadBudget {
		errs = append(errs, fmt.Errorf("assets: Options.UploadBudget is %v, want [0, %v]", o.UploadBudget, MaxUploadBudget))
	}
	return errors.Join(errs...)
}

// Uploader is the part of [render2d.Renderer] that [Library.Upload] uses.
// Its methods are called on the graphics thread only.
type Uploader interface {
	CreateTexture(img *image.RGBA, opts render2d.TextureOptions) (render2d.TextureHandle, error)
	UpdateTexture(h render2d.TextureHandle, x, y int, img *image.RGBA) error
	ReleaseTexture(h render2d.TextureHandle) error
	MaxTextureSize() int
}

// Library owns every image, sprite sheet and font of a game, packed into
// atlas pages, and the CPU copies of those pages. It is safe for concurrent
// use: the simulation goroutine loads assets, resolves handles and lays out
// text while the graphics thread runs [Library.Upload]; one mutex orders
// them. Every method may be called from any goroutine except Upload and
// ReleaseTextures, which talk to the renderer and so belong to the graphics
// thread.
type Library struct {
	mu     sync.Mutex
	opts   Options
	maxTex int

	pages  []*page
	images table[imageEntry]
	sheets table[sheetEntry]
	fonts  table[*fontEntry]
	sounds table[soundEntry] // see sound.go

	stage   *image.RGBA // reused for partial uploads
	outline ttf.Outline // reused by glyph rasterisation
	raster  *vector.Rasterizer
	mask    image.Alpha
	scratch []render2d.DrawPacket2D
	line    []placed                // the line being laid out
	parsed  map[fontKey]*parsedFont // fonts parsed by ParseFont, by their bytes

	clock timing.Clock
	stats uploadCounters
	// written is signalled, on mu, when a page's last writer is done.
	written sync.Cond
}

// uploadCounters are the upload statistics, written on the graphics
// thread and read from anywhere.
type uploadCounters struct {
	calls, deferred, bytes    atomic.Uint64
	time, longest             atomic.Int64
	lockWait, longestWait     atomic.Int64
	creates, sends            atomic.Uint64
	createTime, longestCreate atomic.Int64
	sendTime, longestSend     atomic.Int64
}

// UploadStats say what the uploads of a library have cost so far: the
// work a background load puts on the graphics thread, measured where it
// runs.
type UploadStats struct {
	// Calls counts Upload and UploadStep calls; Deferred those that left
	// work for the next step because the budget was spent.
	Calls    uint64 `json:"calls"`
	Deferred uint64 `json:"deferred"`
	// Bytes counts the texel bytes sent to the renderer.
	Bytes uint64 `json:"bytes"`
	// Time is the time spent in the calls, waiting for the library's lock
	// included; Longest the longest call (since [Library.ResetUploadPeak]).
	Time    time.Duration `json:"time_ns"`
	Longest time.Duration `json:"longest_ns"`
	// LockWait is the part of Time the calls spent waiting for the
	// library's lock, held by another goroutine (a worker placing an
	// image, the simulation laying out text); LongestLockWait the longest
	// such wait (since [Library.ResetUploadPeak]).
	LockWait        time.Duration `json:"lock_wait_ns"`
	LongestLockWait time.Duration `json:"longest_lock_wait_ns"`
	// Creates counts the textures the calls created (new atlas pages),
	// CreateTime the part of Time spent in the renderer's CreateTexture,
	// LongestCreate the longest one (since [Library.ResetUploadPeak]). A
	// creation is one call that no budget can split: software GL
	// (llvmpipe) takes 15-35 ms for a 1024-texel page, so a creation
	// among a load's frames makes one of them that late ([Library.Reserve]
	// makes them ahead).
	Creates       uint64        `json:"creates"`
	CreateTime    time.Duration `json:"create_ns"`
	LongestCreate time.Duration `json:"longest_create_ns"`
	// Sends counts the texel copies handed to the renderer's
	// UpdateTexture (the bands of a large change, small changes whole),
	// SendTime the part of Time spent in them and LongestSend the longest
	// one (since [Library.ResetUploadPeak]): a driver that waits for the
	// draws reading a texture, or copies slowly, shows here. The rest of
	// Time, less LockWait, is the library's own: staging the texels,
	// waiting for a worker's copy into a page, and whatever kept the
	// thread from running between the calls.
	Sends       uint64        `json:"sends"`
	SendTime    time.Duration `json:"send_ns"`
	LongestSend time.Duration `json:"longest_send_ns"`
}

// Since returns the statistics of the calls made after s0 was read: the
// counts and times less s0's. The longest values are kept as they are:
// they run from the latest [Library.ResetUploadPeak], so reset the peaks
// where s0 is read. Any goroutine.
func (s UploadStats) Since(s0 UploadStats) UploadStats {
	s.Calls -= s0.Calls
	s.Deferred -= s0.Deferred
	s.Bytes -= s0.Bytes
	s.Time -= s0.Time
	s.LockWait -= s0.LockWait
	s.Creates -= s0.Creates
	s.CreateTime -= s0.CreateTime
	s.Sends -= s0.Sends
	s.SendTime -= s0.SendTime
	return s
}

// ResetUploadPeak starts the longest values of [UploadStats] (Longest,
// LongestLockWait, LongestCreate, LongestSend) again from zero, to find
// the longest upload of a stretch of the session (a background load).
// Safe from any goroutine.
func (l *Library) ResetUploadPeak() {
	l.stats.longest.Store(0)
	l.stats.longestWait.Store(0)
	l.stats.longestCreate.Store(0)
	l.stats.longestSend.Store(0)
}

// UploadStats returns the upload statistics. Safe from any goroutine.
func (l *Library) UploadStats() UploadStats {
	c := &l.stats
	return UploadStats{
		Calls: c.calls.Load(), Deferred: c.deferred.Load(), Bytes: c.bytes.Load(),
		Time: time.Duration(c.time.Load()), Longest: time.Duration(c.longest.Load()),
		LockWait: time.Duration(c.lockWait.Load()), LongestLockWait: time.Duration(c.longestWait.Load()),
		Creates: c.creates.Load(), CreateTime: time.Duration(c.createTime.Load()), LongestCreate: time.Duration(c.longestCreate.Load()),
		Sends: c.sends.Load(), SendTime: time.Duration(c.sendTime.Load()), LongestSend: time.Duration(c.longestSend.Load()),
	}
}

// testHookContended, when set by a test, runs when [Library.lockTimed]
// finds the lock held, before it waits; testHookWaitWriters when an upload
// is about to wait for a copy into a page.
var testHookContended, testHookWaitWriters func()

// lockTimed takes the library's lock and returns how long it waited for
// it: zero, without reading the clock, when the lock was free.
func (l *Library) lockTimed() time.Duration {
	if l.mu.TryLock() {
		return 0
	}
	if h := testHookContended; h != nil {
		h()
	}
	t0 := l.clock.Now()
	l.mu.Lock()
	return time.Duration(l.clock.Now() - t0)
}

// raise sets m to d if d is larger.
func raise(m *atomic.Int64, d int64) {
	for {
		v := m.Load()
		if d <= v || m.CompareAndSwap(v, d) {
			return
		}
	}
}

// page is one atlas texture: its CPU pixels, the packer that places entries
// in it, and its GPU state.
type page struct {
	img       *image.RGBA
	packer    *Packer // nil for a dedicated page
	tex       render2d.TextureHandle
	dirty     image.Rectangle // texels changed since the last upload
	refs      int             // live images and glyphs in the page
	used      bool            // something was ever placed here
	retired   bool            // every entry released: texture goes at next upload
	dedicated bool
	// deferred: a budgeted step left texels of dirty unsent; what lies
	// there is not drawable yet.
	deferred bool
	// writers counts goroutines copying pixels into the page outside the
	// lock (see Library.add), into the cells in writing: no upload reads
	// those texels meanwhile.
	writers int
	writing []image.Rectangle
}

// writingOver reports whether an image is being copied into r.
func (p *page) writingOver(r image.Rectangle) bool {
	for _, w := range p.writing {
		if w.Overlaps(r) {
			return true
		}
	}
	return false
}

// markDirty notes that the texels of r changed, with a ring of one texel
// around them: a page created without pixels (see createLocked) has
// undefined texels where nothing was sent, and linear filtering at an
// entry's edge samples up to half a texel beyond it, where the page holds
// padding (transparent) that must be on the GPU too.
func (p *page) markDirty(r image.Rectangle) {
	p.dirty = p.dirty.Union(r.Inset(-1).Intersect(p.img.Rect))
}

// pendingLocked reports whether the texels of r in p are not on the GPU
// yet: the page has no texture, or a budgeted upload has not sent them.
func (p *page) pendingLocked(r image.Rectangle) bool {
	return p.tex.IsZero() || (p.deferred && r.Overlaps(p.dirty))
}

type imageEntry struct {
	name string
	fsys fs.FS // nil for images added from memory
	page int
	rect image.Rectangle // in page texels, without border
}

// Image is a handle to an image in a [Library]: a generation-checked id.
// The zero Image is never valid. Handles are plain values: copy them into
// components freely.
type Image struct{ id, gen uint32 }

// IsZero reports whether h is the zero handle.
func (h Image) IsZero() bool { return h == Image{} }

func (h Image) String() string { return fmt.Sprintf("image %d gen %d", h.id, h.gen) }

// Region is where an image lives on the GPU: the page texture and the
// image's rectangle in it, in texels, with its size. It is what a draw
// packet needs.
type Region struct {
	Texture render2d.TextureHandle
	Source  geom.Rect
}

// Size returns the region's size in texels, the natural size to draw it.
func (r Region) Size() geom.Vec2 { return geom.Vec2{X: r.Source.W, Y: r.Source.H} }

// Sprite returns a packet drawing the region untinted at its natural size
// with its top-left corner at pos. Adjust the packet's fields for anything
// else.
func (r Region) Sprite(pos geom.Vec2) render2d.DrawPacket2D {
	return render2d.Sprite(r.Texture, r.Source, pos, r.Size())
}

// NewLibrary returns an empty library, or an error listing every invalid
// option.
func NewLibrary(opts Options) (*Library, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	opts = opts.withDefaults()
	l := &Library{opts: opts, maxTex: opts.MaxTextureSize, clock: opts.Clock}
	l.written.L = &l.mu
	if l.clock == nil {
		l.clock = timing.SystemClock{}
	}
	return l, nil
}

// Options returns the options the library was made with, defaults filled
// in. Safe from any goroutine.
func (l *Library) Options() Options { return l.opts }

// LoadImage decodes the PNG file name from fsys and places it in an atlas
// page. Errors name the file (see [DecodePNG]); a failed load leaves the
// library as it was. Safe from any goroutine.
func (l *Library) LoadImage(fsys fs.FS, name string) (Image, error) {
	img, err := DecodePNG(fsys, name, l.maxTextureSize())
	if err != nil {
		return Image{}, err
	}
	return l.add(imageEntry{name: name, fsys: fsys}, img, "load image", nil)
}

// AddImage places an image made in memory (procedural textures, tests) in
// an atlas page under name, which only labels errors. The pixels are
// copied. Safe from any goroutine.
func (l *Library) AddImage(name string, img image.Image) (Image, error) {
	if img == nil {
		return Image{}, &media.Error{Pkg: "assets", Op: "add image", Path: name, Err: media.Detail(media.ErrInvalid, "image is nil")}
	}
	return l.add(imageEntry{name: name}, img, "add image", nil)
}

func (l *Library) maxTextureSize() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.maxTex
}

func (l *Library) checkSize(op, name string, w, h int) error {
	if w <= 0 || h <= 0 {
		return &media.Error{Pkg: "assets", Op: op, Path: name, Err: media.Detail(ErrEmpty, "image is %dx%d, both sides must be at least 1", w, h)}
	}
	if w > l.maxTex || h > l.maxTex {
		return &media.Error{Pkg: "assets", Op: op, Path: name, Err: media.Detail(media.ErrTooLarge, "image is %dx%d, the maximum texture size is %d", w, h, l.maxTex)}
	}
	return nil
}

// placeTimes is where the placing of one image spent its time: waiting
// for the library's lock, holding it, and copying pixels outside it.
type placeTimes struct{ wait, hold, copy time.Duration }

// add places img in an atlas page and registers it as e. The pixels are
// copied outside the library's lock, which is held only to claim the
// space and to register the image once copied: a goroutine that places
// images (a background load's worker, whose thread may run at a lower
// priority and be preempted anywhere) then never keeps the graphics thread
// or the simulation waiting for the lock through a copy of its pixels. A
// new page's memory is also allocated outside the lock. t, when not nil,
// receives the times.
func (l *Library) add(e imageEntry, img image.Image, op string, t *placeTimes) (Image, error) {
	b := img.Bounds()
	extrude := l.opts.Extrude
	w, h := b.Dx(), b.Dy()
	cw, ch := w+2*extrude+l.opts.Padding, h+2*extrude+l.opts.Padding
	dedicated := cw > l.opts.PageSize || ch > l.opts.PageSize
	var fresh *page
	if dedicated && w > 0 && h > 0 && max(w, h) <= l.maxTextureSize() {
		// Too big for a page: a texture of its own, exactly its size,
		// whose clamped edges do what extrusion would.
		fresh = &page{img: image.NewRGBA(image.Rect(0, 0, w, h)), used: true, dedicated: true}
	}
	var (
		p  *page
		pi int
		r  image.Rectangle
	)
	for {
		wait := l.lockTimed()
		t0 := l.clock.Now()
		if err := l.checkSize(op, e.name, w, h); err != nil {
			l.mu.Unlock()
			return Image{}, err
		}
		switch {
		case dedicated:
			pi, r = len(l.pages), image.Rect(0, 0, w, h)
			l.pages = append(l.pages, fresh)
			extrude = 0
		case fresh != nil:
			// The page allocated on the last pass, unless another
			// goroutine made room meanwhile.
			var ok bool
			if pi, r, ok = l.claimLocked(cw, ch, extrude, w, h); !ok {
				l.pages = append(l.pages, fresh)
				pi, r, _ = l.claimLocked(cw, ch, extrude, w, h)
			}
		default:
			var ok bool
			pi, r, ok = l.claimLocked(cw, ch, extrude, w, h)
			if !ok {
				l.mu.Unlock()
				t.add(wait, time.Duration(l.clock.Now()-t0), 0)
				fresh = l.newPage()
				continue
			}
		}
		p = l.pages[pi]
		p.used = true
		p.refs++ // so that the page cannot retire while the pixels are copied
		p.writers++
		p.writing = append(p.writing, r.Inset(-extrude))
		l.mu.Unlock()
		t.add(wait, time.Duration(l.clock.Now()-t0), 0)
		break
	}
	// These texels are this goroutine's alone: space is never handed out
	// twice, and no upload reads a page with a writer (see upload).
	t0 := l.clock.Now()
	blit(p.img, r, img, b, extrude)
	t1 := l.clock.Now()
	wait := l.lockTimed()
	t2 := l.clock.Now()
	defer l.mu.Unlock()
	p.writers--
	if i := slices.Index(p.writing, r.Inset(-extrude)); i >= 0 {
		p.writing = slices.Delete(p.writing, i, i+1)
	}
	l.written.Broadcast()
	l.markFilledLocked(p, r.Inset(-extrude))
	e.page, e.rect = pi, r
	id, gen := l.images.add(e)
	t.add(wait, time.Duration(l.clock.Now()-t2), time.Duration(t1-t0))
	return Image{id, gen}, nil
}

// add sums times into t, if t is not nil.
func (t *placeTimes) add(wait, hold, copy time.Duration) {
	if t != nil {
		t.wait += wait
		t.hold += hold
		t.copy += copy
	}
}

// claimLocked takes room for a cw x ch cell in a shared page and returns
// the page and the rectangle of the w x h image in it, inside extrude
// texels of border; false when no page has room.
func (l *Library) claimLocked(cw, ch, extrude, w, h int) (int, image.Rectangle, bool) {
	for i, p := range l.pages {
		if p.dedicated || p.retired {
			continue
		}
		if at, ok := p.packer.Pack(cw, ch); ok {
			min := at.Add(image.Pt(extrude, extrude))
			return i, image.Rectangle{Min: min, Max: min.Add(image.Pt(w, h))}, true
		}
	}
	return 0, image.Rectangle{}, false
}

// placeLocked copies the b part of src into a page with extrude texels of
// repeated edge around it and returns the page and the image's rectangle.
func (l *Library) placeLocked(src image.Image, b image.Rectangle, extrude int) (int, image.Rectangle) {
	w, h := b.Dx(), b.Dy()
	cw, ch := w+2*extrude+l.opts.Padding, h+2*extrude+l.opts.Padding
	if cw > l.opts.PageSize || ch > l.opts.PageSize {
		// Too big for a page: a texture of its own, exactly its size,
		// whose clamped edges do what extrusion would.
		p := &page{img: image.NewRGBA(image.Rect(0, 0, w, h)), used: true, dedicated: true}
		r := image.Rect(0, 0, w, h)
		blit(p.img, r, src, b, 0)
		p.refs++
		p.dirty = r
		l.pages = append(l.pages, p)
		return len(l.pages) - 1, r
	}
	for i, p := range l.pages {
		if p.dedicated || p.retired {
			continue
		}
		if at, ok := p.packer.Pack(cw, ch); ok {
			return i, l.fillLocked(i, at, src, b, extrude)
		}
	}
	l.pages = append(l.pages, l.newPage())
	i := len(l.pages) - 1
	at, _ := l.pages[i].packer.Pack(cw, ch)
	return i, l.fillLocked(i, at, src, b, extrude)
}

func (l *Library) newPage() *page {
	s := l.opts.PageSize
	return &page{img: image.NewRGBA(image.Rect(0, 0, s, s)), packer: NewPacker(s, s)}
}

func (l *Library) fillLocked(pi int, at image.Point, src image.Image, b image.Rectangle, extrude int) image.Rectangle {
	p := l.pages[pi]
	r := image.Rectangle{Min: at.Add(image.Pt(extrude, extrude)), Max: at.Add(image.Pt(extrude+b.Dx(), extrude+b.Dy()))}
	blit(p.img, r, src, b, extrude)
	p.used = true
	p.refs++
	l.markFilledLocked(p, r.Inset(-extrude))
	return r
}

// markFilledLocked marks the texels of r, newly filled, for upload.
func (l *Library) markFilledLocked(p *page, r image.Rectangle) {
	p.markDirty(r)
	if l.opts.UploadBudget > 0 && 4*p.dirty.Dx()*p.dirty.Dy() > uploadBand {
		p.deferred = true // more than a step sends whole: pending until sent
	}
}

// MaxReserve bounds the count of [Library.Reserve].
const MaxReserve = 1 << 16

// Reserve makes room ahead of need for count images of width x height
// texels: it adds empty atlas pages until the empty pages hold count such
// images side by side with one page to spare. A background load that will
// place them then fills pages whose textures exist already, instead of
// creating a texture in the middle of its frames (a new page texture costs
// software GL, llvmpipe, one page of fresh memory: 12-30 ms for a
// 1024x1024 page, most of a frame). The textures are created by the next
// [Library.Upload], all at once, so call Reserve in a game's setup, before
// the upload that follows it; [Library.UploadStep] creates them one per
// step, on steps that have nothing else to send.
//
// Space left in pages already in use is not counted, so Reserve may add a
// page more than a load needs. Images too large for a page get textures of
// their own, which cannot be made ahead: Reserve refuses them, as it does
// a count outside [0, MaxReserve] and a size outside [1, the maximum
// texture size]. Safe from any goroutine.
func (l *Library) Reserve(count, width, height int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	const op = "reserve"
	name := fmt.Sprintf("%d images of %dx%d", count, width, height)
	if count < 0 || count > MaxReserve {
		return &media.Error{Pkg: "assets", Op: op, Path: name, Err: media.Detail(media.ErrInvalid, "count is %d, want 0 to %d", count, MaxReserve)}
	}
	if err := l.checkSize(op, name, width, height); err != nil {
		return err
	}
	e, s := l.opts.Extrude, l.opts.PageSize
	cw, ch := width+2*e+l.opts.Padding, height+2*e+l.opts.Padding
	if cw > s || ch > s {
		return &media.Error{Pkg: "assets", Op: op, Path: name, Err: media.Detail(media.ErrInvalid, "with extrusion and padding each takes %dx%d texels, more than the %d page size: such images get textures of their own, which cannot be reserved", cw, ch, s)}
	}
	if count == 0 {
		return nil
	}
	need := (count+(s/cw)*(s/ch)-1)/((s/cw)*(s/ch)) + 1 // and the spare
	for _, p := range l.pages {
		if !p.used && !p.dedicated && !p.retired {
			need--
		}
	}
	for ; need > 0; need-- {
		l.pages = append(l.pages, l.newPage())
	}
	return nil
}

// blit copies the sb part of src into dst at r, then repeats its edge
// texels extrude times outward.
func blit(dst *image.RGBA, r image.Rectangle, src image.Image, sb image.Rectangle, extrude int) {
	if s, ok := src.(*image.RGBA); ok {
		for y := 0; y < r.Dy(); y++ {
			so := s.PixOffset(sb.Min.X, sb.Min.Y+y)
			do := dst.PixOffset(r.Min.X, r.Min.Y+y)
			copy(dst.Pix[do:do+4*r.Dx()], s.Pix[so:so+4*r.Dx()])
		}
	} else {
		for y := 0; y < r.Dy(); y++ {
			for x := 0; x < r.Dx(); x++ {
				dst.Set(r.Min.X+x, r.Min.Y+y, src.At(sb.Min.X+x, sb.Min.Y+y))
			}
		}
	}
	if extrude == 0 {
		return
	}
	row := 4 * r.Dx()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		first := dst.PixOffset(r.Min.X, y)
		last := dst.PixOffset(r.Max.X-1, y)
		for e := 1; e <= extrude; e++ {
			copy(dst.Pix[first-4*e:first-4*e+4], dst.Pix[first:first+4])
			copy(dst.Pix[last+4*e:last+4*e+4], dst.Pix[last:last+4])
		}
	}
	full := r.Inset(-extrude)
	top := dst.PixOffset(full.Min.X, r.Min.Y)
	bottom := dst.PixOffset(full.Min.X, r.Max.Y-1)
	row += 8 * extrude
	for e := 1; e <= extrude; e++ {
		up := dst.PixOffset(full.Min.X, r.Min.Y-e)
		down := dst.PixOffset(full.Min.X, r.Max.Y-1+e)
		copy(dst.Pix[up:up+row], dst.Pix[top:top+row])
		copy(dst.Pix[down:down+row], dst.Pix[bottom:bottom+row])
	}
}

// staleErr describes a handle that no longer names a live asset.
func staleErr(kind string, id, gen, current uint32) error {
	if current == 0 {
		return media.Detail(ErrStale, "assets: %s %d gen %d is stale: it was released or never issued", kind, id, gen)
	}
	return media.Detail(ErrStale, "assets: %s %d gen %d is stale: released or reloaded, the live generation is %d", kind, id, gen, current)
}

// Region returns where img is on the GPU. It fails with [ErrStale] for a
// released or reloaded handle and [ErrPending] when the image's page has
// no texture yet (load before the first [Library.Upload], or a new page
// since the last one). Safe from any goroutine; allocation-free on success.
func (l *Library) Region(img Image) (Region, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.regionLocked(img)
}

func (l *Library) regionLocked(img Image) (Region, error) {
	e := l.images.get(img.id, img.gen)
	if e == nil {
		return Region{}, staleErr("image", img.id, img.gen, l.images.current(img.id))
	}
	p := l.pages[e.page]
	if p.pendingLocked(e.rect.Inset(-l.opts.Extrude)) {
		return Region{}, &media.Error{Pkg: "assets", Op: "draw image", Path: e.name, Err: media.Detail(ErrPending, "page %d has no texture or not these texels yet: call Upload or UploadStep on the graphics thread", e.page)}
	}
	return Region{Texture: p.tex, Source: rectOf(e.rect)}, nil
}

func rectOf(r image.Rectangle) geom.Rect {
	return geom.Rect{X: float32(r.Min.X), Y: float32(r.Min.Y), W: float32(r.Dx()), H: float32(r.Dy())}
}

// Sprite returns a packet drawing img at its natural size with its top-left
// corner at pos; see [Library.Region] for the errors.
func (l *Library) Sprite(img Image, pos geom.Vec2) (render2d.DrawPacket2D, error) {
	r, err := l.Region(img)
	if err != nil {
		return render2d.DrawPacket2D{}, err
	}
	return r.Sprite(pos), nil
}

// ImageSize returns the size of img in pixels.
func (l *Library) ImageSize(img Image) (width, height int, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.images.get(img.id, img.gen)
	if e == nil {
		return 0, 0, staleErr("image", img.id, img.gen, l.images.current(img.id))
	}
	return e.rect.Dx(), e.rect.Dy(), nil
}

// Release forgets img; its handle and every copy of it go stale. The atlas
// space is not reused (a frame already published may still draw it), but a
// page whose every entry has been released is freed, on the GPU at the next
// [Library.Upload]. Releasing a stale handle is an [ErrStale] error and
// changes nothing. Safe from any goroutine.
func (l *Library) Release(img Image) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.images.get(img.id, img.gen)
	if e == nil {
		return staleErr("image", img.id, img.gen, l.images.current(img.id))
	}
	l.unrefLocked(e.page)
	l.images.remove(img.id)
	return nil
}

func (l *Library) unrefLocked(pi int) {
	p := l.pages[pi]
	p.refs--
	if p.refs == 0 && p.used {
		p.retired = true
		p.img = nil
		p.packer = nil
		p.dirty = image.Rectangle{}
	}
}

// Reload reads img's file again from the file system it was loaded from
// and returns a new handle for the new pixels; the old handle goes stale.
// The new pixels go to fresh atlas space, so a frame published before the
// reload still draws the old image, never a mix. If the file cannot be
// loaded, the old handle stays valid and is returned with the error.
// Images added from memory cannot be reloaded.
func (l *Library) Reload(img Image) (Image, error) {
	l.mu.Lock()
	e := l.images.get(img.id, img.gen)
	if e == nil {
		err := staleErr("image", img.id, img.gen, l.images.current(img.id))
		l.mu.Unlock()
		return img, err
	}
	fsys, name, maxTex := e.fsys, e.name, l.maxTex
	l.mu.Unlock()
	if fsys == nil {
		return img, &media.Error{Pkg: "assets", Op: "reload image", Path: name, Err: media.Detail(media.ErrInvalid, "image has no file of its own to reload (added from memory or cut from a sheet)")}
	}
	pix, err := DecodePNG(fsys, name, maxTex)
	if err != nil {
		return img, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	e = l.images.get(img.id, img.gen)
	if e == nil { // released or reloaded while we decoded
		return img, staleErr("image", img.id, img.gen, l.images.current(img.id))
	}
	if err := l.checkSize("reload image", name, pix.Rect.Dx(), pix.Rect.Dy()); err != nil {
		return img, err
	}
	old := e.page
	pi, r := l.placeLocked(pix, pix.Rect, l.opts.Extrude)
	gen := l.images.replace(img.id, imageEntry{name: name, fsys: fsys, page: pi, rect: r})
	l.unrefLocked(old)
	return Image{img.id, gen}, nil
}

// Upload brings the GPU up to date with the library, on the graphics
// thread: it creates textures for new pages, copies texels changed since
// the last call (new images, glyphs rasterised by text layout), frees the
// textures of retired pages, and keeps one empty page ready so that text
// laid out on the simulation side rarely has to wait for a new texture.
// It sends everything at once, whatever [Options.UploadBudget] says: call
// it where every asset must be drawable right after (a game's setup).
//
// Call it on the graphics thread after taking the frame to render and
// before [render2d.Renderer.Render]: everything the simulation rasterised
// before publishing that frame is then on the GPU when it is drawn.
// It holds the library's lock while it talks to the renderer.
//
// Failures are joined; pages that failed stay pending and are retried by
// the next call.
func (l *Library) Upload(r Uploader) error {
	_, err := l.upload(r, 0)
	return err
}

// UploadStep is [Library.Upload] within [Options.UploadBudget], for every
// presented frame ([UploadingRenderer] calls it): changes of up to 64 KiB
// (glyphs, a sprite) are sent whole, then new pages and large changes in
// bands of up to 64 KiB until the budget is spent, at least one band per
// step. It reports whether work is left for the next step. Until a band
// has been sent, the images and glyphs in it are pending ([Library.Region]
// returns [ErrPending], text layout leaves them out), so nothing is drawn
// from texels the GPU does not have. Graphics thread only.
func (l *Library) UploadStep(r Uploader) (pending bool, err error) {
	return l.upload(r, l.opts.UploadBudget)
}

// upload sends what changed, within budget (zero: everything).
func (l *Library) upload(r Uploader, budget time.Duration) (pending bool, err error) {
	start := l.clock.Now()
	waited := l.lockTimed()
	var sent uint64
	defer func() {
		l.mu.Unlock()
		l.count(start, waited, sent, pending && budget > 0)
	}()
	if m := r.MaxTextureSize(); m > 0 && m < l.maxTex {
		l.maxTex = m
	}
	if budget == 0 {
		// Everything now: wait for the pixels being copied in.
		for l.writingLocked() {
			l.written.Wait()
		}
	}
	var errs []error
	// Retired pages go, and small changes to pages on the GPU are sent
	// whole: new glyphs must be drawable in the frame that lays them out.
	for i, p := range l.pages {
		switch {
		case p.retired:
			if !p.tex.IsZero() {
				if err := r.ReleaseTexture(p.tex); err != nil {
					errs = append(errs, &media.Error{Pkg: "assets", Op: "release", Path: fmt.Sprintf("atlas page %d", i), Err: err})
				}
				p.tex = render2d.TextureHandle{}
			}
		case !p.tex.IsZero() && !p.dirty.Empty() && (budget == 0 || 4*p.dirty.Dx()*p.dirty.Dy() <= uploadBand):
			// A small change may be a glyph the frame about to be
			// drawn uses, so it cannot wait for the next step. A
			// worker copying an image into another part of the page is
			// no obstacle; should its cell lie in the change's
			// rectangle (rare), wait for the copy.
			for p.writingOver(p.dirty) {
				if h := testHookWaitWriters; h != nil {
					h()
				}
				l.written.Wait()
			}
			if p.retired || p.dirty.Empty() {
				continue
			}
			if err := l.sendLocked(r, p, p.dirty); err != nil {
				errs = append(errs, &media.Error{Pkg: "assets", Op: "upload", Path: fmt.Sprintf("atlas page %d", i), Err: err})
				continue
			}
			sent += uint64(4 * p.dirty.Dx() * p.dirty.Dy())
			p.dirty, p.deferred = image.Rectangle{}, false
		}
	}
	// New pages and large changes, band by band while the budget lasts.
	bands := 0
	spent := func() bool {
		return budget > 0 && bands > 0 && time.Duration(l.clock.Now()-start) >= budget
	}
	spare := false
	for i := 0; i < len(l.pages); i++ {
		p := l.pages[i]
		if p.retired {
			continue
		}
		if p.tex.IsZero() {
			// A new texture costs far more than a band on software GL
			// (llvmpipe touches the page's fresh memory: about 12 ms for
			// 1024x1024, see glrender's BenchmarkTextureAlloc), so a
			// budgeted step creates one only before it has sent a band.
			if spent() || (budget > 0 && bands > 0) {
				pending = true
				break
			}
			if err := l.createLocked(r, i, p, budget > 0); err != nil {
				errs = append(errs, err)
				continue
			}
			bands++
		}
		// A change over a cell a worker is copying into waits for the
		// next step: it is pending (deferred) until sent.
		for !p.dirty.Empty() && !pending && !p.writingOver(p.dirty) {
			if spent() {
				pending = true
				break
			}
			band := p.dirty
			if budget > 0 {
				band.Max.Y = min(band.Max.Y, band.Min.Y+max(1, uploadBand/(4*band.Dx())))
			}
			if err := l.sendLocked(r, p, band); err != nil {
				errs = append(errs, &media.Error{Pkg: "assets", Op: "upload", Path: fmt.Sprintf("atlas page %d", i), Err: err})
				break
			}
			sent += uint64(4 * band.Dx() * band.Dy())
			bands++
			if p.dirty.Min.Y = band.Max.Y; p.dirty.Empty() {
				p.dirty, p.deferred = image.Rectangle{}, false
			}
		}
		if pending {
			break
		}
		if !p.used && !p.dedicated {
			spare = true
		}
	}
	// The spare page is made ahead of need, on a budgeted step that had
	// nothing else to send (an idle present), so that a load filling a
	// page never waits for a texture in the middle of its bands.
	if !pending && !spare && budget > 0 && bands > 0 {
		pending = true // the spare on the next step
	} else if !pending && !spare && (len(l.pages) > 0 || l.fonts.len() > 0) {
		p := l.newPage()
		l.pages = append(l.pages, p)
		if err := l.createLocked(r, len(l.pages)-1, p, budget > 0); err != nil {
			l.pages = l.pages[:len(l.pages)-1]
			errs = append(errs, &media.Error{Pkg: "assets", Op: "upload", Path: "spare atlas page", Err: err})
		}
		pending = p.deferred
	}
	for _, p := range l.pages {
		if !p.retired && !p.dirty.Empty() {
			p.deferred = budget > 0 // left for the next step
			pending = pending || budget > 0
		}
	}
	return pending, errors.Join(errs...)
}

// writingLocked reports whether pixels are being copied into a page.
func (l *Library) writingLocked() bool {
	for _, p := range l.pages {
		if p.writers > 0 {
			return true
		}
	}
	return false
}

// createLocked makes the texture of page i: with its pixels, or, in bands
// (a budgeted step), without any, what was placed left to send.
func (l *Library) createLocked(r Uploader, i int, p *page, bands bool) error {
	if p.img.Rect.Dx() > l.maxTex || p.img.Rect.Dy() > l.maxTex {
		return &media.Error{Pkg: "assets", Op: "upload", Path: fmt.Sprintf("atlas page %d", i),
			Err: media.Detail(media.ErrTooLarge, "page is %dx%d, the renderer's maximum texture size is %d", p.img.Rect.Dx(), p.img.Rect.Dy(), l.maxTex)}
	}
	src := p.img
	if bands || !p.used {
		// No texels: what was placed (the dirty rectangle, with the
		// padding around it) follows in bands, and nothing draws from the
		// rest of the page before something is placed and sent there. A
		// page with nothing placed (spare, reserved) has nothing to send.
		src = &image.RGBA{Rect: p.img.Rect}
	}
	t0 := l.clock.Now()
	h, err := r.CreateTexture(src, l.opts.Texture)
	d := int64(l.clock.Now() - t0)
	c := &l.stats
	c.creates.Add(1)
	c.createTime.Add(d)
	raise(&c.longestCreate, d)
	if err != nil {
		return &media.Error{Pkg: "assets", Op: "upload", Path: fmt.Sprintf("atlas page %d", i), Err: err}
	}
	p.tex = h
	if !bands {
		p.dirty = image.Rectangle{}
	}
	p.deferred = !p.dirty.Empty()
	return nil
}

// count adds one upload call, which waited for the lock, to the statistics.
func (l *Library) count(start timing.Instant, waited time.Duration, sent uint64, deferred bool) {
	c := &l.stats
	d := int64(l.clock.Now() - start)
	c.calls.Add(1)
	c.bytes.Add(sent)
	c.time.Add(d)
	if deferred {
		c.deferred.Add(1)
	}
	raise(&c.longest, d)
	if waited > 0 {
		c.lockWait.Add(int64(waited))
		raise(&c.longestWait, int64(waited))
	}
}

// sendLocked hands the texels of d in p to the renderer, timing the call.
func (l *Library) sendLocked(r Uploader, p *page, d image.Rectangle) error {
	img := l.stageLocked(p, d)
	t0 := l.clock.Now()
	err := r.UpdateTexture(p.tex, d.Min.X, d.Min.Y, img)
	t := int64(l.clock.Now() - t0)
	c := &l.stats
	c.sends.Add(1)
	c.sendTime.Add(t)
	raise(&c.longestSend, t)
	return err
}

// stageLocked copies the rectangle d of a page into a tightly packed
// image at the origin, which every renderer accepts.
func (l *Library) stageLocked(p *page, d image.Rectangle) *image.RGBA {
	n := 4 * d.Dx() * d.Dy()
	if l.stage == nil || cap(l.stage.Pix) < n {
		l.stage = &image.RGBA{Pix: make([]uint8, n)}
	}
	s := l.stage
	s.Pix = s.Pix[:n]
	s.Stride = 4 * d.Dx()
	s.Rect = image.Rect(0, 0, d.Dx(), d.Dy())
	for y := 0; y < d.Dy(); y++ {
		o := p.img.PixOffset(d.Min.X, d.Min.Y+y)
		copy(s.Pix[y*s.Stride:(y+1)*s.Stride], p.img.Pix[o:o+s.Stride])
	}
	return s
}

// ReleaseTextures frees every texture the library created, on the graphics
// thread, while the renderer is still open (the game's platform cleanup).
// The CPU copies stay: a later [Library.Upload], even to another renderer,
// recreates the pages, and handles stay valid. Failures are joined.
func (l *Library) ReleaseTextures(r Uploader) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var errs []error
	for i, p := range l.pages {
		if p.tex.IsZero() {
			continue
		}
		if err := r.ReleaseTexture(p.tex); err != nil {
			errs = append(errs, &media.Error{Pkg: "assets", Op: "release", Path: fmt.Sprintf("atlas page %d", i), Err: err})
		}
		p.tex = render2d.TextureHandle{}
		if !p.retired && p.img != nil {
			p.dirty = image.Rectangle{}
		}
	}
	return errors.Join(errs...)
}

// Stats counts what a library holds.
type Stats struct {
	Images, Sheets, Fonts int
	// Glyphs is the number of rasterised glyphs in the caches of live fonts.
	Glyphs int
	// Pages is the number of live atlas pages (dedicated ones included),
	// Textures how many of them have a GPU texture, Dirty how many have
	// texels waiting for the next upload.
	Pages, Textures, Dirty int
}

// Stats returns current counts. Safe from any goroutine.
func (l *Library) Stats() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := Stats{Images: l.images.len(), Sheets: l.sheets.len(), Fonts: l.fonts.len()}
	for _, f := range l.fonts.slots {
		if f.live {
			s.Glyphs += f.v.glyphCount()
		}
	}
	for _, p := range l.pages {
		if p.retired {
			continue
		}
		s.Pages++
		if !p.tex.IsZero() {
			s.Textures++
		}
		if !p.dirty.Empty() {
			s.Dirty++
		}
	}
	return s
}
