//go:build !js || metronome_inspect

package framework

import (
	"fmt"
	"io"
)

// A replay's questions from the command line: --compare, and --where,
// --who-wrote and --write-test. A game's page leaves them out
// (replayask_js.go): each replays a recording headless to answer, which
// links the bisection, the query language and their reflection into a
// module whose player only plays and records.

// compareMain runs --replay A --compare B and returns the exit status: 0
// when the recordings agree, 1 when they differ or cannot be read. With a
// game (g has a Setup) it bisects by replay ([Bisect]).
func compareMain(g Game, f *Flags, stdout, stderr io.Writer) int {
	compare := func() (CompareResult, error) { return Compare(f.Replay, f.Compare) }
	if g.Setup != nil {
		compare = func() (CompareResult, error) { return Bisect(g, f.Replay, f.Compare) }
	}
	res, err := compare()
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", programName(), err)
		return 1
	}
	fmt.Fprintln(stdout, res)
	if !res.Same() {
		return 1
	}
	return 0
}

// queryMain answers the replay's question and returns the exit status:
// 0 when answered (for --where, when the condition held), 1 otherwise.
func queryMain(g Game, f *Flags, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "%s: %v\n", programName(), err)
		return 1
	}
	q := f.Query
	switch {
	case q.Where != "":
		res, err := FirstWhere(g, f.Replay, q.Where, f.ReplayUntil)
		if err != nil {
			return fail(err)
		}
		fmt.Fprintln(stdout, res)
		if !res.Found {
			return 1
		}
	case q.WhoWrote != "":
		field, id, gen, err := parseWatch(q.WhoWrote)
		if err != nil {
			return fail(err)
		}
		res, err := WhoWrote(g, f.Replay, id, gen, field, 0, f.ReplayUntil)
		if err != nil {
			return fail(err)
		}
		fmt.Fprintln(stdout, res)
	case q.WriteTest != "":
		res, err := WriteTest(g, WriteTestOptions{Recording: f.Replay, Ticks: f.ReplayUntil, Expect: q.Expect, File: q.WriteTest, Game: q.TestGame})
		if err != nil {
			return fail(err)
		}
		now := "passes now"
		if !res.Holds {
			now = "fails now: the condition does not hold yet"
		}
		fmt.Fprintf(stdout, "wrote %s (%s replays %s); it %s\n", res.File, res.Name, res.Recording, now)
	}
	return 0
}
