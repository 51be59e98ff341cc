package framework

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/inspect/query"
	"github.com/metronome-go/metronome/runtime"
)

// Questions a replay answers (issue 45 items 6-8): the first tick where a
// condition holds (--where), the ticks and systems that changed one field
// of one entity (--who-wrote), and a test that replays to a tick and
// checks a condition (--write-test). Each replays headless with
// [ReplayVisit]; conditions are package query's language.

// WhereResult is the answer of [FirstWhere].
type WhereResult struct {
	// Found reports that the condition held after update Tick, for the
	// entities in Matches (each with the values of the condition's
	// fields, in the order of Fields).
	Found   bool
	Tick    uint64
	Fields  []string
	Matches []query.Match
	// Ticks is the number of updates replayed.
	Ticks uint64
}

// String is the answer in a few lines.
func (r WhereResult) String() string {
	if !r.Found {
		return fmt.Sprintf("replayed %d ticks: the condition holds after none", r.Ticks)
	}
	var b strings.Builder
	ents := "entities"
	if len(r.Matches) == 1 {
		ents = "entity"
	}
	fmt.Fprintf(&b, "the condition holds first after tick %d (replay with --replay-until %d to stop there), for %d %s", r.Tick, r.Tick+1, len(r.Matches), ents)
	for i, m := range r.Matches {
		if i == ecs.MaxReportedFields {
			fmt.Fprintf(&b, "\n  and %d more", len(r.Matches)-i)
			break
		}
		fmt.Fprintf(&b, "\n  %v:", m.Entity)
		for j, v := range m.Values {
			fmt.Fprintf(&b, " %s=%s", r.Fields[j], v)
		}
	}
	return b.String()
}

// replayAll is the last update of a replay to the recording's end.
const replayAll = math.MaxUint64 - 1

// lastOf turns an Until count (0: no limit) into the last update number.
func lastOf(until uint64) uint64 {
	if until == 0 {
		return replayAll
	}
	return until - 1
}

// FirstWhere replays the recording at path with g (headless, as
// [ReplayVisit]) and returns the first update after which the condition
// expr (package query's language) holds for some entity. until, if not
// 0, stops the replay after update until-1. A syntax error is reported
// before the replay; names and types are checked against the world's
// component types as soon as they are all registered, and an expression
// that never fits them is an error naming what is wrong.
func FirstWhere(g Game, path, expr string, until uint64) (WhereResult, error) {
	e, err := query.Parse(expr)
	if err != nil {
		return WhereResult{}, err
	}
	var res WhereResult
	var cond *query.Cond
	var compileErr error
	err = ReplayVisit(g, path, lastOf(until), nil, func(s *Session, t *runtime.TickContext) error {
		res.Ticks++
		w := s.App.World()
		if cond == nil {
			if cond, compileErr = query.Compile(e, w.ComponentTypes()); cond == nil {
				return nil
			}
			for _, f := range cond.Fields() {
				res.Fields = append(res.Fields, f.Path)
			}
		}
		if m := cond.Eval(w); len(m) > 0 {
			res.Found, res.Tick, res.Matches = true, t.Number, m
			return t.RequestStop()
		}
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("framework: --where: replaying %s: %w", path, err)
	}
	if cond == nil && compileErr != nil {
		return res, compileErr
	}
	return res, nil
}

// Write is one change of a watched field: the update and the system that
// made it, and the values before and after ("(none)" while the entity or
// its component does not exist).
type Write struct {
	Tick     uint64
	Stage    ecs.Stage
	System   string
	Old, New string
}

// WhoWroteResult is the answer of [WhoWrote].
type WhoWroteResult struct {
	Field  string
	Entity ecs.Entity
	// Writes lists every change in order.
	Writes []Write
	// Ticks is the number of updates replayed.
	Ticks uint64
}

// String lists the writes, one a line.
func (r WhoWroteResult) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "replayed %d ticks: %s of entity(%d.%d) changed %d times", r.Ticks, r.Field, r.Entity.ID(), r.Entity.Generation(), len(r.Writes))
	for _, w := range r.Writes {
		fmt.Fprintf(&b, "\n  tick %d, system %q (%v): %s -> %s", w.Tick, w.System, w.Stage, w.Old, w.New)
	}
	return b.String()
}

// WhoWrote replays the recording at path with g (headless, as
// [ReplayVisit]), watching field (Component.Field..., as package query
// names fields) of the entity with the given ID and generation, and
// returns every update and system that changed it, from update from on
// (until, if not 0, stops after update until-1). The field is compared
// after every system of those updates (see [ecs.App.ObserveSystems]); a
// live game never pays for it.
func WhoWrote(g Game, path string, id, gen uint32, field string, from, until uint64) (WhoWroteResult, error) {
	res := WhoWroteResult{Field: field}
	var f *query.Field
	var fieldErr error
	var e ecs.Entity
	found := false
	last := "(none)"
	read := func(w *ecs.World) string {
		if f == nil {
			if f, fieldErr = query.ResolveField(w.ComponentTypes(), field); f == nil {
				return "(none)"
			}
		}
		if !found || !w.Alive(e) {
			if e, found = w.EntityOf(id, gen); !found {
				return "(none)"
			}
		}
		return f.Format(w, e)
	}
	start := func(s *Session) error {
		if from == 0 {
			last = read(s.App.World()) // as the Startup systems left it
		}
		s.App.ObserveSystems(func(st *ecs.SystemStep) {
			if st.Tick < from {
				return
			}
			v := read(s.App.World())
			if v != last {
				res.Writes = append(res.Writes, Write{Tick: st.Tick, Stage: st.Stage, System: st.Name, Old: last, New: v})
				last = v
			}
		})
		return nil
	}
	err := ReplayVisit(g, path, lastOf(until), start, func(s *Session, t *runtime.TickContext) error {
		res.Ticks++
		if t.Number+1 == from {
			last = read(s.App.World()) // the value the watch starts from
		}
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("framework: --who-wrote: replaying %s: %w", path, err)
	}
	if f == nil && fieldErr != nil {
		return res, fieldErr
	}
	if !found {
		return res, fmt.Errorf("framework: --who-wrote: no entity %d.%d lived in the %d ticks replayed", id, gen, res.Ticks)
	}
	res.Entity = e
	return res, nil
}

// WriteTestOptions say what [WriteTest] writes.
type WriteTestOptions struct {
	// Recording is the recording to replay. A recording outside the test
	// file's directory is copied into its testdata directory, so the
	// test travels with the package.
	Recording string
	// Ticks is how many updates the test replays before its check
	// (ticks 0 to Ticks-1); at least 1.
	Ticks uint64
	// Expect is the condition (package query's language) that must hold
	// for some entity after them.
	Expect string
	// File is the test file to write, in the game's package directory;
	// its name must end in _test.go.
	File string
	// Game is the Go expression that returns the game in that package;
	// "" means newGame(), as the templates and examples name it.
	Game string
}

// WriteTestResult says what [WriteTest] wrote.
type WriteTestResult struct {
	File, Recording, Name string
	// Holds reports whether the condition holds now, after the replayed
	// ticks: whether the test passes with the game as it is (a test
	// written for a bug fails until the bug is fixed).
	Holds bool
}

// WriteTest writes a Go test into the package that holds opts.File: it
// replays opts.Recording for opts.Ticks ticks with the public test kit
// (frameworktest.NewReplay) and checks opts.Expect. It first replays the
// recording itself with g, to check the condition against the game's
// component types and to say whether the test passes now
// ([WriteTestResult.Holds]). It refuses to overwrite an existing file,
// and in a browser build, which has no package to write into.
func WriteTest(g Game, opts WriteTestOptions) (WriteTestResult, error) {
	return writeTest(g, opts)
}

// QueryFlags are the flags of a replay's questions.
type QueryFlags struct {
	// Where, with Replay, prints the first tick where the condition
	// holds ([FirstWhere]).
	Where string
	// WhoWrote, with Replay, is "FIELD of entity(ID.GEN)": print the
	// ticks and systems that changed it ([WhoWrote]).
	WhoWrote string
	// WriteTest, with Replay, ReplayUntil and Expect, is a test file to
	// write ([WriteTest]); TestGame is the expression of the game in it.
	WriteTest, Expect, TestGame string
}

// asked reports whether a question flag is set.
func (q QueryFlags) asked() bool { return q.Where != "" || q.WhoWrote != "" || q.WriteTest != "" }

func (f *Flags) registerQuery(fs *flag.FlagSet) {
	fs.StringVar(&f.Query.Where, "where", "", "with --replay: print the first tick after which the `condition` holds for some entity, such as 'Ball.Y > 400 && Ball.VY > 0' (see package inspect/query)")
	fs.StringVar(&f.Query.WhoWrote, "who-wrote", "", "with --replay: print every tick and system that changed one field of one entity, written `'FIELD of entity(ID.GEN)'` as --compare prints it (such as 'Ball.X of entity(3.0)'); --replay-until limits the replay")
	fs.StringVar(&f.Query.WriteTest, "write-test", "", "with --replay, --replay-until N and --expect: write a Go test `file` (name_test.go, in the game's package) that replays the recording for N ticks and checks the condition")
	fs.StringVar(&f.Query.Expect, "expect", "", "with --write-test: the `condition` the test checks after the ticks")
	fs.StringVar(&f.Query.TestGame, "test-game", "newGame()", "with --write-test: the Go `expression` that returns the game in its package")
}

func (f *Flags) validateQuery() error {
	q := f.Query
	var errs []error
	n := 0
	for _, set := range []bool{q.Where != "", q.WhoWrote != "", q.WriteTest != "", f.Compare != ""} {
		if set {
			n++
		}
	}
	if q.asked() && f.Replay == "" {
		errs = append(errs, errors.New("framework: --where, --who-wrote and --write-test go with --replay FILE"))
	}
	if n > 1 {
		errs = append(errs, errors.New("framework: --where, --who-wrote, --write-test and --compare each ask a replay one question: give one"))
	}
	if q.Expect != "" && q.WriteTest == "" {
		errs = append(errs, errors.New("framework: --expect goes with --write-test FILE"))
	}
	return errors.Join(errs...)
}

// parseWatch reads "FIELD of entity(ID.GEN)" (or "FIELD of ID.GEN").
func parseWatch(s string) (field string, id, gen uint32, err error) {
	field, ent, ok := strings.Cut(s, " of ")
	ent = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(ent), "entity("), ")")
	idText, genText, ok2 := strings.Cut(ent, ".")
	id64, err1 := strconv.ParseUint(idText, 10, 32)
	gen64, err2 := strconv.ParseUint(genText, 10, 32)
	if !ok || !ok2 || err1 != nil || err2 != nil || strings.TrimSpace(field) == "" {
		return "", 0, 0, fmt.Errorf("framework: --who-wrote %q: want 'FIELD of entity(ID.GEN)', such as 'Ball.X of entity(3.0)'", s)
	}
	return strings.TrimSpace(field), uint32(id64), uint32(gen64), nil
}
