package demo_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
)

// demoSession is the recorded session of issue 16: the demo scene under
// repay-debt in concurrent mode, with player input (moves, a dash, shots),
// two stalls and a suspension injected from the keyboard.
var demoSession = []string{"runtime.mode=concurrent", "timing.mode=fixed", "timing.rate=60", "timing.recovery=repay-debt", "timing.max_fixed_updates=4"}

// recordDemo records ticks updates of the demo to path and returns the
// world hash at the end.
func recordDemo(t testing.TB, path string, ticks int) uint64 {
	cfg := config.Default()
	for _, s := range demoSession {
		if err := cfg.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	var sim *frameworktest.Sim
	g, err := demo.New(demo.Options{Sprites: 500, Seed: 9, Sleep: func(d time.Duration) { sim.Clock.Advance(d) }})
	if err != nil {
		t.Fatal(err)
	}
	sim, err = frameworktest.New(g.Framework(), frameworktest.Options{Config: &cfg, Record: path, RenderCost: 2 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	hold := func(from, to time.Duration, b input.Button) {
		sim.Input.Press(sim.At(from), b)
		sim.Input.Release(sim.At(to), b)
	}
	hold(300*time.Millisecond, 1500*time.Millisecond, input.KeyD)
	hold(900*time.Millisecond, 2200*time.Millisecond, input.KeyS)
	tap(sim, 1200*time.Millisecond, input.KeySpace)
	tap(sim, 1800*time.Millisecond, input.KeyF)
	tap(sim, 2500*time.Millisecond, input.Key1) // 100 ms stall
	tap(sim, 4000*time.Millisecond, input.Key2) // 500 ms stall
	tap(sim, 6000*time.Millisecond, input.Key4) // 6 s suspension
	tap(sim, 13000*time.Millisecond, input.KeyF)
	if err := sim.RunTicks(ticks); err != nil {
		t.Fatal(err)
	}
	h, err := sim.App.Hash()
	if err != nil {
		t.Fatal(err)
	}
	return h.Total
}

// replayDemo replays the recording at path into a fresh demo and returns
// the world hash at its end and the number of ticks.
func replayDemo(t testing.TB, path string) (uint64, uint64) {
	var rep *frameworktest.Sim
	g, err := demo.New(demo.Options{Sprites: 500, Seed: 9, Sleep: func(d time.Duration) { rep.Clock.Advance(d) }})
	if err != nil {
		t.Fatal(err)
	}
	rep, err = frameworktest.NewReplay(g.Framework(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.RunTicks(1 << 30); err != nil {
		t.Fatalf("replay: %v", err)
	}
	h, err := rep.App.Hash()
	if err != nil {
		t.Fatal(err)
	}
	return h.Total, rep.Ticks()
}

// TestDemoSessionReplays records the demo under load and replays it
// headless: every checkpoint matches and the final world hash is the
// recorded session's (issue 16, run by make test in CI).
func TestDemoSessionReplays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "demo.rec")
	want := recordDemo(t, path, 1200)
	got, ticks := replayDemo(t, path)
	if ticks != 1200 || got != want {
		t.Errorf("replay: %d ticks, final hash %#x; want 1200 and %#x", ticks, got, want)
	}
}

// BenchmarkDemoReplay replays 1200 ticks (20 s at 60 Hz) of the demo scene
// with 500 bunnies the way --replay does (headless, the null renderer) and
// reports ticks per second and the speed against real time:
// go test -run '^$' -bench DemoReplay -benchtime 3x ./cmd/demo/internal/demo
func BenchmarkDemoReplay(b *testing.B) {
	path := filepath.Join(b.TempDir(), "demo.rec")
	recordDemo(b, path, 1200)
	b.ResetTimer()
	var ticks uint64
	for range b.N {
		g, err := demo.New(demo.Options{Sprites: 500, Seed: 9, Sleep: func(time.Duration) {}})
		if err != nil {
			b.Fatal(err)
		}
		res, err := framework.Replay(g.Framework(), path, framework.ReplayOptions{})
		if err != nil {
			b.Fatal(err)
		}
		ticks += res.Ticks
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(ticks)/sec, "ticks/s")
	b.ReportMetric(float64(ticks)/60/sec, "x-real-time")
}

// BenchmarkDemoRecordingCost runs the same 600 ticks of the demo with and
// without recording, interleaved, and reports the cost of recording as a
// fraction of tick time: go test -run '^$' -bench DemoRecordingCost -benchtime 5x ./cmd/demo/internal/demo
func BenchmarkDemoRecordingCost(b *testing.B) {
	dir := b.TempDir()
	run := func(record bool) time.Duration {
		cfg := config.Default()
		for _, s := range demoSession {
			_ = cfg.Set(s)
		}
		var sim *frameworktest.Sim
		g, err := demo.New(demo.Options{Sprites: 500, Seed: 9, Sleep: func(d time.Duration) { sim.Clock.Advance(d) }})
		if err != nil {
			b.Fatal(err)
		}
		o := frameworktest.Options{Config: &cfg}
		if record {
			o.Record = filepath.Join(dir, "cost.rec")
		}
		if sim, err = frameworktest.New(g.Framework(), o); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if err := sim.RunTicks(600); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	var with, without time.Duration
	for range b.N {
		without += run(false)
		with += run(true)
	}
	b.ReportMetric(float64(with-without)/float64(without), "recording-cost")
}
