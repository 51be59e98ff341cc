package assetsrt_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"testing"
	"testing/fstest"
	"testing/synctest"
	"time"

	"golang.org/x/image/font/gofont/goregular"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/assets/assetsrt"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/runtime/work"
	"github.com/metronome-go/metronome/timing"
)

// loadingGame starts a background load in InitSimulation and shows a
// loading screen until it is done: every update polls it and notes the
// time since the previous update; once done, it resolves every handle and
// draws them all, then stops after a few more updates (or, with stopAt,
// stops at that update whatever the load is doing).
type loadingGame struct {
	runtime.Base
	renderer render2d.Renderer // the session\'s, from InitPlatform
	clock    timing.Clock
	lib      *assets.Library
	fsys     fs.FS
	files    []assets.File
	stopAt   uint64
	cancel   func(*loadingGame)

	exec *assetsrt.Executor
	load *assets.Load

	last           timing.Instant
	maxGap         time.Duration // between updates while loading
	loadingUpdates int
	progress       []int
	doneAt         uint64
	resolved       bool
	regions        []assets.Region
	loadErr        error
}

func (g *loadingGame) InitPlatform(plat *runtime.Platform) error {
	g.renderer = plat.Adapters.Renderer
	return nil
}

func (g *loadingGame) InitSimulation(sim *runtime.Simulation) error {
	g.exec = assetsrt.New(sim, g.renderer, sim.Workers.Group("assets"))
	var err error
	g.load, err = g.lib.StartLoad(g.exec, g.fsys, g.files, assets.LoadOptions{})
	return err
}

func (g *loadingGame) Update(t *runtime.TickContext) error {
	now := g.clock.Now()
	if g.stopAt > 0 && t.Number >= g.stopAt {
		return t.RequestStop()
	}
	if g.cancel != nil && t.Number == 5 {
		g.cancel(g)
	}
	done, _ := g.load.Progress()
	g.progress = append(g.progress, done)
	if !g.load.Done() {
		if g.last != 0 {
			g.maxGap = max(g.maxGap, time.Duration(now-g.last))
		}
		g.last = now
		g.loadingUpdates++
		return nil
	}
	if !g.resolved {
		g.resolved, g.doneAt = true, t.Number
		g.loadErr = g.load.Err()
		if g.loadErr != nil {
			return t.RequestStop()
		}
		for i, f := range g.files {
			var r assets.Region
			var err error
			switch {
			case f.Name() == "sheet.png":
				var s assets.Sheet
				if s, err = g.load.Sheet(i); err == nil {
					r, err = g.lib.Frame(s, 1)
				}
			case f.Name() == "go.ttf":
				_, err = g.load.Font(i)
				continue
			default:
				var img assets.Image
				if img, err = g.load.Image(i); err == nil {
					r, err = g.lib.Region(img) // at once: the load ends uploaded
				}
			}
			if err != nil {
				return fmt.Errorf("file %d: %w", i, err)
			}
			g.regions = append(g.regions, r)
		}
	}
	if t.Number >= g.doneAt+3 {
		return t.RequestStop()
	}
	return nil
}

// PrepareFrame draws every loaded image: the recording renderer refuses a
// frame whose textures do not exist, which fails the session.
func (g *loadingGame) PrepareFrame(w *render2d.FrameWriter) error {
	pass := w.BeginPass(render2d.PassDesc{Clear: true})
	for i, r := range g.regions {
		pass.Draw(r.Sprite(geom.Vec2{X: float32(i % 40 * 16), Y: float32(i / 40 * 16)}))
	}
	return nil
}

// decodeCost stands for a slow decode on the bubble's fake time.
const decodeCost = 2 * time.Millisecond

// gameFiles is a mixed set: n generated images that take decodeCost each,
// PNG files, a sheet and a font.
func gameFiles(t testing.TB, n int) (fstest.MapFS, []assets.File) {
	fsys := fstest.MapFS{"go.ttf": {Data: goregular.TTF}}
	var files []assets.File
	for i := range 20 {
		name := fmt.Sprintf("img%02d.png", i)
		fsys[name] = &fstest.MapFile{Data: encode(t, assets.Pattern(i, 10+i, 12))}
		files = append(files, assets.ImageFile(name))
	}
	fsys["sheet.png"] = &fstest.MapFile{Data: encode(t, assets.Pattern(99, 64, 16))}
	files = append(files, assets.SheetFile("sheet.png", assets.SheetSpec{FrameWidth: 16, FrameHeight: 16}), assets.FontFile("go.ttf", 20))
	for i := range n {
		files = append(files, assets.GeneratedImage(fmt.Sprintf("gen%03d", i), func(ctx context.Context) (image.Image, error) {
			time.Sleep(decodeCost)
			return assets.Pattern(i, 24, 24), ctx.Err()
		}))
	}
	return fsys, files
}

func encode(t testing.TB, img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var modes = []runtime.Mode{runtime.Sequential, runtime.Concurrent}

// session builds a loading game on the test kit in mode, with the library's
// uploading renderer around the kit's recorder, 60 Hz updates and frames,
// and two workers.
func session(t *testing.T, mode runtime.Mode, fsys fs.FS, files []assets.File) (*loadingGame, *runtime.GameRuntime, *runtimetest.Fakes) {
	clock := runtimetest.NewBubbleClock()
	lib, err := assets.NewLibrary(assets.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx, fakes := runtimetest.NewAdapters(clock)
	ctx.Renderer = assets.NewUploadingRenderer(lib, fakes.Renderer)
	opts := runtimetest.Options(clock, mode)
	opts.FrameCap = time.Second / 60
	opts.Execution.Workers = 2
	g := &loadingGame{clock: clock, lib: lib, fsys: fsys, files: files}
	rt, err := runtime.New(g, ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g, rt, fakes
}

// TestLoadWhileTicking runs a 320 ms background load (320 decodes of 2 ms
// on two workers, fake time) under the real runtime in both modes: the
// simulation keeps its 60 Hz updates throughout, progress moves forward,
// every handle resolves the update the load is done, and the frames that
// draw them render.
func TestLoadWhileTicking(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				fsys, files := gameFiles(t, 320)
				g, rt, fakes := session(t, mode, fsys, files)
				if err := rt.Run(); err != nil {
					t.Fatalf("Run: %v", err)
				}
				if g.loadErr != nil {
					t.Fatalf("load: %v", g.loadErr)
				}
				interval := time.Second / 60
				if g.maxGap > 2*interval {
					t.Errorf("longest gap between updates while loading: %v, want at most %v", g.maxGap, 2*interval)
				}
				// 320 ms of decoding at 60 Hz.
				if g.loadingUpdates < 18 {
					t.Errorf("%d updates while loading, want at least 18", g.loadingUpdates)
				}
				for i := 1; i < len(g.progress); i++ {
					if g.progress[i] < g.progress[i-1] {
						t.Fatalf("progress went back at update %d: %v", i, g.progress)
					}
				}
				if got := g.progress[len(g.progress)-1]; got != len(files) {
					t.Errorf("final progress %d, want %d", got, len(files))
				}
				if got, want := len(g.regions), len(files)-1; got != want {
					t.Fatalf("%d regions, want %d", got, want)
				}
				st := g.exec.Group().Stats()
				if st.Accepted != uint64(len(files)) || st.Finished != st.Accepted || st.Panicked != 0 {
					t.Errorf("group stats %+v, want %d accepted and finished", st, len(files))
				}
				last := fakes.Renderer.Frames[len(fakes.Renderer.Frames)-1]
				if got := len(last.Passes[0].Packets); got != len(g.regions) {
					t.Errorf("last frame drew %d packets, want %d", got, len(g.regions))
				}
				t.Logf("%d updates while loading, longest gap %v, done at update %d", g.loadingUpdates, g.maxGap, g.doneAt)
			})
		})
	}
}

// TestStopDuringLoad stops the session in the middle of a load: the
// shutdown settles the jobs it accepted, refuses the rest, and the session
// ends cleanly with most files never decoded.
func TestStopDuringLoad(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				fsys, files := gameFiles(t, 2000)
				g, rt, _ := session(t, mode, fsys, files)
				g.stopAt = 6
				if err := rt.Run(); err != nil {
					t.Fatalf("Run: %v", err)
				}
				if g.load.Done() {
					t.Error("the load finished before the stop; make it longer")
				}
				st := g.exec.Group().Stats()
				if st.Active != 0 || st.Finished != st.Accepted {
					t.Errorf("group stats after Run %+v: want every accepted job settled", st)
				}
				if st.Accepted >= uint64(len(files))/2 {
					t.Errorf("%d of %d jobs ran: the stop did not stop the load", st.Accepted, len(files))
				}
			})
		})
	}
}

// TestCancelGroupDuringLoad cancels the executor's group at update 5: the
// load ends canceled, with the group's cause, and places nothing.
func TestCancelGroupDuringLoad(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				fsys, files := gameFiles(t, 2000)
				g, rt, _ := session(t, mode, fsys, files)
				g.cancel = func(g *loadingGame) { g.exec.Group().Cancel() }
				if err := rt.Run(); err != nil {
					t.Fatalf("Run: %v", err)
				}
				if !errors.Is(g.loadErr, assets.ErrCanceled) || !errors.Is(g.loadErr, work.ErrGroupCanceled) {
					t.Errorf("load error %v, want ErrCanceled wrapping work.ErrGroupCanceled", g.loadErr)
				}
				if s := g.lib.Stats(); s.Images+s.Sheets+s.Fonts != 0 {
					t.Errorf("library holds %+v, want nothing", s)
				}
			})
		})
	}
}

// TestGraphicsAfterShutdown: once the session is over the executor
// refuses work instead of losing it silently.
func TestGraphicsAfterShutdown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, rt, _ := session(t, runtime.Sequential, fstest.MapFS{}, nil)
		g.stopAt = 1
		if err := rt.Run(); err != nil {
			t.Fatal(err)
		}
		ran := false
		if err := g.exec.Graphics(func(assets.Uploader) { ran = true }); !errors.Is(err, work.ErrClosed) {
			t.Errorf("Graphics after shutdown: %v, want work.ErrClosed", err)
		}
		if err := g.exec.Post(func() { ran = true }); !errors.Is(err, work.ErrClosed) {
			t.Errorf("Post after shutdown: %v, want work.ErrClosed", err)
		}
		if err := g.exec.Go(func(context.Context) { ran = true }); !errors.Is(err, work.ErrClosed) {
			t.Errorf("Go after shutdown: %v, want work.ErrClosed", err)
		}
		if ran {
			t.Error("refused work ran")
		}
	})
}
