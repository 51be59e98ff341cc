package demo_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
)

// BenchmarkTick runs the demo headless on a manual clock with 2,000 bunnies
// and one frame per tick, as the benchmark mode does (bunnies only: the
// baseline) and as the full demo (player, overlay text and graphs, panel),
// and reports the cost of a tick for each and their ratio. A tick here
// includes frame preparation and the recording renderer's copy of the frame,
// not GPU work; set-up (texture packing) is left out.
func BenchmarkTick(b *testing.B) {
	b.ReportAllocs()
	n := max(b.N, 2)
	run := func(bench bool) time.Duration {
		cfg := mustConfig("timing.mode=fixed", "timing.rate=60", "runtime.frame_cap=0")
		g, err := demo.New(demo.Options{Sprites: 2000, Bench: bench})
		if err != nil {
			b.Fatal(err)
		}
		sim, err := framework.NewSimulation(g.Framework(), framework.SimulationOptions{Config: &cfg})
		if err != nil {
			b.Fatal(err)
		}
		var start time.Time
		sim.App.AddSystem(ecs.Startup, ecs.System{Name: "clock", Run: func(*ecs.Context) { start = time.Now() }})
		if err := sim.RunTicks(n); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	// Alternate, so that heap growth and machine load touch both alike.
	var base, full time.Duration
	for range 3 {
		base += run(true)
		full += run(false)
	}
	b.ReportMetric(float64(base.Nanoseconds())/float64(3*n), "bunnies-only-ns/tick")
	b.ReportMetric(float64(full.Nanoseconds())/float64(3*n), "full-demo-ns/tick")
	b.ReportMetric(float64(full)/float64(base), "full/bunnies-only")
}
