//go:build !js || metronome_inspect

package framework

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
)

// The time-travel debugger's replay (--replay FILE --inspect ADDR), for
// the native server (inspect_native.go) and for the page build that
// cmd/webgame makes with the metronome_inspect tag (inspect_page_js.go):
// the replay runs once headless, keeping keyframes, and package inspect
// answers the page's questions over it. A game's ordinary page build
// leaves this file out: package inspect links net/http, which a game's
// page does without.

// InspectReplay replays the recording at path with g, headless, as
// [Replay] does (checking every world hash), and returns the seek engine
// over it, at the last tick. A match's recording opens as well: its
// ticks are the match's confirmed ticks, each run with every player's
// confirmed input, which the engine keeps for its seeks, and its
// timeline shows the match's net figures.
func InspectReplay(g Game, path string, opts inspect.Options) (*inspect.Replay, error) {
	sess, rtOpts, r, err := newReplaySession(g, path, ReplayOptions{})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	match, step := matchStep(sess, r)
	ctx := sess.headless(&rtOpts)
	sounds := tapSounds(sess)
	if rtOpts.Actions == nil {
		rtOpts.Actions = input.NewActions()
	}
	var rep *inspect.Replay
	hook := &tickHook{Session: sess, after: func(s *Session, t *runtime.TickContext) error {
		if rep == nil {
			var err error
			if rep, err = inspect.NewReplay(s.App, step, rtOpts.Actions, opts); err != nil {
				return err
			}
			rep.TakeSounds(sounds)
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
	figs, err := readFigures(path)
	if err != nil {
		return nil, fmt.Errorf("framework: --inspect: %w", err)
	}
	rep.SetFigures(figs)
	return rep, nil
}

// tapSounds taps the silent player of the inspector's replay session,
// whose Audio resource windowless made, so that the timeline shows the
// sounds each tick asked for. Only the inspector's own session is
// tapped: the game it follows plays as it did.
func tapSounds(s *Session) *inspect.Sounds {
	sounds := inspect.NewSounds()
	if a := ecs.GetResource[ecs.Audio](s.App.World()); a != nil {
		a.Player = a.Player.Tapped(sounds.Tap)
	}
	return sounds
}

// matchInputs are a match recording's confirmed inputs by tick, for the
// inspector's seeks, which run ticks again after the replay has read
// the whole recording: the first pass keeps each tick's (only those that
// differ from the tick before's: a player's input changes a few times a
// second), and before a seek runs tick n again, put hands them back to
// the reader's current tick, which the match's playback fills the
// players from (rollback.Playback.Fill) and counts its ticks by.
type matchInputs struct {
	cur   *recording.Tick
	width int
	at    []uint64      // ticks whose inputs differ from the tick before's, ascending
	in    []input.Stats // width a tick of at
	// The live follower's tick under way while a page seeks (hold).
	held   []input.Stats
	heldAt uint64
}

// matchStep returns the inspector's step over sess, replaying r: for a
// match's recording, with the matchInputs it keeps (put before each tick
// the step runs again); nil and sess.Update for a solo session's.
func matchStep(sess *Session, r *recording.Reader) (*matchInputs, inspect.StepFunc) {
	n := r.Header().Net
	if n == nil {
		return nil, sess.Update
	}
	m := &matchInputs{cur: r.Current(), width: n.Players * n.Actions}
	return m, func(t *runtime.TickContext) error {
		m.put(t.Number)
		return sess.Update(t)
	}
}

// keep notes tick n's inputs, which the replay has just run.
func (m *matchInputs) keep(n uint64) error {
	if m.cur.Update.Number != n || len(m.cur.Players) != m.width {
		return fmt.Errorf("framework: --inspect: the match's tick %d ran with the recording at tick %d", n, m.cur.Update.Number)
	}
	if k := len(m.at); k == 0 || !slices.Equal(m.in[(k-1)*m.width:], m.cur.Players) {
		m.at = append(m.at, n)
		m.in = append(m.in, m.cur.Players...)
	}
	return nil
}

// hold keeps the reader's current tick, which the live follower is
// about to run, while the page's seeks put other ticks' inputs there;
// restore gives it back.
func (m *matchInputs) hold() {
	m.held = append(m.held[:0], m.cur.Players...)
	m.heldAt = m.cur.Update.Number
}

func (m *matchInputs) restore() {
	copy(m.cur.Players, m.held)
	m.cur.Update.Number = m.heldAt
}

// put makes tick n's inputs the reader's current tick's.
func (m *matchInputs) put(n uint64) {
	i := max(0, sort.Search(len(m.at), func(i int) bool { return m.at[i] > n })-1)
	if len(m.at) > 0 {
		copy(m.cur.Players, m.in[i*m.width:(i+1)*m.width])
	}
	m.cur.Update.Number = n
}

// readFigures reads the presents and net figures the recording at path
// keeps for the timeline: one more pass that only decodes, a few
// milliseconds over a long session.
func readFigures(path string) (inspect.Figures, error) {
	r, err := recording.Open(path)
	if err != nil {
		return inspect.Figures{}, err
	}
	defer r.Close()
	return inspect.ReadFigures(r)
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
