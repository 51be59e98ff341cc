//go:build !js

package framework

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/signal"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/runtime"
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
	rt, err := runtime.New(hook, ctx, rtOpts)
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

// inspectMain runs --replay FILE --inspect ADDR: it replays, serves, and
// returns the exit status when a signal stops it.
func inspectMain(g Game, f *Flags, stdout, stderr io.Writer) int {
	rep, err := InspectReplay(g, f.Replay, inspect.Options{})
	if err != nil {
		printFailure(stderr, err)
		return ReplayStatus(err)
	}
	srv, err := inspect.Listen(rep, f.Inspect, inspect.ServerOptions{Remote: f.InspectRemote, Name: f.Replay})
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
