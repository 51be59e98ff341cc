package assets

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io/fs"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/media"
)

// Executor runs the work of a background [Load] where it belongs. Package
// assets does not know the runtime (the runtime sits above it), so a load
// asks for three things through this interface; package assets/assetsrt
// implements it on a runtime session (a worker group, the simulation
// mailbox, the platform dispatcher), and a test implements it with
// goroutines and queues of its own.
//
// All three methods are safe from any goroutine: a load calls Go from the
// goroutine that starts it and from its own jobs, Post from jobs and from
// the graphics thread, Graphics from the simulation owner.
type Executor interface {
	// Go runs job once on a worker goroutine, with a context that is done
	// when the work is no longer wanted (the group is canceled, the
	// session stops). An error means job will never run.
	Go(job func(ctx context.Context)) error
	// Post runs fn on the simulation owner, the goroutine that polls the
	// load, between updates (never during one). Posts from one goroutine
	// run in the order made. An error means fn will never run.
	Post(fn func()) error
	// Graphics runs fn on the graphics thread with the renderer, whose
	// textures fn may create and update. An error means fn will never
	// run.
	Graphics(fn func(Uploader)) error
}

// fileKind says what a [File] loads.
type fileKind uint8

const (
	kindNone fileKind = iota
	kindImage
	kindSheet
	kindFont
	kindGenerated
)

func (k fileKind) String() string {
	switch k {
	case kindImage:
		return "an image"
	case kindSheet:
		return "a sheet"
	case kindFont:
		return "a font"
	case kindGenerated:
		return "a generated image"
	}
	return "nothing"
}

// File is one asset of a background load, made by [ImageFile],
// [SheetFile], [FontFile] or [GeneratedImage]. The zero File is invalid.
type File struct {
	kind fileKind
	name string
	spec SheetSpec
	size float64
	draw func(ctx context.Context) (image.Image, error)
}

// ImageFile is the PNG file name, loaded as by [Library.LoadImage].
func ImageFile(name string) File { return File{kind: kindImage, name: name} }

// SheetFile is the PNG file name cut up as spec says, loaded as by
// [Library.LoadSheet].
func SheetFile(name string, spec SheetSpec) File {
	return File{kind: kindSheet, name: name, spec: spec}
}

// FontFile is the font file name at size pixels per em, loaded as by
// [Library.LoadFont].
func FontFile(name string, size float64) File {
	return File{kind: kindFont, name: name, size: size}
}

// GeneratedImage is an image that draw makes on a worker (procedural
// textures): the load places what it returns as [Library.AddImage] would,
// under name. draw gets the load's context, done once the load is canceled;
// a long draw should check it.
func GeneratedImage(name string, draw func(ctx context.Context) (image.Image, error)) File {
	return File{kind: kindGenerated, name: name, draw: draw}
}

// Name returns the file's name.
func (f File) Name() string { return f.name }

// MaxParallel bounds [LoadOptions.Parallel].
const MaxParallel = 1024

// LoadOptions tune a background load. The zero value is the default.
type LoadOptions struct {
	// Parallel is how many files are read and decoded at once: a finished
	// job starts the next file, so a load never queues more than this many
	// jobs ahead of other work on the executor. 0 means GOMAXPROCS; 0 to
	// MaxParallel.
	Parallel int
}

// loadState is where a [Load] is in its life.
type loadState uint8

const (
	loading   loadState = iota // files are being decoded and placed
	uploading                  // every file delivered; the final upload is queued
	finished                   // done: results are available
	aborted                    // canceled or failed as a whole: nothing is kept
)

// Load is a background load started by [Library.StartLoad]: workers read
// and decode the files and place them in the atlas in file order, the
// simulation owner receives each file's handle, and the graphics thread
// uploads the atlas, so that once the load is done every handle resolves
// with [Library.Region] at once.
//
// A Load belongs to the simulation owner (the goroutine the executor's Post
// runs on): poll it there, once per update if you like, without blocking
// and without allocating ([Load.Progress], [Load.Done]). Workers never
// touch it; each file's outcome (its handle or its error) is handed over
// whole through Post, in file order.
type Load struct {
	lib   *Library
	work  *loadWork
	slots []loadResult
	state loadState

	delivered int   // files whose outcome has arrived, a prefix of the list
	bytes     int64 // bytes those files read
	fileErrs  int   // delivered files that failed
	upload    error // the final upload's failure
	failure   error // why the load aborted
	err       error // cached Err
	errStale  bool
}

// loadResult is one file's outcome, made on a worker and handed to the
// simulation owner: the handle of what was placed, or the error.
type loadResult struct {
	image Image
	sheet Sheet
	font  Font
	bytes int64
	err   error
}

// release gives back to lib whatever r holds.
func (r loadResult) release(l *Library) {
	switch {
	case !r.image.IsZero():
		_ = l.Release(r.image)
	case !r.sheet.IsZero():
		_ = l.ReleaseSheet(r.sheet)
	case !r.font.IsZero():
		_ = l.ReleaseFont(r.font)
	}
}

// decoded is a file as a worker decoded it, waiting for its turn to be
// placed: the pixels or the parsed font, or the error.
type decoded struct {
	img   *image.RGBA
	font  *parsedFont
	bytes int64
	err   error // this file failed; the load goes on
	abort error // the load as a whole must stop
}

// loadWork is what the jobs of a load share: inputs fixed at the start,
// the index of the next file to start, the load's own context and the
// placer. sim is only ever dereferenced inside work posted to the
// simulation owner.
type loadWork struct {
	lib    *Library
	exec   Executor
	fsys   fs.FS
	files  []File
	maxTex int
	next   atomic.Int64
	ctx    context.Context
	cancel context.CancelCauseFunc
	place  placer
	sim    *Load
	// Worker time, summed over the workers: reading and decoding (or
	// drawing) files, waiting for the library's lock, placing them in
	// the atlas under it and copying their pixels outside it. Measured on
	// the library's clock.
	decodeNS, waitNS, placeNS, copyNS atomic.Int64
}

// LoadStats say where a background load's worker time went.
type LoadStats struct {
	// Decode is the time workers spent reading and decoding (or drawing)
	// files; PlaceWait the time they waited for the library's lock to
	// place them, Place the time they held it placing them in atlas pages
	// (the most they can have kept others waiting), and Copy the time
	// they spent copying images' pixels into pages outside the lock; all
	// summed over the workers.
	Decode    time.Duration `json:"decode_ns"`
	PlaceWait time.Duration `json:"place_wait_ns"`
	Place     time.Duration `json:"place_ns"`
	Copy      time.Duration `json:"copy_ns"`
}

// Stats returns the load's worker time so far. Safe from any goroutine.
func (ld *Load) Stats() LoadStats {
	w := ld.work
	return LoadStats{Decode: time.Duration(w.decodeNS.Load()), PlaceWait: time.Duration(w.waitNS.Load()),
		Place: time.Duration(w.placeNS.Load()), Copy: time.Duration(w.copyNS.Load())}
}

// placer puts decoded files into the library in file order, whichever
// worker decodes them and in whatever order they finish. A worker offers
// its file; the worker that finds the next file in order ready places
// every ready file from there and posts each outcome, so outcomes reach the
// simulation owner in file order. One worker places at a time; the others
// leave their file and go on decoding.
type placer struct {
	mu      sync.Mutex
	ready   []decoded
	has     []bool
	next    int  // the next file to place
	placing bool // a worker is placing
}

// StartLoad starts loading files from fsys in the background through exec
// and returns at once. Workers read and decode the files, at most
// opts.Parallel at a time, and place them into the atlas in the order
// given (under the library's lock, as [Library.LoadImage] from any
// goroutine does), so a background load of a list gives the same atlas
// layout and handles as loading it in the foreground, however the workers
// finish. Each file's handle (or error) is handed to the simulation owner
// through exec's Post, in file order. When the last has arrived, one
// upload runs on the graphics thread (exec's Graphics) and the load is
// done. The simulation owner's share of the work is taking the handles.
//
// A file that cannot be loaded does not stop the others: its result and
// [Load.Err] report a [*media.Error] naming it. A load that is canceled
// ([Load.Cancel], or exec's job context done) or whose job panics ends as a
// whole and releases what it placed, so it changes nothing; a panic goes on
// to exec afterwards (a runtime group fails with it).
//
// fsys may be nil when every file is a [GeneratedImage]. files (and the
// sheet specs in them) must not change while the load runs. StartLoad
// returns an error listing every bad argument, and starts nothing then; if
// exec refuses the first jobs it returns that error (wrapping
// [ErrCanceled]) and the jobs it did take drop their results. Call it on
// the simulation owner, or before the simulation starts (a game's setup);
// poll the load only on the simulation owner.
func (l *Library) StartLoad(exec Executor, fsys fs.FS, files []File, opts LoadOptions) (*Load, error) {
	var errs []error
	if exec == nil {
		errs = append(errs, errors.New("assets: StartLoad: executor is nil"))
	}
	if opts.Parallel < 0 || opts.Parallel > MaxParallel {
		errs = append(errs, fmt.Errorf("assets: LoadOptions.Parallel is %d, want 0 (GOMAXPROCS) to %d", opts.Parallel, MaxParallel))
	}
	limit := min(MaxFontSize, float64(l.opts.PageSize)/2)
	for i, f := range files {
		switch {
		case f.kind == kindNone:
			errs = append(errs, fmt.Errorf("assets: StartLoad: file %d is the zero File, want one from ImageFile, SheetFile, FontFile or GeneratedImage", i))
			continue
		case f.name == "":
			errs = append(errs, fmt.Errorf("assets: StartLoad: file %d (%s) has an empty name", i, f.kind))
		case f.kind == kindGenerated && f.draw == nil:
			errs = append(errs, fmt.Errorf("assets: StartLoad: file %d (%s) has a nil draw function", i, f.name))
		case f.kind == kindFont && !(f.size >= MinFontSize && f.size <= limit):
			errs = append(errs, fmt.Errorf("assets: StartLoad: file %d (%s): font size is %v, want [%d, %v] pixels per em", i, f.name, f.size, MinFontSize, limit))
		}
		if f.kind != kindGenerated && fsys == nil {
			errs = append(errs, fmt.Errorf("assets: StartLoad: file %d (%s) needs a file system, and fsys is nil", i, f.name))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	parallel := opts.Parallel
	if parallel == 0 {
		parallel = goruntime.GOMAXPROCS(0)
	}
	ld := &Load{lib: l, slots: make([]loadResult, len(files)), errStale: true}
	w := &loadWork{lib: l, exec: exec, fsys: fsys, files: append([]File(nil), files...), maxTex: l.maxTextureSize(), sim: ld}
	w.place.ready, w.place.has = make([]decoded, len(files)), make([]bool, len(files))
	w.ctx, w.cancel = context.WithCancelCause(context.Background())
	ld.work = w
	if len(files) == 0 {
		ld.state = finished
		w.cancel(nil)
		return ld, nil
	}
	for range min(parallel, len(files)) {
		started, err := w.start()
		if err != nil {
			// Jobs already submitted find the load aborted and drop
			// their results.
			ld.abort(err)
			return nil, err
		}
		if !started {
			break
		}
	}
	return ld, nil
}

// start claims the next file and submits its job. It reports false when no
// file is left or the load is stopping, and an error when the executor
// refused the job; the load's context is then canceled with that error.
func (w *loadWork) start() (bool, error) {
	if w.ctx.Err() != nil {
		return false, nil
	}
	i := int(w.next.Add(1) - 1)
	if i >= len(w.files) {
		return false, nil
	}
	if err := w.exec.Go(func(ctx context.Context) { w.run(ctx, i) }); err != nil {
		f := w.files[i]
		cause := &media.Error{Pkg: "assets", Op: f.op(), Path: f.name, Err: fmt.Errorf("%w: the executor refused the job: %w", ErrCanceled, err)}
		w.cancel(cause)
		return false, cause
	}
	return true, nil
}

// run is one file's job, on a worker. A panic ends the whole load and then
// goes on to the executor (a runtime group fails with it and accepts
// nothing more, so later files could not run anyway); it is re-raised from
// the deferred call, so the executor sees the stack where it happened.
func (w *loadWork) run(ctx context.Context, i int) {
	stop := context.AfterFunc(ctx, func() { w.cancel(context.Cause(ctx)) })
	ok := false
	defer func() {
		stop()
		if ok {
			return
		}
		v := recover()
		f := w.files[i]
		cause := &media.Error{Pkg: "assets", Op: f.op(), Path: f.name, Err: media.Detail(ErrPanicked, "panic: %v", v)}
		w.cancel(cause)
		_ = w.exec.Post(func() { w.sim.abort(cause) })
		panic(v)
	}()
	t0 := w.lib.clock.Now()
	d := w.decode(i)
	w.decodeNS.Add(int64(w.lib.clock.Now() - t0))
	stop()
	if d.abort != nil {
		ok = true
		_ = w.exec.Post(func() { w.sim.abort(d.abort) })
		return
	}
	w.offer(i, d) // a panic while placing ends the load too
	ok = true
	started, err := w.start()
	if started {
		return
	}
	if err == nil && w.ctx.Err() != nil {
		err = context.Cause(w.ctx)
	}
	if err != nil && err != errLoadOver {
		// Stopped from outside (group canceled, session stopping, job
		// refused): tell the simulation, which would otherwise wait for
		// files that never start.
		cause := canceledErr(err)
		_ = w.exec.Post(func() { w.sim.abort(cause) })
	}
}

// errLoadOver is the cause of a load's context once it has finished or was
// aborted by the simulation owner: nothing more to report.
var errLoadOver = errors.New("assets: load over")

// decode reads and decodes file i. A done context aborts: the file is not
// read (or not decoded, if it was read meanwhile).
func (w *loadWork) decode(i int) decoded {
	f := w.files[i]
	op := f.op()
	if err := w.ctx.Err(); err != nil {
		return decoded{abort: canceledErr(context.Cause(w.ctx))}
	}
	if f.kind == kindGenerated {
		img, err := f.draw(w.ctx)
		if err != nil {
			if w.ctx.Err() != nil {
				return decoded{abort: canceledErr(context.Cause(w.ctx))}
			}
			return decoded{err: &media.Error{Pkg: "assets", Op: op, Path: f.name, Err: err}}
		}
		if img == nil {
			return decoded{err: &media.Error{Pkg: "assets", Op: op, Path: f.name, Err: media.Detail(media.ErrInvalid, "the draw function returned a nil image and no error")}}
		}
		b := img.Bounds()
		if err := checkSide(b.Dx(), b.Dy(), w.maxTex); err != nil {
			return decoded{err: &media.Error{Pkg: "assets", Op: op, Path: f.name, Err: err}}
		}
		return decoded{img: toRGBA(img)}
	}
	data, err := fs.ReadFile(w.fsys, f.name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return decoded{err: &media.Error{Pkg: "assets", Op: op, Path: f.name, Err: err}}
	}
	if err := w.ctx.Err(); err != nil {
		return decoded{abort: canceledErr(context.Cause(w.ctx))}
	}
	d := decoded{bytes: int64(len(data))}
	switch f.kind {
	case kindFont:
		d.font, err = parseFont(f.name, data)
	default:
		d.img, err = decodePNGBytes(data, w.maxTex)
		if err == nil && f.kind == kindSheet {
			if verr := f.spec.Validate(d.img.Rect.Dx(), d.img.Rect.Dy()); verr != nil {
				err = fmt.Errorf("%w: %w", media.ErrInvalid, verr)
			}
		}
	}
	if err != nil {
		return decoded{bytes: d.bytes, err: &media.Error{Pkg: "assets", Op: op, Path: f.name, Err: err}}
	}
	return d
}

func (f File) op() string {
	switch f.kind {
	case kindSheet:
		return "load sheet"
	case kindFont:
		return "load font"
	case kindGenerated:
		return "generate image"
	}
	return "load image"
}

func checkSide(w, h, maxTex int) error {
	if w <= 0 || h <= 0 {
		return media.Detail(ErrEmpty, "image is %dx%d, both sides must be at least 1", w, h)
	}
	if w > maxTex || h > maxTex {
		return media.Detail(media.ErrTooLarge, "image is %dx%d, the maximum texture size is %d", w, h, maxTex)
	}
	return nil
}

// canceledErr is the error of a load stopped from outside with cause.
func canceledErr(cause error) error {
	var e *media.Error
	if errors.As(cause, &e) && errors.Is(cause, ErrCanceled) {
		return cause // already says which file and why
	}
	if cause == nil || errors.Is(cause, context.Canceled) {
		return ErrCanceled
	}
	return fmt.Errorf("%w: %w", ErrCanceled, cause)
}

// offer hands file i to the placer and, if no other worker is placing,
// places every file that is ready in order, on this worker.
func (w *loadWork) offer(i int, d decoded) {
	p := &w.place
	p.mu.Lock()
	p.ready[i], p.has[i] = d, true
	if p.placing {
		p.mu.Unlock()
		return
	}
	p.placing = true
	for p.next < len(w.files) && p.has[p.next] && w.ctx.Err() == nil {
		j := p.next
		dj := p.ready[j]
		p.ready[j] = decoded{}
		p.next++
		p.mu.Unlock()
		r := w.placeFile(j, dj)
		if err := w.exec.Post(func() { w.sim.deliver(j, r) }); err != nil {
			r.release(w.lib) // nobody is left to deliver to
			w.cancel(err)
		}
		p.mu.Lock()
	}
	p.placing = false
	p.mu.Unlock()
}

// placeFile puts decoded file i into the library, under its lock, as the
// foreground call for its kind would.
func (w *loadWork) placeFile(i int, d decoded) loadResult {
	r := loadResult{bytes: d.bytes, err: d.err}
	if d.err != nil {
		return r
	}
	l, f := w.lib, w.files[i]
	var t placeTimes
	if f.kind == kindImage || f.kind == kindGenerated {
		e := imageEntry{name: f.name}
		if f.kind == kindImage {
			e.fsys = w.fsys
		}
		r.image, r.err = l.add(e, d.img, f.op(), &t)
	} else {
		t.wait = l.lockTimed()
		t0 := l.clock.Now()
		if f.kind == kindSheet { // the spec was validated with the decoding
			r.sheet, r.err = l.addSheetLocked(f.name, d.img, f.spec)
		} else {
			r.font, r.err = l.addFontLocked(d.font, f.size)
		}
		t.hold = time.Duration(l.clock.Now() - t0)
		l.mu.Unlock()
	}
	w.waitNS.Add(int64(t.wait))
	w.placeNS.Add(int64(t.hold))
	w.copyNS.Add(int64(t.copy))
	return r
}

// deliver takes file i's outcome on the simulation owner. Outcomes arrive
// in file order; after the last one the final upload is queued.
func (ld *Load) deliver(i int, r loadResult) {
	if ld.state != loading || i != ld.delivered {
		r.release(ld.lib) // canceled meanwhile: nobody will ask for it
		return
	}
	ld.slots[i] = r
	ld.delivered++
	ld.bytes += r.bytes
	if r.err != nil {
		ld.fileErrs++
		ld.errStale = true
	}
	if ld.delivered < len(ld.slots) {
		return
	}
	ld.state = uploading
	if err := ld.work.exec.Graphics(ld.uploadStep); err != nil {
		ld.finish(refusedUpload(err))
	}
}

func refusedUpload(err error) error {
	return &media.Error{Pkg: "assets", Op: "upload", Path: "background load", Err: fmt.Errorf("the executor refused the graphics work: %w", err)}
}

// uploadStep is the final upload, on the graphics thread: one
// [Library.UploadStep] per call, within the library's budget, queued
// again until nothing is left, so that the load's pages reach the GPU
// across frames instead of in one long one.
func (ld *Load) uploadStep(u Uploader) {
	w := ld.work
	pending, err := ld.lib.UploadStep(u)
	if pending && err == nil {
		if err = w.exec.Graphics(ld.uploadStep); err == nil {
			return
		}
		err = refusedUpload(err)
	}
	_ = w.exec.Post(func() { ld.finish(err) })
}

// finish ends the load once the final upload has run.
func (ld *Load) finish(err error) {
	if ld.state != uploading {
		return
	}
	ld.state = finished
	ld.upload = err
	ld.errStale = true
	ld.work.cancel(errLoadOver)
}

// abort ends the load as a whole and releases what it placed.
func (ld *Load) abort(err error) {
	if ld.state == finished || ld.state == aborted {
		return
	}
	ld.state = aborted
	ld.failure = err
	ld.errStale = true
	ld.work.cancel(errLoadOver)
	for i := range ld.slots[:ld.delivered] {
		ld.slots[i].release(ld.lib)
		ld.slots[i] = loadResult{}
	}
}

// Cancel stops the load: files not yet started never start, the ones in
// flight see their context done, results still on their way are dropped,
// and what was already placed in the atlas is released. The load is then
// done, with [ErrCanceled] as its error. Cancelling a finished load does
// nothing. Simulation owner only.
func (ld *Load) Cancel() { ld.abort(ErrCanceled) }

// Progress returns how many files are finished, read, decoded and placed
// (or failed), out of how many the load has. Files finish in list order,
// so done is also the number of the first file still loading, and the same
// mailbox deliveries give the same progress in a replay. It reaches total
// an update or so before [Load.Done], when the final upload has run. It
// does not move after the load is canceled. Simulation owner only;
// allocation-free.
func (ld *Load) Progress() (done, total int) { return ld.delivered, len(ld.slots) }

// Bytes returns how many bytes the files counted by [Load.Progress] read
// from the file system (generated images read none).
func (ld *Load) Bytes() int64 { return ld.bytes }

// Done reports whether the load is over: finished (every file placed and
// uploaded, the results available) or canceled. Simulation owner only;
// allocation-free.
func (ld *Load) Done() bool { return ld.state == finished || ld.state == aborted }

// Err returns the load's problems: nil while all is well; the failed
// files' errors in file order, each a [*media.Error] naming its file, joined
// with the final upload's; or, for a load that ended as a whole, why
// ([ErrCanceled], a panic as [ErrPanicked]). It may be non-nil before the
// load is done. Simulation owner only.
func (ld *Load) Err() error {
	if !ld.errStale {
		return ld.err
	}
	ld.errStale = false
	switch {
	case ld.state == aborted:
		ld.err = ld.failure
	case ld.fileErrs == 0:
		ld.err = ld.upload
	default:
		errs := make([]error, 0, ld.fileErrs+1)
		for i := range ld.slots[:ld.delivered] {
			if err := ld.slots[i].err; err != nil {
				errs = append(errs, err)
			}
		}
		ld.err = errors.Join(append(errs, ld.upload)...)
	}
	return ld.err
}

// result checks that file i exists, is of kind want and has a result.
func (ld *Load) result(i int, want fileKind) (*loadResult, error) {
	if i < 0 || i >= len(ld.slots) {
		return nil, &media.Error{Pkg: "assets", Op: "load result", Path: fmt.Sprintf("file %d", i), Err: media.Detail(media.ErrInvalid, "the load has %d files, want an index in [0, %d)", len(ld.slots), len(ld.slots))}
	}
	f := ld.work.files[i]
	kind := f.kind
	if kind == kindGenerated {
		kind = kindImage
	}
	if kind != want {
		return nil, &media.Error{Pkg: "assets", Op: f.op(), Path: f.name, Err: media.Detail(media.ErrInvalid, "file %d is %s, not %s", i, f.kind, want)}
	}
	switch ld.state {
	case aborted:
		return nil, &media.Error{Pkg: "assets", Op: f.op(), Path: f.name, Err: ld.failure}
	case loading, uploading:
		return nil, &media.Error{Pkg: "assets", Op: f.op(), Path: f.name, Err: media.Detail(ErrPending, "the load is still running: %d of %d files done", ld.delivered, len(ld.slots))}
	}
	s := &ld.slots[i]
	if s.err != nil {
		return nil, s.err
	}
	return s, nil
}

// Image returns the handle of files[i], an [ImageFile] or a
// [GeneratedImage], once the load is done: [ErrPending] before, the file's
// own error if it failed, [ErrCanceled] if the load was, [media.ErrInvalid] for
// an index out of range or a file of another kind. Simulation owner only;
// allocation-free on success.
func (ld *Load) Image(i int) (Image, error) {
	s, err := ld.result(i, kindImage)
	if err != nil {
		return Image{}, err
	}
	return s.image, nil
}

// Sheet returns the handle of files[i], a [SheetFile]; see [Load.Image].
func (ld *Load) Sheet(i int) (Sheet, error) {
	s, err := ld.result(i, kindSheet)
	if err != nil {
		return Sheet{}, err
	}
	return s.sheet, nil
}

// Font returns the handle of files[i], a [FontFile]; see [Load.Image].
func (ld *Load) Font(i int) (Font, error) {
	s, err := ld.result(i, kindFont)
	if err != nil {
		return Font{}, err
	}
	return s.font, nil
}
