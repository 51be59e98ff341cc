package assetsrt_test

import (
	"bytes"
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// slowClock moves a millisecond at every reading: a library measuring its
// upload budget on it finds each step over budget after one band, as a
// loaded machine does.
type slowClock struct{ *timing.ManualClock }

func (c slowClock) Now() timing.Instant { return c.Advance(time.Millisecond) }

// TestLoadReplaysWhateverItsUploadSteps (issue 47 item 1): a load's final
// upload goes on in as many platform steps as its budget needs, so a
// recording made on a loaded machine had several settle before some tick
// and a replay on an idle one makes one. The replay hands the game the
// same results and runs to the end; it used to stall, waiting for steps
// it never made.
func TestLoadReplaysWhateverItsUploadSteps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fsys, files := gameFiles(t, 8)
		run := func(budget time.Duration, w *recording.Writer, r *recording.Reader) (*loadingGame, error) {
			clock := runtimetest.NewBubbleClock()
			o := assets.DefaultOptions()
			o.UploadBudget, o.Clock = budget, slowClock{timing.NewManualClock(0)}
			lib, err := assets.NewLibrary(o)
			if err != nil {
				t.Fatal(err)
			}
			ctx, fakes := runtimetest.NewAdapters(clock)
			ctx.Renderer = assets.NewUploadingRenderer(lib, fakes.Renderer)
			opts := runtimetest.Options(clock, runtime.Sequential)
			opts.FrameCap = time.Second / 60
			opts.Execution.Workers = 2
			opts.Record = runtime.RecordOptions{Writer: w, Reader: r}
			if r != nil {
				ctx.Input = nil
			}
			g := &loadingGame{clock: clock, lib: lib, fsys: fsys, files: files}
			rt, err := runtime.New(g, ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			return g, rt.Run()
		}
		var buf bytes.Buffer
		w, err := recording.NewWriter(&buf, "load.rec", recording.Header{Game: "test", Mode: runtime.Sequential.String()})
		if err != nil {
			t.Fatal(err)
		}
		rg, runErr := run(2*time.Millisecond, w, nil)
		if err := w.Close(runErr); err != nil {
			t.Fatal(err)
		}
		if runErr != nil || rg.loadErr != nil {
			t.Fatalf("recorded run: %v, load: %v", runErr, rg.loadErr)
		}
		r, err := recording.NewReader(bytes.NewReader(buf.Bytes()), "load.rec")
		if err != nil {
			t.Fatal(err)
		}
		g, err := run(0, nil, r)
		if err != nil {
			t.Fatalf("replay: %v", err)
		}
		if g.doneAt != rg.doneAt {
			t.Errorf("the replay's load was done at update %d, the recorded one's at %d", g.doneAt, rg.doneAt)
		}
	})
}
