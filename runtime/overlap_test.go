package runtime_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// costGame is an unpaced game whose updates take a fixed time on its
// owner, charged through the test kit (virtual time on a runtimetest.Clock,
// busy real time on the real clock).
type costGame struct {
	runtime.Base
	clock  timing.Clock
	update time.Duration
}

func (g *costGame) Update(*runtime.TickContext) error {
	if s, ok := g.clock.(runtimetest.Spender); ok {
		s.Spend(runtimetest.Simulation, g.update)
	} else {
		runtimetest.Busy(g.update)
	}
	return nil
}

// overlapRun runs costGame with the given update and render costs for d
// on clock and returns presented frames per second.
func overlapRun(tb testing.TB, mode runtime.Mode, clock timing.Clock, update, render, d time.Duration) float64 {
	tb.Helper()
	ctx, fakes := runtimetest.NewAdapters(clock)
	fakes.Discard()
	fakes.Renderer.Cost = render
	opts := runtimetest.Options(clock, mode)
	opts.Timing.Interval = 0 // unpaced variable mode: as fast as the costs allow
	rt, err := runtime.New(&costGame{clock: clock, update: update}, ctx, opts)
	if err != nil {
		tb.Fatal(err)
	}
	start := clock.Now()
	if _, err := rt.Services().Attach(runtime.Maintenance, func(now timing.Instant) error {
		if now-start >= timing.Instant(d) {
			rt.Stop()
		}
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	if err := rt.Run(); err != nil {
		tb.Fatal(err)
	}
	elapsed := time.Duration(clock.Now() - start)
	return float64(rt.Stats().FramesPresented) / elapsed.Seconds()
}

// TestConcurrentOverlapOnVirtualTime: a game whose update and render each
// cost 8 ms presents at the pace of the slower of the two in concurrent
// mode and of their sum in sequential mode, so at least 1.7 times as many
// frames per second (issue 14). Virtual time makes the figure exact on any
// machine; BenchmarkOverlap8ms measures the same on the real clock.
func TestConcurrentOverlapOnVirtualTime(t *testing.T) {
	const cost = 8 * time.Millisecond
	seq := overlapRun(t, runtime.Sequential, runtimetest.NewClock(), cost, cost, 2*time.Second)
	con := overlapRun(t, runtime.Concurrent, runtimetest.NewClock(), cost, cost, 2*time.Second)
	t.Logf("virtual time: sequential %.1f fps, concurrent %.1f fps, ratio %.2f", seq, con, con/seq)
	if seq < 55 || seq > 66 {
		t.Errorf("sequential: %.1f fps, want about 62.5 (one frame per 16 ms)", seq)
	}
	if con/seq < 1.7 {
		t.Errorf("concurrent/sequential: %.2f, want at least 1.7", con/seq)
	}
}

// BenchmarkOverlap8ms runs the same game on the real clock, both modes side
// by side in each iteration, and reports frames per second of each and
// their ratio: `go test -run '^$' -bench Overlap8ms -benchtime 3x ./runtime`.
func BenchmarkOverlap8ms(b *testing.B) {
	const cost = 8 * time.Millisecond
	var seq, con float64
	for range b.N {
		seq += overlapRun(b, runtime.Sequential, timing.SystemClock{}, cost, cost, time.Second)
		con += overlapRun(b, runtime.Concurrent, timing.SystemClock{}, cost, cost, time.Second)
	}
	b.ReportMetric(seq/float64(b.N), "seq-fps")
	b.ReportMetric(con/float64(b.N), "conc-fps")
	b.ReportMetric(con/seq, "conc/seq")
}
