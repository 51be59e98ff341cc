//go:build !js

package framework

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os/signal"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/work"
)

// The native inspector: inspectMain serves the replay of
// inspect_replay.go over HTTP, and a live game is followed as it plays.

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
	// A match's recording holds its confirmed ticks, written as the
	// rollback window passes them: the follower trails the match's live
	// tick by that window, and a page's seek runs ticks again with the
	// inputs the follower kept (matchInputs), the tick it was about to
	// run held meanwhile.
	match, step := matchStep(sess, r)
	yield := live.Yield
	if match != nil {
		yield = func() error {
			match.hold()
			defer match.restore()
			return live.Yield()
		}
	}
	ctx := sess.headless(&rtOpts)
	sounds := tapSounds(sess)
	if rtOpts.Actions == nil {
		rtOpts.Actions = input.NewActions()
	}
	var rep *inspect.Replay
	hook := &tickHook{Session: sess, before: yield, after: func(s *Session, t *runtime.TickContext) error {
		if rep == nil {
			var err error
			if rep, err = inspect.NewReplay(s.App, step, rtOpts.Actions, opts); err != nil {
				return err
			}
			rep.TakeSounds(sounds)
			live.Attach(rep)
		}
		if match != nil {
			if err := match.keep(t.Number); err != nil {
				return err
			}
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
// follower replays that recording for the page. A match (--host, --join,
// --spectate, --lobby) records its confirmed ticks, so its page trails
// the match by the rollback window. After the game ends the page goes on
// serving its whole session until a stop signal.
func inspectLiveMain(g Game, cfg config.Config, opts RunOptions, f *Flags) int {
	stdout, stderr := opts.Stdout, opts.Stderr
	live := inspect.NewLive()
	opts.RecordTo = live
	// The page's presents row: the live game's counters, read as its
	// recording hands chunks over (atomics: nothing of the tick's). A
	// match's recording counts confirmed ticks, not the game's updates,
	// which these counters count: its page has no presents row.
	if started := opts.Started; opts.Match == nil {
		opts.Started = func(rt *runtime.GameRuntime) error {
			live.Watch(rt.Stats)
			if started != nil {
				return started(rt)
			}
			return nil
		}
	}
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
