package runtime_test

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// ledgerGame keeps state that depends on everything a recording must
// capture: the tick's timing, input presses and held time and the polls
// consumed, window size, mailbox work posted from another goroutine and a platform result.
type ledgerGame struct {
	runtime.Base
	jump    input.Action
	rt      *runtime.GameRuntime
	sim     *runtime.Simulation
	sum     uint64
	confirm bool // install a "save first?" policy (see policy)
	accept  bool // the policy accepts, after changing the state
	asking  bool
	upload  *runtime.Future[int]
	posted  bool
	// postLate, when non-zero, holds the goroutine that tick 20 (or
	// postLate, if earlier) starts until the update of tick postLate,
	// which waits for its post: the
	// item then reaches the mailbox between that update and the next
	// one's drain, a timing a loaded machine gives the plain game rarely.
	postLate uint64
	// itemQuits makes the posted item request a shutdown.
	itemQuits bool
	release   chan struct{}
	postDone  chan struct{}
	stopAt    uint64
	corrupt   uint64 // when non-zero, the state goes wrong after this tick
}

func (g *ledgerGame) InitPlatform(plat *runtime.Platform) error {
	rt := g.rt
	var err error
	g.jump, err = plat.Actions.RegisterNames("jump", "Space")
	if err == nil && g.confirm {
		err = rt.Shutdown().SetPolicy(g.policy)
	}
	return err
}

// policy asks before closing: it defers a request and the game answers a
// few ticks later; the state records every question.
func (g *ledgerGame) policy(req runtime.ShutdownRequest) runtime.ShutdownDecision {
	g.sum = g.sum*131 + req.Seq*17 + uint64(len(req.Reason)) + uint64(req.At)%1000
	if g.accept {
		return runtime.ShutdownAccept
	}
	g.asking = true
	return runtime.ShutdownDefer
}

func (g *ledgerGame) InitSimulation(sim *runtime.Simulation) error {
	g.sim = sim
	return nil
}

func (g *ledgerGame) Update(t *runtime.TickContext) error {
	g.sum = g.sum*31 + uint64(t.Delta) + uint64(t.Input.Presses(g.jump))*1000 + uint64(t.Input.Held(g.jump)) + uint64(t.Input.Polls())<<20 + uint64(t.Window.Size.Width)
	if t.Number == 10 {
		g.upload = runtime.Submit(g.sim.Dispatcher, func() (int, error) { return 42, nil })
	}
	if g.upload != nil && g.upload.Ready() {
		v, _ := g.upload.Result()
		g.sum += uint64(v)
		g.upload = nil
	}
	if t.Number == min(20, g.postLate) && !g.posted {
		g.posted = true
		if g.postLate > 0 {
			g.release = make(chan struct{})
		}
		release, done := g.release, make(chan struct{})
		g.postDone = done
		go func() {
			defer close(done)
			if release != nil {
				<-release
			}
			_ = g.sim.Mailbox.Post(func() {
				g.sum ^= 0xfeed
				if g.itemQuits {
					_ = g.rt.Shutdown().Request(runtime.ReasonTool)
				}
			})
		}()
	}
	if g.release != nil && t.Number == g.postLate {
		close(g.release)
		<-g.postDone
		g.release = nil
	}
	if g.confirm {
		if g.asking {
			g.sum += 3
		}
		switch t.Number {
		case 30, 48:
			if g.asking {
				g.asking = false
				if err := g.rt.Shutdown().Refuse(); err != nil {
					return err
				}
			}
		case 40:
			if err := g.rt.Shutdown().Request(runtime.ReasonQuit); err != nil {
				return err
			}
		}
	}
	if g.corrupt > 0 && t.Number > g.corrupt {
		g.sum++
	}
	if t.Number+1 >= g.stopAt {
		return t.RequestStop()
	}
	return nil
}

func (g *ledgerGame) hash(c *recording.Checkpoint) error {
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

// recordSession runs ledgerGame in mode with scripted input and returns the
// recording and the game's final state.
func recordSession(t *testing.T, mode runtime.Mode, ticks uint64) ([]byte, uint64) {
	t.Helper()
	return recordGame(t, mode, &ledgerGame{stopAt: ticks})
}

func recordGame(t *testing.T, mode runtime.Mode, g *ledgerGame) ([]byte, uint64) {
	t.Helper()
	clock := runtimetest.NewClock()
	ctx, fakes := runtimetest.NewAdapters(clock)
	fakes.Input.Tap(clock.At(105*time.Millisecond), input.KeySpace, 3*time.Millisecond)
	fakes.Input.Press(clock.At(400*time.Millisecond), input.KeySpace)
	fakes.Input.Release(clock.At(730*time.Millisecond), input.KeySpace)
	fakes.Display.Resize(clock.At(300*time.Millisecond), input.Size{Width: 800, Height: 600}, input.Size{Width: 800, Height: 600})
	if g.confirm {
		fakes.Display.RequestClose(clock.At(155 * time.Millisecond))
	}
	rec := recordRun(t, recorded{g, g.hash, func(rt *runtime.GameRuntime) { g.rt = rt }}, clock, ctx, mode, 7)
	return rec, g.sum
}

// recorded is a game for recordRun and replayRun: the hash of its
// checkpoints, and where it keeps its runtime.
type recorded struct {
	game  runtime.Game
	hash  func(*recording.Checkpoint) error
	setRT func(*runtime.GameRuntime)
}

// recordRun runs g on ctx in mode with fixed 10 ms steps, recording the
// session with a checkpoint every every updates, and returns the
// recording. A failure of the run or of the recording fails the test.
func recordRun(t *testing.T, g recorded, clock timing.Clock, ctx *runtime.Adapters, mode runtime.Mode, every int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := recording.NewWriter(&buf, "test.rec", recording.Header{Game: "test", Mode: mode.String(), CheckpointEvery: every})
	if err != nil {
		t.Fatal(err)
	}
	opts := runtimetest.Options(clock, mode)
	opts.Timing.Mode = timing.FixedMode
	opts.Timing.FixedStep = 10 * time.Millisecond
	opts.Record = runtime.RecordOptions{Writer: w, Hash: g.hash, Every: every}
	rt, err := runtime.New(g.game, ctx, opts)
	g.setRT(rt)
	if err != nil {
		t.Fatal(err)
	}
	runErr := rt.Run()
	if err := w.Close(runErr); err != nil {
		t.Fatal(err)
	}
	if runErr != nil {
		t.Fatal(runErr)
	}
	return buf.Bytes()
}

// replayRun replays rec into g in mode on a manual clock from 0, with the
// fakes set up by prepare (nil for none), and returns Run's error.
func replayRun(t *testing.T, rec []byte, g recorded, mode runtime.Mode, prepare func(*runtimetest.Fakes)) error {
	t.Helper()
	r, err := recording.NewReader(bytes.NewReader(rec), "test.rec")
	if err != nil {
		t.Fatal(err)
	}
	clock := timing.NewManualClock(0)
	ctx, fakes := runtimetest.NewAdapters(clock)
	ctx.Input = nil // input comes from the recording
	if prepare != nil {
		prepare(fakes)
	}
	opts := runtimetest.Options(clock, mode)
	opts.Record = runtime.RecordOptions{Reader: r, Hash: g.hash}
	rt, err := runtime.New(g.game, ctx, opts)
	g.setRT(rt)
	if err != nil {
		t.Fatal(err)
	}
	return rt.Run()
}

// replaySession replays rec into a fresh ledgerGame and returns its state
// and Run's error.
func replaySession(t *testing.T, rec []byte, corrupt uint64) (uint64, error) {
	t.Helper()
	return replayGame(t, rec, &ledgerGame{stopAt: 1 << 62, corrupt: corrupt}, 0)
}

// replayGame replays rec into g; a closeAt above zero closes the replay's
// window at that instant of its clock.
func replayGame(t *testing.T, rec []byte, g *ledgerGame, closeAt time.Duration) (uint64, error) {
	t.Helper()
	err := replayRun(t, rec, recorded{g, g.hash, func(rt *runtime.GameRuntime) { g.rt = rt }}, runtime.Sequential, func(fakes *runtimetest.Fakes) {
		if closeAt > 0 {
			fakes.Display.RequestClose(timing.Instant(closeAt))
		}
	})
	return g.sum, err
}

// TestRecordAndReplay records a session in each mode (input, a resize,
// a platform result and mailbox work from another goroutine) and replays
// it sequentially on virtual time: the replay checks every checkpoint and
// ends in the same state (issue 16).
func TestRecordAndReplay(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			rec, want := recordSession(t, mode, 100)
			got, err := replaySession(t, rec, 0)
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			if got != want {
				t.Errorf("replayed state %x, recorded %x", got, want)
			}
			t.Logf("%d ticks in %d bytes", 100, len(rec))
		})
	}
}

// TestReplayPutsRecordedShutdownRequestsToThePolicy: the window's close
// and the game's own quit request reach a policy that defers them and
// changes game state; the game refuses each a few ticks later. The replay
// puts the recorded requests to the policy before the same ticks (the
// replayed game's own request is the recording's, not a second one) and
// ends in the same state.
func TestReplayPutsRecordedShutdownRequestsToThePolicy(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			rec, want := recordGame(t, mode, &ledgerGame{stopAt: 100, confirm: true})
			r, err := recording.NewReader(bytes.NewReader(rec), "test.rec")
			if err != nil {
				t.Fatal(err)
			}
			var asked []string
			for {
				item, err := r.Next()
				if err != nil {
					t.Fatal(err)
				}
				if _, end := item.(*recording.End); end {
					break
				}
				if tk, ok := item.(*recording.Tick); ok {
					for _, q := range tk.Shutdown {
						asked = append(asked, fmt.Sprintf("#%d %s before tick %d", q.Seq, q.Reason, tk.Update.Number))
					}
				}
			}
			if len(asked) != 2 || !strings.Contains(asked[0], "window close") || !strings.Contains(asked[1], "quit before tick 41") {
				t.Fatalf("recorded requests %q, want the close, then the quit before tick 41", asked)
			}
			g := &ledgerGame{stopAt: 1 << 62, confirm: true}
			got, err := replayGame(t, rec, g, 0)
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			if got != want {
				t.Errorf("replayed state %x, recorded %x", got, want)
			}
			if st := g.rt.Shutdown().Stats(); st.Requests != 2 || st.Deferred != 2 || st.Refused != 2 {
				t.Errorf("replay's shutdown stats %+v, want 2 requests deferred, then refused", st)
			}
			// Closing the replay's own window ends the replay at once: the
			// policy is the recorded session's, not the viewer's.
			g = &ledgerGame{stopAt: 1 << 62, confirm: true}
			if _, err := replayGame(t, rec, g, 200*time.Millisecond); err != nil {
				t.Fatalf("replay closed early: %v", err)
			}
			if st, n := g.rt.Shutdown().Stats(), g.rt.RecordStats().Ticks; st.Accepted != 1 || n >= 100 {
				t.Errorf("replay closed at 200 ms: shutdown stats %+v after %d ticks, want the close accepted before the end", st, n)
			}
		})
	}
}

// TestReplayWithMailboxWorkBesideAShutdownRequest forces the ordering of a
// rare flake: the item posted from tick 20's goroutine reaches the
// mailbox during the update that makes a shutdown request (tick 40's
// quit), so the drain before the next update runs it just before the
// policy decides. The checkpoint taken for the policy holds the state
// after the update, without the next one's mailbox work, as the replay
// checks it. Accepted (the close at 155 ms, decided before tick 15), the
// request ends the session with that checkpoint its last, and the replay
// checks it too; so it does when the mailbox item makes the request.
func TestReplayWithMailboxWorkBesideAShutdownRequest(t *testing.T) {
	for _, tc := range []struct {
		name      string
		accept    bool
		late      uint64 // the update during which the item is posted
		itemQuits bool   // the item requests a shutdown too
		ticks     uint64 // the updates an accepted request leaves
	}{
		{name: "deferred", late: 40},
		{name: "accepted", accept: true, late: 14, ticks: 15},
		{name: "accepted from the mailbox", accept: true, late: 10, itemQuits: true, ticks: 12},
	} {
		for _, mode := range modes {
			t.Run(fmt.Sprintf("%s/%v", tc.name, mode), func(t *testing.T) {
				g := &ledgerGame{stopAt: 100, confirm: true, accept: tc.accept, postLate: tc.late, itemQuits: tc.itemQuits}
				rec, want := recordGame(t, mode, g)
				g = &ledgerGame{stopAt: 1 << 62, confirm: true, accept: tc.accept, postLate: tc.late, itemQuits: tc.itemQuits}
				got, err := replayGame(t, rec, g, 0)
				if err != nil {
					t.Fatalf("replay: %v", err)
				}
				if !tc.accept && got != want {
					t.Errorf("replayed state %x, recorded %x", got, want)
				}
				if n := g.rt.RecordStats().Ticks; tc.accept && n != tc.ticks {
					t.Errorf("replayed %d ticks, want %d", n, tc.ticks)
				}
			})
		}
	}
}

// TestReplayReportsDivergence replays into a game that goes wrong after
// tick 30: the replay fails at the first checkpoint after it, naming the
// tick and the component type.
func TestReplayReportsDivergence(t *testing.T) {
	rec, _ := recordSession(t, runtime.Sequential, 100)
	_, err := replaySession(t, rec, 30)
	var div *runtime.DivergenceError
	if !errors.As(err, &div) {
		t.Fatalf("replay of a diverging game: got %v, want a DivergenceError", err)
	}
	if div.Tick != 34 { // checkpoints after ticks 6, 13, 20, 27, 34, ...
		t.Errorf("diverged at tick %d, want 34 (the first checkpoint after 30)", div.Tick)
	}
	if !strings.Contains(err.Error(), "game.sum") {
		t.Errorf("error %q does not name the differing type", err)
	}
}

// TestReplayChecksTheLastTicks: the ticks after the last periodic
// checkpoint, and a whole recording shorter than the interval, are
// checked by the checkpoint the session writes when it stops.
func TestReplayChecksTheLastTicks(t *testing.T) {
	for _, tc := range []struct {
		ticks, corrupt uint64
	}{
		{5, 3},    // shorter than the interval of 7
		{100, 98}, // after the last periodic checkpoint (97)
	} {
		rec, _ := recordSession(t, runtime.Sequential, tc.ticks)
		if _, err := replaySession(t, rec, 0); err != nil {
			t.Fatalf("%d ticks: replay: %v", tc.ticks, err)
		}
		_, err := replaySession(t, rec, tc.corrupt)
		var div *runtime.DivergenceError
		if !errors.As(err, &div) {
			t.Fatalf("%d ticks, diverging at %d: got %v, want a DivergenceError", tc.ticks, tc.corrupt, err)
		}
		if div.Tick != tc.ticks-1 {
			t.Errorf("%d ticks: diverged at tick %d, want %d (the last)", tc.ticks, div.Tick, tc.ticks-1)
		}
	}
}

// TestReplayRefusesDataAfterTheEnd: a recording goes on after its end
// marker only when it is damaged; the replay says so.
func TestReplayRefusesDataAfterTheEnd(t *testing.T) {
	rec, _ := recordSession(t, runtime.Sequential, 20)
	_, err := replaySession(t, append(rec, 0), 0)
	if !errors.Is(err, recording.ErrCorrupt) || !strings.Contains(err.Error(), "data follows the end marker") {
		t.Errorf("replay with a byte after the end: got %v, want the corruption named", err)
	}
}

// TestReplayAfterAnAcceptedShutdownRequest: a policy that changes the
// state and accepts ends the recorded session before an update, and a
// replay (which asks no policy about a request that was never followed by
// an update) ends after the same last update: the last checkpoint holds
// the state before the policy ran, so the replay matches it.
func TestReplayAfterAnAcceptedShutdownRequest(t *testing.T) {
	rec, _ := recordGame(t, runtime.Sequential, &ledgerGame{stopAt: 1 << 62, confirm: true, accept: true})
	if _, err := replayGame(t, rec, &ledgerGame{stopAt: 1 << 62, confirm: true, accept: true}, 0); err != nil {
		t.Fatalf("replay: %v", err)
	}
}

func TestRecordStats(t *testing.T) {
	rec, _ := recordSession(t, runtime.Sequential, 100)
	r, err := recording.NewReader(bytes.NewReader(rec), "test.rec")
	if err != nil {
		t.Fatal(err)
	}
	clock := timing.NewManualClock(0)
	ctx, _ := runtimetest.NewAdapters(clock)
	ctx.Input = nil
	g := &ledgerGame{stopAt: 1 << 62}
	opts := runtimetest.Options(clock, runtime.Sequential)
	opts.Record = runtime.RecordOptions{Reader: r, Hash: g.hash}
	rt, err := runtime.New(g, ctx, opts)
	g.rt = rt
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Run(); err != nil {
		t.Fatal(err)
	}
	// Checkpoints after ticks 6, 13, ..., 97 and after the last, 99: 15.
	if got, want := rt.RecordStats(), (runtime.RecordStats{Replaying: true, Ticks: 100, Checkpoints: 15}); got != want {
		t.Errorf("RecordStats after the replay: %+v, want %+v", got, want)
	}
}
