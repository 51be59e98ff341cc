package runtime_test

import (
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// leanGame stops after a number of updates and draws a few packets per
// frame; it allocates nothing itself.
type leanGame struct {
	runtime.Base
	updates, stopAfter int
	spin               time.Duration
	// onUpdate, when set, is called at the start of every update with the
	// update's number (1 for the first).
	onUpdate func(n int)
	sim      *runtime.Simulation
}

func (g *leanGame) InitSimulation(sim *runtime.Simulation) error {
	g.sim = sim
	return nil
}

func (g *leanGame) Update(t *runtime.TickContext) error {
	g.updates++
	if g.onUpdate != nil {
		g.onUpdate(g.updates)
	}
	runtimetest.Busy(g.spin)
	if g.updates >= g.stopAfter {
		return t.RequestStop()
	}
	return nil
}

func (g *leanGame) PrepareFrame(w *render2d.FrameWriter) error {
	p := w.BeginPass(render2d.PassDesc{Clear: true})
	for i := range 8 {
		p.Draw(render2d.DrawPacket2D{Layer: int16(i)})
	}
	return nil
}

// leanRuntime builds a runtime on the test kit's fakes, keeping nothing
// (so the loop allocates nothing), on clock (nil: a virtual clock).
func leanRuntime(tb testing.TB, mode runtime.Mode, updates int, clock timing.Clock) (*runtime.GameRuntime, *leanGame, *runtimetest.Fakes) {
	tb.Helper()
	g := &leanGame{stopAfter: updates}
	if clock == nil {
		clock = runtimetest.NewClock()
	}
	ctx, fakes := runtimetest.NewAdapters(clock)
	fakes.Discard()
	rt, err := runtime.New(g, ctx, runtimetest.Options(clock, mode))
	if err != nil {
		tb.Fatal(err)
	}
	return rt, g, fakes
}

// BenchmarkSequentialCycle measures the runtime's own cost per platform
// cycle with adapters that do nothing and a clock whose waits return at
// once: the whole loop (dispatcher check, maintenance, poll, scheduling,
// update call, frame preparation and publication, render and present
// calls, telemetry, wait computation) minus the game and the platform.
func BenchmarkSequentialCycle(b *testing.B) {
	b.ReportAllocs()
	rt, _, _ := leanRuntime(b, runtime.Sequential, b.N, nil)
	b.ResetTimer()
	if err := rt.Run(); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	st := rt.Stats()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(st.Cycles), "ns/cycle")
	b.ReportMetric(float64(st.Cycles)/float64(st.Updates), "cycles/update")
}

// BenchmarkConcurrentUpdate measures the cost per update in concurrent
// mode, where each update crosses to the platform thread through the slots.
func BenchmarkConcurrentUpdate(b *testing.B) {
	b.ReportAllocs()
	rt, _, rend := leanRuntime(b, runtime.Concurrent, b.N, nil)
	b.ResetTimer()
	if err := rt.Run(); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	st := rt.Stats()
	b.ReportMetric(float64(rend.Renderer.Rendered())/float64(st.Updates), "frames/update")
}

// BenchmarkOverlap runs a game whose update and render each spin for a
// fixed time, unpaced, on the real clock, and reports the frame period
// against the sum and the slower of the two costs: sequential mode should
// come near the sum (ratio to sum about 1), concurrent mode near the slower
// (ratio to max about 1) when two cores are free.
func BenchmarkOverlap(b *testing.B) {
	const update, render = 300 * time.Microsecond, 500 * time.Microsecond
	for _, mode := range modes {
		b.Run(mode.String(), func(b *testing.B) {
			b.ReportAllocs()
			const framesPerOp = 100
			rt, g, rend := leanRuntime(b, mode, 1<<30, timing.SystemClock{})
			g.spin, rend.Renderer.Cost = update, render
			opts := rt.TimingOptions()
			opts.Interval = 0 // unpaced: as fast as the costs allow
			if err := rt.SetTimingOptions(opts); err != nil {
				b.Fatal(err)
			}
			stopAfterFrames(rt, rend, b.N*framesPerOp)
			b.ResetTimer()
			if err := rt.Run(); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			period := float64(b.Elapsed().Nanoseconds()) / float64(rend.Renderer.Rendered())
			b.ReportMetric(period/1e3, "µs/frame")
			b.ReportMetric(period/float64(update+render), "period/sum")
			b.ReportMetric(period/float64(max(update, render)), "period/max")
		})
	}
}

// stopAfterFrames attaches a maintenance service that stops the session
// once the renderer has drawn n frames.
func stopAfterFrames(rt *runtime.GameRuntime, rend *runtimetest.Fakes, n int) {
	_, _ = rt.Services().Attach(runtime.Maintenance, func(timing.Instant) error {
		if rend.Renderer.Rendered() >= n {
			rt.Stop()
		}
		return nil
	})
}

// BenchmarkWakeLatency measures how long a Wake from another goroutine
// takes to end a long wait: the SystemClock waiter against a waiter that
// sleeps in 1 ms clock_nanosleep slices (what SystemClock used before),
// alternated in the same run. It reports the median of each and their
// ratio; a waiter that missed a Wake would hang the benchmark.
func BenchmarkWakeLatency(b *testing.B) {
	b.ReportAllocs()
	sliced, err := timing.NewOSWaiter(time.Millisecond)
	if err != nil {
		b.Fatal(err)
	}
	waiters := [2]timing.Waiter{timing.SystemClock{}.NewWaiter(), sliced}
	var lat [2][]time.Duration
	ready, done := make(chan struct{}), make(chan timing.Instant)
	for i := range b.N {
		k := i % 2
		w := waiters[k]
		go func() {
			ready <- struct{}{}
			_ = w.WaitUntil(timing.Now().AddSaturating(time.Hour))
			done <- timing.Now()
		}()
		<-ready
		runtimetest.Busy(300 * time.Microsecond) // let the waiter fall asleep
		woke := timing.Now()
		w.Wake()
		lat[k] = append(lat[k], time.Duration(<-done-woke))
	}
	if len(lat[1]) == 0 {
		return
	}
	median := func(d []time.Duration) time.Duration {
		slices.Sort(d)
		return d[len(d)/2]
	}
	futex, slice := median(lat[0]), median(lat[1])
	b.ReportMetric(float64(futex.Nanoseconds())/1e3, "µs-system-median")
	b.ReportMetric(float64(slice.Nanoseconds())/1e3, "µs-1ms-slices-median")
	b.ReportMetric(float64(futex)/float64(slice), "system/slices")
}
