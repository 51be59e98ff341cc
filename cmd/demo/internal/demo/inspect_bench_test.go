//go:build !js

package demo_test

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/metrics"
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/inspect"
)

// seekTicks is the length of BenchmarkDemoInspectSeek's recording: ten
// minutes at the demo's 60 Hz unless -args -seekticks N.
var seekTicks = flag.Int("seekticks", 36000, "ticks BenchmarkDemoInspectSeek records")

// BenchmarkDemoInspectSeek records seekTicks ticks of the demo scene
// (500 bunnies, issue 16's session settings, random moves, dashes and
// shots), opens it in the inspector's seek engine and seeks to 500
// random ticks: the median and worst seek (and the worst seek's CPU
// time, without its waits for a core), and the keyframes' and the
// tick log's memory against the recording's size; and what the worst
// seek was made of (its CPU time, its wait for a core, the GC cycles
// that ended during it) with the seeks' garbage. The recording's
// frames are discarded as they are presented (the fake renderer kept
// every frame's packets: 36,000 frames of 500 bunnies took the
// recording past 25 minutes).
//
//	go test ./cmd/demo/internal/demo -run '^$' -bench DemoInspectSeek -benchtime 1x
func BenchmarkDemoInspectSeek(b *testing.B) {
	path := filepath.Join(b.TempDir(), "ten-minutes.rec")
	cfg := config.Default()
	for _, s := range demoSession {
		if err := cfg.Set(s); err != nil {
			b.Fatal(err)
		}
	}
	newDemo := func(sleep func(time.Duration)) framework.Game {
		g, err := demo.New(demo.Options{Sprites: 500, Seed: 9, Sleep: sleep})
		if err != nil {
			b.Fatal(err)
		}
		return g.Framework()
	}
	var sim *frameworktest.Sim
	g := newDemo(func(d time.Duration) { sim.Clock.Advance(d) })
	sim, err := frameworktest.New(g, frameworktest.Options{Config: &cfg, Record: path})
	if err != nil {
		b.Fatal(err)
	}
	sim.Fakes.Renderer.Discard = true
	sim.Fakes.Presenter.Discard = true
	r := rand.New(rand.NewPCG(45, 4))
	keys := []input.Button{input.KeyW, input.KeyA, input.KeyS, input.KeyD, input.KeySpace, input.KeyF}
	for at := time.Duration(0); at < time.Duration(*seekTicks)*time.Second/60; at += time.Duration(100+r.IntN(900)) * time.Millisecond {
		sim.Input.Tap(sim.At(at), keys[r.IntN(len(keys))], time.Duration(20+r.IntN(600))*time.Millisecond)
	}
	start := time.Now()
	if err := sim.RunTicks(*seekTicks); err != nil {
		b.Fatal(err)
	}
	recorded := time.Since(start)
	if err := sim.Close(); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		first := time.Now()
		rep, err := framework.InspectReplay(newDemo(func(time.Duration) {}), path, inspect.Options{})
		if err != nil {
			b.Fatal(err)
		}
		opened := time.Since(first)
		seeks, cpu := make([]time.Duration, 500), make([]time.Duration, 500)
		// The worst seek's parts: its CPU time, its wait for a core and
		// the GC cycles that ended during it.
		var worst struct {
			wall, cpu, wait time.Duration
			gcs             uint64
		}
		gc := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
		gcs := func() uint64 { metrics.Read(gc); return gc[0].Value.Uint64() }
		var ms0, ms1 goruntime.MemStats
		goruntime.ReadMemStats(&ms0)
		goruntime.LockOSThread()
		for i := range seeks {
			c, w, g := threadCPU(), threadWait(), gcs()
			if err := rep.Seek(uint64(r.IntN(rep.Ticks()))); err != nil {
				b.Fatal(err)
			}
			seeks[i], cpu[i] = rep.LastSeek().Elapsed, threadCPU()-c
			if seeks[i] > worst.wall {
				worst.wall, worst.cpu, worst.wait, worst.gcs = seeks[i], cpu[i], threadWait()-w, gcs()-g
			}
		}
		goruntime.UnlockOSThread()
		goruntime.ReadMemStats(&ms1)
		b.ReportMetric(float64(ms1.NumGC-ms0.NumGC), "seek-gcs")
		b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/1024/float64(len(seeks)), "KiB-per-seek")
		b.ReportMetric(float64(worst.cpu.Microseconds())/1000, "worst-seek-its-cpu-ms")
		b.ReportMetric(float64(worst.wait.Microseconds())/1000, "worst-seek-its-wait-ms")
		b.ReportMetric(float64(worst.gcs), "worst-seek-its-gcs")
		slices.Sort(seeks)
		slices.Sort(cpu)
		b.ReportMetric(float64(cpu[len(cpu)-1].Microseconds())/1000, "worst-seek-cpu-ms")
		m := rep.Memory()
		b.ReportMetric(recorded.Seconds(), "record-s")
		b.ReportMetric(opened.Seconds(), "first-pass-s")
		b.ReportMetric(float64(rep.Ticks()), "ticks")
		b.ReportMetric(float64(rep.KeyframeEvery()), "keyframe-every")
		b.ReportMetric(float64(seeks[len(seeks)/2].Microseconds())/1000, "median-seek-ms")
		b.ReportMetric(float64(seeks[len(seeks)*99/100].Microseconds())/1000, "p99-seek-ms")
		b.ReportMetric(float64(seeks[len(seeks)-1].Microseconds())/1000, "worst-seek-ms")
		b.ReportMetric(float64(m.Keyframes), "keyframes")
		b.ReportMetric(float64(m.KeyframeBytes)/1024, "keyframe-KiB")
		b.ReportMetric(float64(m.TickBytes)/1024, "kept-ticks-KiB")
		b.ReportMetric(float64(st.Size())/1024, "recording-KiB")
	}
}
