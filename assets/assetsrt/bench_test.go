package assetsrt_test

import (
	"fmt"
	"slices"
	"testing"
	"testing/fstest"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/assets/assetsrt"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// gapGame runs updates on the real clock and notes the longest interval
// between two of them; with files, it loads them in the background from
// its first update and runs until the load is done and 10 more updates
// have passed, otherwise for updates updates.
type gapGame struct {
	runtime.Base
	renderer render2d.Renderer // the session\'s, from InitPlatform
	lib      *assets.Library
	fsys     fstest.MapFS
	files    []assets.File
	updates  uint64

	exec      *assetsrt.Executor
	load      *assets.Load
	started   timing.Instant
	loadTime  time.Duration
	doneAt    uint64
	last      timing.Instant
	gaps      []time.Duration
	ran       uint64
	failedErr error
}

func (g *gapGame) InitPlatform(plat *runtime.Platform) error {
	g.renderer = plat.Adapters.Renderer
	return nil
}

func (g *gapGame) InitSimulation(sim *runtime.Simulation) error {
	g.exec = assetsrt.New(sim, g.renderer, sim.Workers.Group("assets"))
	return nil
}

func (g *gapGame) Update(t *runtime.TickContext) error {
	now := timing.Now()
	if g.last != 0 {
		g.gaps = append(g.gaps, time.Duration(now-g.last))
	}
	g.last = now
	g.ran = t.Number + 1
	if len(g.files) == 0 {
		if g.ran >= g.updates {
			return t.RequestStop()
		}
		return nil
	}
	if g.load == nil {
		var err error
		g.started = now
		g.load, err = g.lib.StartLoad(g.exec, g.fsys, g.files, assets.LoadOptions{})
		return err
	}
	if !g.load.Done() {
		return nil
	}
	if g.doneAt == 0 {
		g.doneAt, g.loadTime = t.Number, time.Duration(now-g.started)
		if err := g.load.Err(); err != nil {
			return err
		}
	}
	if t.Number >= g.doneAt+10 {
		return t.RequestStop()
	}
	return nil
}

// runGap runs one session of g on the real clock in mode: 60 Hz updates
// and frame cap, one worker, so the loop keeps a core of the two here.
func runGap(b *testing.B, mode runtime.Mode, g *gapGame) {
	clock := timing.SystemClock{}
	lib, err := assets.NewLibrary(assets.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	g.lib = lib
	ctx, fakes := runtimetest.NewAdapters(clock)
	fakes.Discard()
	ctx.Renderer = assets.NewUploadingRenderer(lib, fakes.Renderer)
	opts := runtimetest.Options(clock, mode)
	opts.FrameCap = time.Second / 60
	opts.Execution.Workers = 1
	rt, err := runtime.New(g, ctx, opts)
	if err != nil {
		b.Fatal(err)
	}
	if err := rt.Run(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkLoadKeepsLoopResponsive measures, on the real clock, the
// intervals between updates of a 60 Hz session while a background load of
// 200 PNGs (128x128, about 200 ms of decoding on one idle core) runs, each
// iteration against the same session without a load, run right after it
// for as many updates. Metrics, medians over the iterations: max-ms and
// baseline-max-ms (each run's longest interval), max/baseline (the median
// of the per-iteration ratios), p95-ms and baseline-p95-ms, and load-ms
// (start to done, as the simulation saw it). The machine's noise shows in
// the baseline; the ratio is the load's own effect.
func BenchmarkLoadKeepsLoopResponsive(b *testing.B) {
	fsys := fstest.MapFS{}
	var files []assets.File
	for i := range 200 {
		name := fmt.Sprintf("p%03d.png", i)
		fsys[name] = &fstest.MapFile{Data: encode(b, assets.Pattern(i, 128, 128))}
		files = append(files, assets.ImageFile(name))
	}
	for _, mode := range modes {
		b.Run(mode.String(), func(b *testing.B) {
			b.ReportAllocs()
			var maxes, baseMaxes, ratios, p95s, baseP95s, loads []float64
			for b.Loop() {
				g := &gapGame{fsys: fsys, files: files}
				runGap(b, mode, g)
				ref := &gapGame{updates: g.ran}
				runGap(b, mode, ref)
				m, bm := quantile(g.gaps, 1), quantile(ref.gaps, 1)
				maxes, baseMaxes, ratios = append(maxes, m), append(baseMaxes, bm), append(ratios, m/bm)
				p95s, baseP95s = append(p95s, quantile(g.gaps, 0.95)), append(baseP95s, quantile(ref.gaps, 0.95))
				loads = append(loads, float64(g.loadTime)/1e6)
			}
			b.ReportMetric(median(maxes), "max-ms")
			b.ReportMetric(median(baseMaxes), "baseline-max-ms")
			b.ReportMetric(median(ratios), "max/baseline")
			b.ReportMetric(median(p95s), "p95-ms")
			b.ReportMetric(median(baseP95s), "baseline-p95-ms")
			b.ReportMetric(median(loads), "load-ms")
		})
	}
}

// quantile returns the q quantile of gaps in milliseconds (1 is the
// maximum).
func quantile(gaps []time.Duration, q float64) float64 {
	s := slices.Clone(gaps)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return float64(s[min(len(s)-1, int(q*float64(len(s))))]) / 1e6
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
