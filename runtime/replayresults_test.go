package runtime_test

import (
	"bytes"
	"errors"
	"hash/fnv"
	"os"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// resultsGame submits a platform request of its own at tick 3 and folds
// the tick it sees the result into its state. Beside it, platform work
// the simulation never reads (a window switch here; an asset load's
// budgeted upload steps in the demo) is submitted at a tick that depends
// on the run: platformAt, or never when it is zero.
type resultsGame struct {
	runtime.Base
	rt         *runtime.GameRuntime
	sim        *runtime.Simulation
	platformAt uint64
	own        *runtime.Future[int]
	sum        uint64
}

func (g *resultsGame) InitSimulation(sim *runtime.Simulation) error {
	g.sim = sim
	return nil
}

func (g *resultsGame) Update(t *runtime.TickContext) error {
	g.sum = g.sum*31 + 1
	if g.platformAt != 0 && t.Number == g.platformAt {
		g.rt.SetFullscreen(true) // nobody reads its result
	}
	if t.Number == 3 {
		g.own = runtime.Submit(g.sim.Dispatcher, func() (int, error) { return 7, nil })
	}
	if g.own != nil && g.own.Ready() {
		v, _ := g.own.Result()
		g.sum = g.sum*31 + uint64(v)*t.Number
		g.own = nil
	}
	if t.Number+1 >= 20 {
		return t.RequestStop()
	}
	return nil
}

func (g *resultsGame) hash(c *recording.Checkpoint) error {
	h := fnv.New64a()
	var b [8]byte
	for i := range b {
		b[i] = byte(g.sum >> (8 * i))
	}
	h.Write(b[:])
	c.Hash = h.Sum64()
	c.Types = append(c.Types, recording.TypeHash{Name: "game.sum", Hash: c.Hash, Count: 1})
	return nil
}

func (g *resultsGame) recorded() recorded {
	return recorded{g, g.hash, func(rt *runtime.GameRuntime) { g.rt = rt }}
}

// TestReplayHandsOverTheRecordedResults (issue 47 item 1): platform
// requests the simulation does not make (workers', the platform thread's
// own, a tool's) come and go with the platform's timing. The recording
// says which of the simulation's own results each update saw, so a replay
// whose platform made such requests earlier, or none at all, still shows
// the game its result on the recorded tick; it used to count every
// request, and then either stalled waiting for a request the replay never
// made or revealed another request's result in place of the game's.
func TestReplayHandsOverTheRecordedResults(t *testing.T) {
	defer runtime.SetStallTimeout(time.Second)()
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			rg := &resultsGame{platformAt: 8}
			clock := runtimetest.NewClock()
			ctx, _ := runtimetest.NewAdapters(clock)
			rec := recordRun(t, rg.recorded(), clock, ctx, mode, 4)
			for _, tc := range []struct {
				name       string
				platformAt uint64
			}{
				{"the platform's request before the game's", 1},
				{"no platform request", 0},
				{"the same requests", 8},
			} {
				g := &resultsGame{platformAt: tc.platformAt}
				err := replayRun(t, rec, g.recorded(), runtime.Sequential, nil)
				if errors.Is(err, runtime.ErrReplayStalled) {
					t.Errorf("%s: replay stalled: %v", tc.name, err)
				} else if err != nil {
					t.Errorf("%s: replay: %v", tc.name, err)
				}
				if g.sum != rg.sum {
					t.Errorf("%s: replayed state %x, recorded %x", tc.name, g.sum, rg.sum)
				}
			}
		})
	}
}

// TestReplayOfAVersion6Recording: recordings of format 6 and older count
// every platform request in their watermarks; a replay that makes the
// same requests reads them so (testdata/v6-results.rec is resultsGame's
// session recorded by the build before format 7).
func TestReplayOfAVersion6Recording(t *testing.T) {
	defer runtime.SetStallTimeout(time.Second)()
	rec, err := os.ReadFile("testdata/v6-results.rec")
	if err != nil {
		t.Fatal(err)
	}
	g := &resultsGame{platformAt: 8}
	if err := replayRun(t, rec, g.recorded(), runtime.Sequential, nil); err != nil {
		t.Fatalf("replay: %v", err)
	}
	if want := uint64(0x8310d4fb71007546); g.sum != want {
		t.Errorf("replayed state %x, recorded %x", g.sum, want)
	}
}

// ownWindowGame keeps the window size each tick saw.
type ownWindowGame struct {
	runtime.Base
	sizes []input.Size
}

func (g *ownWindowGame) Update(t *runtime.TickContext) error {
	g.sizes = append(g.sizes, t.Window.Size)
	return nil
}

// TestReplayShowsItsOwnWindow: a recording without window facts (a
// networked match's holds none) replays with OwnWindow into ticks that see
// the replaying session's window; without it they see none (size zero),
// and a game that sizes its camera from the window draws nothing.
func TestReplayShowsItsOwnWindow(t *testing.T) {
	var buf bytes.Buffer
	w, err := recording.NewWriter(&buf, "match.rec", recording.Header{Game: "test", Mode: runtime.Sequential.String()})
	if err != nil {
		t.Fatal(err)
	}
	const step = 10 * time.Millisecond
	for k := range uint64(5) {
		tk := &recording.Tick{}
		tk.Update.Number, tk.Update.Kind, tk.Update.Final, tk.Update.Steps = k, timing.FixedUpdate, true, 1
		tk.Update.Delta = step
		tk.Update.Start, tk.Update.End = timing.Instant(k)*timing.Instant(step), timing.Instant(k+1)*timing.Instant(step)
		tk.InputStart, tk.InputEnd = tk.Update.Start, tk.Update.End
		if err := w.Append(tk); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	size := input.Size{Width: 640, Height: 360}
	for _, own := range []bool{false, true} {
		r, err := recording.NewReader(bytes.NewReader(buf.Bytes()), "match.rec")
		if err != nil {
			t.Fatal(err)
		}
		clock := timing.NewManualClock(0)
		ctx, fakes := runtimetest.NewAdapters(clock)
		ctx.Input = nil
		fakes.Display.Resize(0, size, size)
		opts := runtimetest.Options(clock, runtime.Sequential)
		opts.Record = runtime.RecordOptions{Reader: r, OwnWindow: own}
		g := &ownWindowGame{}
		rt, err := runtime.New(g, ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := rt.Run(); err != nil {
			t.Fatalf("OwnWindow %v: replay: %v", own, err)
		}
		want := input.Size{}
		if own {
			want = size
		}
		if len(g.sizes) != 5 {
			t.Fatalf("OwnWindow %v: %d ticks, want 5", own, len(g.sizes))
		}
		for k, got := range g.sizes {
			if got != want {
				t.Errorf("OwnWindow %v: tick %d saw a %v window, want %v", own, k, got, want)
			}
		}
	}
}
