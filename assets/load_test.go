package assets_test

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"golang.org/x/image/font/gofont/goregular"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// fakeExec is an [assets.Executor] of goroutines and queues: jobs run on
// goroutines of their own, and the test goroutine plays both the graphics
// thread and the simulation owner (as in the runtime's sequential mode),
// running what was posted to them in step.
type fakeExec struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	wg     sync.WaitGroup
	wake   chan struct{}

	mu    sync.Mutex
	posts []func()
	gfx   []func(assets.Uploader)

	refuseAfter atomic.Int64 // Go refuses once this many jobs were taken; < 0 never
	taken       atomic.Int64
	panics      atomic.Int64
}

var errRefused = errors.New("fake executor: refused")

func newFakeExec() *fakeExec {
	e := &fakeExec{wake: make(chan struct{}, 1)}
	e.ctx, e.cancel = context.WithCancelCause(context.Background())
	e.refuseAfter.Store(-1)
	return e
}

func (e *fakeExec) notify() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

func (e *fakeExec) Go(job func(ctx context.Context)) error {
	if n := e.refuseAfter.Load(); n >= 0 && e.taken.Load() >= n {
		return errRefused
	}
	e.taken.Add(1)
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		defer func() {
			if v := recover(); v != nil {
				e.panics.Add(1)
				e.notify()
			}
		}()
		job(e.ctx)
	}()
	return nil
}

func (e *fakeExec) Post(fn func()) error {
	e.mu.Lock()
	e.posts = append(e.posts, fn)
	e.mu.Unlock()
	e.notify()
	return nil
}

func (e *fakeExec) Graphics(fn func(assets.Uploader)) error {
	e.mu.Lock()
	e.gfx = append(e.gfx, fn)
	e.mu.Unlock()
	e.notify()
	return nil
}

// step runs the queued graphics work with u, then the queued posts, and
// reports how many items ran.
func (e *fakeExec) step(u assets.Uploader) int {
	e.mu.Lock()
	gfx, posts := e.gfx, e.posts
	e.gfx, e.posts = nil, nil
	e.mu.Unlock()
	for _, fn := range gfx {
		fn(u)
	}
	for _, fn := range posts {
		fn()
	}
	return len(gfx) + len(posts)
}

// await blocks until something was queued or a job panicked.
func (e *fakeExec) await(t testing.TB) {
	t.Helper()
	select {
	case <-e.wake:
	case <-time.After(20 * time.Second):
		t.Fatal("no work arrived from the load's jobs in 20 s")
	}
}

// finish waits for every job goroutine, then runs what they left queued.
func (e *fakeExec) finish(u assets.Uploader) {
	e.wg.Wait()
	for e.step(u) > 0 {
	}
}

// progress is one poll of a load.
type progress struct {
	done, total int
	bytes       int64
	finished    bool
}

// runLoad polls ld once per step until it is done, as a loading screen
// would each update, and returns every poll.
func runLoad(t testing.TB, e *fakeExec, ld *assets.Load, u assets.Uploader) []progress {
	t.Helper()
	var polls []progress
	for {
		d, n := ld.Progress()
		polls = append(polls, progress{d, n, ld.Bytes(), ld.Done()})
		if ld.Done() {
			break
		}
		if e.step(u) == 0 {
			e.await(t)
		}
	}
	e.finish(u)
	return polls
}

// checkMonotonic fails unless progress and bytes never go back, done stays
// within total, and the load is done only after every file is counted.
func checkMonotonic(t *testing.T, polls []progress) {
	t.Helper()
	for i, p := range polls {
		if p.done < 0 || p.done > p.total {
			t.Fatalf("poll %d: done %d of %d", i, p.done, p.total)
		}
		if p.finished && p.done != p.total {
			t.Fatalf("poll %d: done before every file: %d of %d", i, p.done, p.total)
		}
		if i == 0 {
			continue
		}
		if q := polls[i-1]; p.done < q.done || p.bytes < q.bytes || (q.finished && !p.finished) {
			t.Fatalf("poll %d went back: %+v after %+v", i, p, q)
		}
	}
}

// bigSet builds n small PNGs of varied sizes, a 4-frame sheet and a font in
// one file system, and the list that loads them.
func bigSet(t testing.TB, n int) (fstest.MapFS, []assets.File) {
	fsys := fstest.MapFS{}
	var files []assets.File
	for i := range n {
		name := fmt.Sprintf("img/%03d.png", i)
		fsys[name] = &fstest.MapFile{Data: encodePNG(t, pattern(4+i%29, 4+(i*7)%23, uint8(i)))}
		files = append(files, assets.ImageFile(name))
		if i == n/3 {
			fsys["sheet.png"] = &fstest.MapFile{Data: encodePNG(t, pattern(64, 16, 9))}
			files = append(files, assets.SheetFile("sheet.png", assets.SheetSpec{FrameWidth: 16, FrameHeight: 16,
				Regions: map[string]image.Rectangle{"left": image.Rect(0, 0, 8, 16)}}))
		}
		if i == n/2 {
			fsys["go.ttf"] = &fstest.MapFile{Data: goregular.TTF}
			files = append(files, assets.FontFile("go.ttf", 18))
		}
	}
	return fsys, files
}

// foreground loads files one by one with the library's own calls.
func foreground(t testing.TB, lib *assets.Library, fsys fs.FS, files []assets.File) (imgs map[int]assets.Image, sheets map[int]assets.Sheet, fonts map[int]assets.Font) {
	imgs, sheets, fonts = map[int]assets.Image{}, map[int]assets.Sheet{}, map[int]assets.Font{}
	for i, f := range files {
		var err error
		switch {
		case strings.HasSuffix(f.Name(), ".ttf"):
			fonts[i], err = lib.LoadFont(fsys, f.Name(), 18)
		case f.Name() == "sheet.png":
			sheets[i], err = lib.LoadSheet(fsys, f.Name(), assets.SheetSpec{FrameWidth: 16, FrameHeight: 16,
				Regions: map[string]image.Rectangle{"left": image.Rect(0, 0, 8, 16)}})
		default:
			imgs[i], err = lib.LoadImage(fsys, f.Name())
		}
		if err != nil {
			t.Fatalf("foreground %s: %v", f.Name(), err)
		}
	}
	return imgs, sheets, fonts
}

// lastFirst holds the first file's read until every other file has been
// read, so the first file is the last to finish.
type lastFirst struct {
	fs.FS
	first string
	rest  int
	reads atomic.Int64
	gate  chan struct{}
}

func (l *lastFirst) Open(name string) (fs.File, error) {
	if name == l.first {
		<-l.gate
	} else if l.reads.Add(1) == int64(l.rest) {
		close(l.gate)
	}
	return l.FS.Open(name)
}

// TestBackgroundLoadMatchesForeground loads 500 PNGs, a sheet and a font in
// the background, the first file finishing last, and checks that the
// handles, regions and texels equal those of a foreground load of the same
// list, and that progress only moves forward.
func TestBackgroundLoadMatchesForeground(t *testing.T) {
	fsys, files := bigSet(t, 500)
	var total int64
	for _, f := range fsys {
		total += int64(len(f.Data))
	}
	slow := &lastFirst{FS: fsys, first: files[0].Name(), rest: len(files) - 1, gate: make(chan struct{})}

	bg := newLib(t, small())
	e := newFakeExec()
	bgRec := rendertest.NewRecorder(8, 8, 4096)
	ld, err := bg.StartLoad(e, slow, files, assets.LoadOptions{Parallel: 4})
	if err != nil {
		t.Fatal(err)
	}
	polls := runLoad(t, e, ld, bgRec)
	checkMonotonic(t, polls)
	if err := ld.Err(); err != nil {
		t.Fatalf("Err: %v", err)
	}
	if d, n := ld.Progress(); d != len(files) || n != len(files) {
		t.Errorf("Progress = %d, %d; want %d, %d", d, n, len(files), len(files))
	}
	if got := ld.Bytes(); got != total {
		t.Errorf("Bytes = %d, want %d (every file's size)", got, total)
	}
	if len(polls) < 3 {
		t.Errorf("only %d polls: the load did not run in the background", len(polls))
	}

	fg := newLib(t, small())
	fgRec := rendertest.NewRecorder(8, 8, 4096)
	imgs, sheets, fonts := foreground(t, fg, fsys, files)
	if err := fg.Upload(fgRec); err != nil {
		t.Fatal(err)
	}
	if got, want := bg.Stats(), fg.Stats(); got != want {
		t.Errorf("Stats = %+v, want %+v", got, want)
	}
	for i, want := range imgs {
		got, err := ld.Image(i)
		if err != nil || got != want {
			t.Fatalf("Image(%d) = %v, %v; want %v", i, got, err, want)
		}
		gr, err := bg.Region(got)
		if err != nil {
			t.Fatalf("background Region(%s): %v", files[i].Name(), err)
		}
		fr, _ := fg.Region(want)
		if gr != fr {
			t.Fatalf("%s: region %+v, foreground %+v", files[i].Name(), gr, fr)
		}
		if !samePixels(regionPixels(t, bgRec, gr), regionPixels(t, fgRec, fr)) {
			t.Fatalf("%s: texels differ from the foreground load", files[i].Name())
		}
	}
	for i, want := range sheets {
		got, err := ld.Sheet(i)
		if err != nil || got != want {
			t.Fatalf("Sheet(%d) = %v, %v; want %v", i, got, err, want)
		}
		for f := range 4 {
			gr, err := bg.Frame(got, f)
			fr, _ := fg.Frame(want, f)
			if err != nil || gr != fr {
				t.Fatalf("sheet frame %d: %+v, %v; foreground %+v", f, gr, err, fr)
			}
		}
		gr, err := bg.NamedRegion(got, "left")
		fr, _ := fg.NamedRegion(want, "left")
		if err != nil || gr != fr {
			t.Fatalf("sheet region: %+v, %v; foreground %+v", gr, err, fr)
		}
	}
	for i, want := range fonts {
		got, err := ld.Font(i)
		if err != nil || got != want {
			t.Fatalf("Font(%d) = %v, %v; want %v", i, got, err, want)
		}
		gm, err := bg.Metrics(got)
		fm, _ := fg.Metrics(want)
		if err != nil || gm != fm {
			t.Fatalf("font metrics %+v, %v; foreground %+v", gm, err, fm)
		}
	}
}

// TestBackgroundLoadFileErrors puts one bad file of each kind among good
// ones: the good ones load, and each bad one's error names it and wraps the
// right sentinel.
func TestBackgroundLoadFileErrors(t *testing.T) {
	good := encodePNG(t, pattern(8, 8, 1))
	fsys := fstest.MapFS{
		"a.png":       {Data: good},
		"b.png":       {Data: good},
		"corrupt.png": {Data: []byte("\x89PNG\r\n\x1a\nnot really")},
		"sheet.png":   {Data: good},
		"font.ttf":    {Data: []byte("not a font at all, long enough to be read")},
	}
	files := []assets.File{
		assets.ImageFile("a.png"),
		assets.ImageFile("corrupt.png"),
		assets.ImageFile("missing.png"),
		assets.SheetFile("sheet.png", assets.SheetSpec{FrameWidth: 16, FrameHeight: 16}),
		assets.FontFile("font.ttf", 12),
		assets.GeneratedImage("empty", func(context.Context) (image.Image, error) { return image.NewRGBA(image.Rect(0, 0, 0, 3)), nil }),
		assets.GeneratedImage("nil", func(context.Context) (image.Image, error) { return nil, nil }),
		assets.ImageFile("b.png"),
	}
	lib := newLib(t, small())
	e := newFakeExec()
	rec := rendertest.NewRecorder(8, 8, 4096)
	ld, err := lib.StartLoad(e, fsys, files, assets.LoadOptions{Parallel: 3})
	if err != nil {
		t.Fatal(err)
	}
	checkMonotonic(t, runLoad(t, e, ld, rec))

	tests := []struct {
		i    int
		name string
		want error
	}{
		{1, "corrupt.png", media.ErrCorrupt},
		{2, "missing.png", fs.ErrNotExist},
		{3, "sheet.png", media.ErrInvalid},
		{4, "font.ttf", media.ErrCorrupt},
		{5, "empty", assets.ErrEmpty},
		{6, "nil", media.ErrInvalid},
	}
	all := ld.Err()
	for _, tt := range tests {
		var err error
		switch tt.i {
		case 3:
			_, err = ld.Sheet(tt.i)
		case 4:
			_, err = ld.Font(tt.i)
		default:
			_, err = ld.Image(tt.i)
		}
		var ae *media.Error
		if !errors.As(err, &ae) || ae.Path != tt.name || !errors.Is(err, tt.want) {
			t.Errorf("file %d: error %v; want a *media.Error for %q wrapping %v", tt.i, err, tt.name, tt.want)
		}
		if all == nil || !strings.Contains(all.Error(), tt.name) {
			t.Errorf("Err() = %v; want it to name %q", all, tt.name)
		}
	}
	for _, i := range []int{0, 7} {
		img, err := ld.Image(i)
		if err != nil {
			t.Fatalf("good file %d: %v", i, err)
		}
		if _, err := lib.Region(img); err != nil {
			t.Errorf("good file %d: Region: %v", i, err)
		}
	}
	if got := lib.Stats().Images; got != 2 {
		t.Errorf("library holds %d images, want the 2 good ones", got)
	}
}

// gated counts opens and lets each one through only with a token,
// counting those too and calling passed after each.
type gated struct {
	fs.FS
	opens, through atomic.Int64
	gate           chan struct{}
	passed         func()
}

func (g *gated) Open(name string) (fs.File, error) {
	g.opens.Add(1)
	<-g.gate
	g.through.Add(1)
	g.passed()
	return g.FS.Open(name)
}

// untilThrough runs the load's posts until n opens have passed the gate.
func untilThrough(t *testing.T, e *fakeExec, g *gated, n int64, u assets.Uploader) {
	for g.through.Load() < n {
		if e.step(u) == 0 {
			e.await(t)
		}
	}
	e.step(u)
}

// TestBackgroundLoadCancel cancels a 200-file load once 10 files have been
// read, with jobs in flight: no further file is opened, nothing stays in
// the library, progress stops, and the results report the cancellation.
func TestBackgroundLoadCancel(t *testing.T) {
	const n, before = 200, 10
	fsys, files := bigSet(t, n)
	for _, parallel := range []int{1, 4} {
		t.Run(fmt.Sprint(parallel), func(t *testing.T) {
			e := newFakeExec()
			g := &gated{FS: fsys, gate: make(chan struct{}, len(files)), passed: e.notify}
			for range before {
				g.gate <- struct{}{}
			}
			lib := newLib(t, small())
			rec := rendertest.NewRecorder(8, 8, 4096)
			ld, err := lib.StartLoad(e, g, files, assets.LoadOptions{Parallel: parallel})
			if err != nil {
				t.Fatal(err)
			}
			if parallel == 1 {
				// One job at a time loads the files in order: wait for the
				// first ten to be in the atlas.
				for {
					if d, _ := ld.Progress(); d == before {
						break
					}
					if e.step(rec) == 0 {
						e.await(t)
					}
				}
				if got := lib.Stats().Images; got != before {
					t.Fatalf("%d images placed after %d files, want %d", got, before, before)
				}
			} else {
				untilThrough(t, e, g, before, rec)
			}
			at, _ := ld.Progress()
			ld.Cancel()
			if !ld.Done() || !errors.Is(ld.Err(), assets.ErrCanceled) {
				t.Fatalf("after Cancel: Done %v, Err %v; want true, ErrCanceled", ld.Done(), ld.Err())
			}
			close(g.gate) // the jobs in flight may read now
			e.finish(rec)
			if got := g.opens.Load(); got > int64(before+parallel) {
				t.Errorf("%d files opened, want at most %d (%d loaded + %d in flight)", got, before+parallel, before, parallel)
			}
			if got := e.taken.Load(); got > int64(before+parallel) {
				t.Errorf("%d jobs started, want at most %d", got, before+parallel)
			}
			if d, _ := ld.Progress(); d != at {
				t.Errorf("Progress moved after Cancel: %d, want %d", d, at)
			}
			if s := lib.Stats(); s.Images+s.Sheets+s.Fonts != 0 {
				t.Errorf("library holds %+v after Cancel, want nothing", s)
			}
			if _, err := ld.Image(0); !errors.Is(err, assets.ErrCanceled) {
				t.Errorf("Image(0) after Cancel: %v, want ErrCanceled", err)
			}
		})
	}
}

// TestBackgroundLoadStoppedFromOutside ends the executor's context (a
// runtime group canceled, a session stopping) in the middle of a load.
func TestBackgroundLoadStoppedFromOutside(t *testing.T) {
	fsys, files := bigSet(t, 50)
	e := newFakeExec()
	g := &gated{FS: fsys, gate: make(chan struct{}, 100), passed: e.notify}
	for range 3 {
		g.gate <- struct{}{}
	}
	lib := newLib(t, small())
	rec := rendertest.NewRecorder(8, 8, 4096)
	ld, err := lib.StartLoad(e, g, files, assets.LoadOptions{Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	untilThrough(t, e, g, 3, rec)
	cause := errors.New("group canceled")
	e.cancel(cause)
	close(g.gate)
	runLoad(t, e, ld, rec)
	if err := ld.Err(); !errors.Is(err, assets.ErrCanceled) || !errors.Is(err, cause) {
		t.Errorf("Err = %v, want ErrCanceled wrapping the executor's cause", err)
	}
	if s := lib.Stats(); s.Images+s.Sheets+s.Fonts != 0 {
		t.Errorf("library holds %+v after the load was stopped, want nothing", s)
	}
}

// TestBackgroundLoadPanic: a panicking generator ends the load with an
// error naming it, and the panic reaches the executor.
func TestBackgroundLoadPanic(t *testing.T) {
	files := assets.PatternFiles("p", 20, 8, 8)
	files[7] = assets.GeneratedImage("boom", func(context.Context) (image.Image, error) { panic("generator broke") })
	lib := newLib(t, small())
	e := newFakeExec()
	rec := rendertest.NewRecorder(8, 8, 4096)
	ld, err := lib.StartLoad(e, nil, files, assets.LoadOptions{Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	runLoad(t, e, ld, rec)
	err = ld.Err()
	var ae *media.Error
	if !errors.Is(err, assets.ErrPanicked) || !errors.As(err, &ae) || ae.Path != "boom" || !strings.Contains(err.Error(), "generator broke") {
		t.Errorf("Err = %v; want ErrPanicked naming boom and the panic value", err)
	}
	if got := e.panics.Load(); got != 1 {
		t.Errorf("executor saw %d panics, want 1", got)
	}
	if got := lib.Stats().Images; got != 0 {
		t.Errorf("library holds %d images, want 0", got)
	}
}

// TestBackgroundLoadRefused: an executor that refuses the first job fails
// StartLoad; one that refuses later ends the load. The second job is
// either: StartLoad submits it, unless the first job has finished and
// submitted the next file first, and then the refusal ends the load.
func TestBackgroundLoadRefused(t *testing.T) {
	files := assets.PatternFiles("p", 30, 8, 8)
	for _, after := range []int64{0, 1, 5} {
		t.Run(fmt.Sprint(after), func(t *testing.T) {
			lib := newLib(t, small())
			e := newFakeExec()
			e.refuseAfter.Store(after)
			rec := rendertest.NewRecorder(8, 8, 4096)
			ld, err := lib.StartLoad(e, nil, files, assets.LoadOptions{Parallel: 2})
			if after == 0 || after == 1 && err != nil {
				if !errors.Is(err, assets.ErrCanceled) || !errors.Is(err, errRefused) {
					t.Fatalf("StartLoad: %v, want ErrCanceled wrapping the refusal", err)
				}
				e.finish(rec)
				if got := lib.Stats().Images; got != 0 {
					t.Errorf("library holds %d images, want 0", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			runLoad(t, e, ld, rec)
			if err := ld.Err(); !errors.Is(err, assets.ErrCanceled) || !errors.Is(err, errRefused) {
				t.Errorf("Err = %v, want ErrCanceled wrapping the refusal", err)
			}
			if got := lib.Stats().Images; got != 0 {
				t.Errorf("library holds %d images, want 0", got)
			}
		})
	}
}

// TestStartLoadValidates reports every bad argument at once.
func TestStartLoadValidates(t *testing.T) {
	lib := newLib(t, small())
	_, err := lib.StartLoad(nil, nil, []assets.File{
		{},
		assets.ImageFile(""),
		assets.FontFile("f.ttf", 0),
		assets.GeneratedImage("g", nil),
		assets.ImageFile("needs-fs.png"),
	}, assets.LoadOptions{Parallel: -1})
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"executor is nil", "Parallel is -1", "file 0 is the zero File", "file 1 (an image) has an empty name",
		"file 2 (f.ttf): font size is 0, want [1, 128]", "file 3 (g) has a nil draw function", "file 4 (needs-fs.png) needs a file system"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q\nwant it to contain %q", err, want)
		}
	}
}

// TestBackgroundLoadResults covers the result accessors' errors.
func TestBackgroundLoadResults(t *testing.T) {
	lib := newLib(t, small())
	e := newFakeExec()
	rec := rendertest.NewRecorder(8, 8, 4096)
	ld, err := lib.StartLoad(e, fstest.MapFS{"go.ttf": {Data: goregular.TTF}}, []assets.File{
		assets.GeneratedImage("g", func(context.Context) (image.Image, error) { return pattern(4, 4, 1), nil }),
		assets.FontFile("go.ttf", 10),
	}, assets.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ld.Image(0); !errors.Is(err, assets.ErrPending) {
		t.Errorf("Image before done: %v, want ErrPending", err)
	}
	runLoad(t, e, ld, rec)
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"image of a font", second(ld.Image(1)), "file 1 is a font, not an image"},
		{"font of an image", second(ld.Font(0)), "file 0 is a generated image, not a font"},
		{"sheet of a font", second(ld.Sheet(1)), "not a sheet"},
		{"out of range", second(ld.Image(2)), "want an index in [0, 2)"},
		{"negative", second(ld.Font(-1)), "want an index in [0, 2)"},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, media.ErrInvalid) || !strings.Contains(fmt.Sprint(tt.err), tt.want) {
			t.Errorf("%s: %v; want ErrInvalid saying %q", tt.name, tt.err, tt.want)
		}
	}
	if _, err := ld.Image(0); err != nil {
		t.Errorf("Image(0): %v", err)
	}
	ld.Cancel() // after the end: nothing changes
	if _, err := ld.Font(1); err != nil || ld.Err() != nil {
		t.Errorf("Cancel after the end changed the load: %v, %v", err, ld.Err())
	}
}

func second[T any](_ T, err error) error { return err }

// TestBackgroundLoadEmpty: a load of nothing is done at once.
func TestBackgroundLoadEmpty(t *testing.T) {
	lib := newLib(t, small())
	ld, err := lib.StartLoad(newFakeExec(), nil, nil, assets.LoadOptions{})
	if err != nil || !ld.Done() || ld.Err() != nil {
		t.Fatalf("empty load: %v, done %v, err %v", err, ld != nil && ld.Done(), ld.Err())
	}
}

// TestPatternFiles loads generated patterns in the background and compares
// them with Pattern added in the foreground.
func TestPatternFiles(t *testing.T) {
	const n = 40
	files := assets.PatternFiles("gen/", n, 20, 12)
	if got := files[7].Name(); got != "gen/0007" {
		t.Errorf("name %q, want gen/0007", got)
	}
	lib := newLib(t, small())
	e := newFakeExec()
	rec := rendertest.NewRecorder(8, 8, 4096)
	ld, err := lib.StartLoad(e, nil, files, assets.LoadOptions{Parallel: 3})
	if err != nil {
		t.Fatal(err)
	}
	runLoad(t, e, ld, rec)
	if err := ld.Err(); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i := range n {
		img, err := ld.Image(i)
		if err != nil {
			t.Fatal(err)
		}
		r, err := lib.Region(img)
		if err != nil {
			t.Fatal(err)
		}
		got := regionPixels(t, rec, r)
		if want := assets.Pattern(i, 20, 12); !samePixels(got, want) {
			t.Fatalf("pattern %d: texels differ from Pattern", i)
		}
		seen[string(got.Pix)] = true
	}
	if len(seen) != n {
		t.Errorf("%d distinct patterns among %d", len(seen), n)
	}
}
