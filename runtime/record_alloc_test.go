//go:build !race

package runtime_test

import (
	"io"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// TestRecordingAllocatesNothing records 2000 updates with input and a
// checkpoint every 60: once the session runs, recording a tick allocates
// nothing, on the loop's goroutines and the writer's (the probe counts
// exactly what the module's code allocates; the least of five sessions is
// taken, for the reason below).
func TestRecordingAllocatesNothing(t *testing.T) {
	// Virtual time runs a second of ticks in microseconds, so the writer's
	// goroutine, which writes a chunk per recorded second, can fall behind
	// on a loaded machine and grow its (bounded) pool of chunk buffers. A
	// real session waits between ticks and the writer keeps up; each update
	// here yields once to model that, so what is counted is the per-tick
	// path.
	const from, to = 1000, 3000
	measure := func() (int64, []string) {
		clock := runtimetest.NewClock()
		ctx, fakes := runtimetest.NewAdapters(clock)
		fakes.Discard()
		for i := range 400 {
			fakes.Input.Tap(clock.At(time.Duration(i)*90*time.Millisecond), 1, 20*time.Millisecond)
		}
		w, err := recording.NewWriter(io.Discard, "discard", recording.Header{Game: "test"})
		if err != nil {
			t.Fatal(err)
		}
		g := &leanGame{stopAfter: to + 100}
		var sum uint64
		opts := runtimetest.Options(clock, runtime.Sequential)
		opts.Timing.Mode = timing.FixedMode
		opts.Record = runtime.RecordOptions{Writer: w, Hash: func(c *recording.Checkpoint) error {
			c.Hash = sum
			c.Types = append(c.Types, recording.TypeHash{Name: "sum", Hash: sum, Count: 1})
			return nil
		}}
		probe := newAllocProbe(t)
		g.onUpdate = func(n int) {
			goruntime.Gosched()
			sum += uint64(n)
			switch n {
			case from:
				probe.mark(0)
			case to:
				probe.mark(1)
			}
		}
		rt, err := runtime.New(g, ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := rt.Run(); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(nil); err != nil {
			t.Fatal(err)
		}
		return probe.window(t)
	}
	var runs []int64
	var sites []string
	for range 5 {
		n, s := measure()
		runs = append(runs, n)
		if n == 0 {
			return
		}
		sites = s
	}
	t.Errorf("allocations while recording updates %d to %d in five sessions: %v; want 0 in at least one; the last session's:\n%s", from, to, runs, strings.Join(sites, "\n"))
}
