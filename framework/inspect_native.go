//go:build !js

package framework

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os/signal"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/work"
)

// The time-travel debugger's entry (--replay FILE --inspect ADDR): the
// replay runs once headless, keeping keyframes, then package inspect
// serves its page and JSON API over it until the process is stopped.
// Browser builds leave this file out (inspect_js.go): package inspect
// is an HTTP server, and linking it put net/http and crypto/tls in
// every page's module though a page cannot listen.

// InspectReplay replays the recording at path with g, headless, as
// [Replay] does (checking every world hash), and returns the seek engine
// over it, at the last tick. A match's recording is refused: its ticks
// run the match's players, which the engine does not run again yet.
func InspectReplay(g Game, path string, opts inspect.Options) (*inspect.Replay, error) {
	sess, rtOpts, r, err := newReplaySession(g, path, ReplayOptions{})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if r.Header().Net != nil {
		return nil, fmt.Errorf("framework: --inspect: %s is a networked match's recording; the inspector opens a solo session's only", path)
	}
	ctx := sess.headless(&rtOpts)
	if rtOpts.Actions == nil {
		rtOpts.Actions = input.NewActions()
	}
	var rep *inspect.Replay
	hook := &tickHook{Session: sess, after: func(s *Session, t *runtime.TickContext) error {
		if rep == nil {
			var err error
			if rep, err = inspect.NewReplay(s.App, s.Update, rtOpts.Actions, opts); err != nil {
				return err
			}
		}
		return rep.Observe(t)
	}}
	rt, err := runtime.New(firstPass{hook}, ctx, rtOpts)
	if err != nil {
		return nil, errors.Join(err, ctx.Close())
	}
	sess.Bind(rt)
	if err := rt.Run(); err != nil {
		return nil, fmt.Errorf("framework: --inspect: replaying %s: %w", path, err)
	}
	if rep == nil {
		return nil, fmt.Errorf("framework: --inspect: %s holds no tick", path)
	}
	if err := rep.Finish(); err != nil {
		return nil, fmt.Errorf("framework: --inspect: %s: %w", path, err)
	}
	return rep, nil
}

// InspectLive follows the session live is recording (a game run with
// RunOptions.RecordTo set to live): it replays the recording as it
// grows, headless, checking every world hash, and fills the Replay that
// live serves ([inspect.ListenLive]), with keyframes as it goes, while
// a page asks (see [inspect.Live]). Call it on a goroutine of its own,
// beside the game's: it returns once the recording ends (live.Close),
// or with what stopped it early.
//
// The follower replays on a background worker (work.Options.Background:
// a thread of its own in the kernel's idle class, with a Go processor of
// its own), so on a machine with few busy cores it takes the time the
// game leaves, never the game's: at the same priority its replay cost
// the game's tick as much again.
func InspectLive(g Game, live *inspect.Live, opts inspect.Options) error {
	refuse := func(func()) error { return work.ErrClosed } // the follower hands nothing over
	ws, err := work.NewSession(work.Options{Workers: 1, Background: true}, refuse, refuse, nil)
	if err != nil {
		return fmt.Errorf("framework: --inspect: %w", err)
	}
	defer ws.Pool().Close()
	done := make(chan error, 1)
	err = ws.Group("inspect").Submit(work.JobFunc(func(context.Context) {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("framework: --inspect: the follower panicked: %v", p)
			}
		}()
		done <- followLive(g, live, opts)
	}))
	if err != nil {
		return fmt.Errorf("framework: --inspect: %w", err)
	}
	return <-done
}

// followLive is InspectLive's follower, on its worker.
func followLive(g Game, live *inspect.Live, opts inspect.Options) (err error) {
	live.Follow()
	defer func() { live.Stop(err) }()
	r, err := recording.NewReader(live.Reader(), "the live session")
	if err != nil {
		return fmt.Errorf("framework: --inspect: %w", err)
	}
	sess, rtOpts, r, err := replaySessionOf(g, r, "the live session", ReplayOptions{})
	if err != nil {
		return err
	}
	if r.Header().Net != nil {
		return errors.New("framework: --inspect: the live session is a networked match's; the inspector follows a solo session's")
	}
	ctx := sess.headless(&rtOpts)
	if rtOpts.Actions == nil {
		rtOpts.Actions = input.NewActions()
	}
	var rep *inspect.Replay
	hook := &tickHook{Session: sess, before: live.Yield, after: func(s *Session, t *runtime.TickContext) error {
		if rep == nil {
			var err error
			if rep, err = inspect.NewReplay(s.App, s.Update, rtOpts.Actions, opts); err != nil {
				return err
			}
			live.Attach(rep)
		}
		return rep.Observe(t)
	}}
	rt, err := runtime.New(firstPass{hook}, ctx, rtOpts)
	if err != nil {
		return errors.Join(err, ctx.Close())
	}
	sess.Bind(rt)
	if err := rt.Run(); err != nil {
		return fmt.Errorf("framework: --inspect: following the live session: %w", err)
	}
	if rep == nil {
		return errors.New("framework: --inspect: the live session ran no tick")
	}
	return nil
}

// firstPass is the inspector's replay of a session, which draws
// nothing: the page prepares the frame of the tick it shows when it asks
// for it, as a seek runs ticks without frames, so preparing every tick's
// frame here (about half a live follower's work, which it took from the
// game beside it) is left out.
type firstPass struct{ *tickHook }

// PrepareFrame leaves the frame empty.
func (firstPass) PrepareFrame(*render2d.FrameWriter) error { return nil }

// InspectAnalysis answers the inspector page's questions about the
// recording at path for g, each by replaying it headless again: who wrote
// a field ([WhoWrote]), the first tick where a condition holds
// ([FirstWhere]), a test written into the working directory (the game's
// package under go run .; [WriteTest] with the game as newGame()), and,
// when compare is not "", where that recording parts from path
// ([Bisect]).
func InspectAnalysis(g Game, path, compare string) inspect.Analysis {
	return InspectAnalysisBuilds(g, g, path, compare)
}

// InspectAnalysisBuilds is [InspectAnalysis] where the compare recording
// was made by another build of the game, gb, replayed with it as
// [BisectBuilds] does: the page then names the system whose code differs.
func InspectAnalysisBuilds(g, gb Game, path, compare string) inspect.Analysis {
	a := inspect.Analysis{
		WhoWrote: func(id, gen uint32, field string, from, until uint64) (inspect.WhoWroteAnswer, error) {
			r, err := WhoWrote(g, path, id, gen, field, from, until)
			if err != nil {
				return inspect.WhoWroteAnswer{}, err
			}
			ans := inspect.WhoWroteAnswer{Field: r.Field, ID: id, Gen: gen, Ticks: r.Ticks, Writes: []inspect.FieldWrite{}}
			for _, w := range r.Writes {
				ans.Writes = append(ans.Writes, inspect.FieldWrite{Tick: w.Tick, Stage: w.Stage.String(), System: w.System, Old: w.Old, New: w.New})
			}
			return ans, nil
		},
		Where: func(expr string, until uint64) (inspect.WhereAnswer, error) {
			r, err := FirstWhere(g, path, expr, until)
			if err != nil {
				return inspect.WhereAnswer{}, err
			}
			ans := inspect.WhereAnswer{Found: r.Found, Tick: r.Tick, Fields: r.Fields, Ticks: r.Ticks, Matches: []inspect.EntityValues{}}
			for _, m := range r.Matches {
				ans.Matches = append(ans.Matches, inspect.EntityValues{Entity: m.Entity.String(), ID: m.Entity.ID(), Gen: m.Entity.Generation(), Values: m.Values})
			}
			return ans, nil
		},
		WriteTest: func(file string, ticks uint64, expect string) (inspect.WrittenTest, error) {
			r, err := WriteTest(g, WriteTestOptions{Recording: path, Ticks: ticks, Expect: expect, File: file})
			if err != nil {
				return inspect.WrittenTest{}, err
			}
			return inspect.WrittenTest{File: r.File, Recording: r.Recording, Name: r.Name, Holds: r.Holds}, nil
		},
	}
	if compare != "" {
		a.CompareName = compare
		a.Compare = func() (inspect.CompareAnswer, error) {
			r, err := BisectBuilds(g, gb, path, compare)
			if err != nil {
				return inspect.CompareAnswer{}, err
			}
			return compareAnswer(r), nil
		}
	}
	return a
}

// compareAnswer is r in the inspector's JSON form.
func compareAnswer(r CompareResult) inspect.CompareAnswer {
	diffs := func(fs []ecs.FieldDiff) []inspect.FieldDifference {
		out := []inspect.FieldDifference{}
		for _, f := range fs {
			out = append(out, inspect.FieldDifference{Type: f.Type, Entity: f.Entity.String(), ID: f.Entity.ID(), Gen: f.Entity.Generation(), Field: f.Field})
		}
		return out
	}
	ans := inspect.CompareAnswer{Same: r.Same(), InputDiffers: r.InputDiffers, InputTick: r.InputTick, HashDiffers: r.HashDiffers,
		HashTick: r.HashTick, TicksA: r.TicksA, TicksB: r.TicksB, HasTick: r.HasTick, Tick: r.Tick, Fields: diffs(r.Fields),
		HasSystem: r.HasSystem, System: r.System, SystemFields: diffs(r.SystemFields), Text: r.String()}
	if r.HasSystem {
		ans.Stage = r.Stage.String()
	}
	return ans
}

// inspectMain runs --replay FILE --inspect ADDR: it replays, serves, and
// returns the exit status when a signal stops it.
func inspectMain(g Game, f *Flags, stdout, stderr io.Writer) int {
	rep, err := InspectReplay(g, f.Replay, inspect.Options{})
	if err != nil {
		printFailure(stderr, err)
		return ReplayStatus(err)
	}
	srv, err := inspect.Listen(rep, f.Inspect, inspect.ServerOptions{Remote: f.InspectRemote, Name: f.Replay,
		Analysis: InspectAnalysis(g, f.Replay, f.Compare)})
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", programName(), err)
		return StatusFailed
	}
	m := rep.Memory()
	fmt.Fprintf(stdout, "%s: inspecting %s: %d ticks, %d keyframes (%d KiB)\n%s: open %s (Ctrl+C stops)\n",
		programName(), f.Replay, rep.Ticks(), m.Keyframes, m.KeyframeBytes/1024, programName(), srv.URL())
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	<-ctx.Done()
	if err := srv.Close(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", programName(), err)
		return StatusFailed
	}
	return 0
}

// inspectLiveMain runs the game with --inspect ADDR and no --replay: the
// game plays as it would, recording into memory as well, while a
// follower replays that recording for the page. After the game ends the
// page goes on serving its whole session until a stop signal.
func inspectLiveMain(g Game, cfg config.Config, opts RunOptions, f *Flags) int {
	stdout, stderr := opts.Stdout, opts.Stderr
	live := inspect.NewLive()
	opts.RecordTo = live
	srv, err := inspect.ListenLive(live, f.Inspect, inspect.ServerOptions{Remote: f.InspectRemote, Name: cmp.Or(f.Record, "live session")})
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", programName(), err)
		return StatusFailed
	}
	fmt.Fprintf(stdout, "%s: inspecting the game as it plays: open %s\n", programName(), srv.URL())
	followed := make(chan error, 1)
	go func() { followed <- InspectLive(g, live, inspect.Options{}) }()
	err = Run(g, cfg, opts)
	live.Close()
	ferr := <-followed
	status := 0
	if err != nil {
		printFailure(stderr, err)
		status = matchStatus(err)
	}
	if ferr != nil && err == nil { // a session that failed early has no recording to follow
		fmt.Fprintf(stderr, "%s: %v\n", programName(), ferr)
		status = cmp.Or(status, StatusFailed)
	}
	if ferr == nil {
		fmt.Fprintf(stdout, "%s: the game ended; %s still shows its session (Ctrl+C stops)\n", programName(), srv.URL())
		ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
		<-ctx.Done()
		stop()
	}
	if err := srv.Close(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", programName(), err)
		status = cmp.Or(status, StatusFailed)
	}
	return status
}
