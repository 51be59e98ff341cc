//go:build !js

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework"
)

// The questions a replay answers work on a match's recording, on the
// command line as in the inspector's page (which calls the same
// functions): --where finds the first tick a ship has fired, --who-wrote
// lists the ticks and systems that changed its reload, --write-test
// writes a test whose check holds (the written test is the test kit's
// replay, which opens a match's recording), and --compare of the two
// peers' recordings of one match finds no difference over the ticks
// both confirmed.
func TestInspectQuestionsOnAMatch(t *testing.T) {
	paths, _ := recordMatch(t, 3*time.Second)
	main := func(args ...string) string {
		t.Helper()
		var out, errs strings.Builder
		if st := framework.MainStatus(newGame(), args, &out, &errs); st != 0 {
			t.Fatalf("%q: status %d\n%s%s", args, st, out.String(), errs.String())
		}
		return out.String()
	}

	w, err := framework.FirstWhere(newGame(), paths[0], "Ship.Reload > 0", 0)
	if err != nil || !w.Found || len(w.Matches) == 0 {
		t.Fatalf("FirstWhere: %+v, %v; want a ship that fired", w, err)
	}
	if out := main("--replay", paths[0], "--where", "Ship.Reload > 0"); !strings.Contains(out, fmt.Sprintf("holds first after tick %d", w.Tick)) {
		t.Errorf("--where printed %q; want tick %d", out, w.Tick)
	}

	e := w.Matches[0].Entity
	ww, err := framework.WhoWrote(newGame(), paths[0], e.ID(), e.Generation(), "Ship.Reload", 0, 0)
	if err != nil || len(ww.Writes) == 0 || ww.Writes[0].Tick != w.Tick {
		t.Fatalf("WhoWrote: %d writes (first %+v), %v; want the first at tick %d", len(ww.Writes), ww.Writes, err, w.Tick)
	}
	field := fmt.Sprintf("Ship.Reload of %v", e)
	if out := main("--replay", paths[0], "--who-wrote", field); !strings.Contains(out, ww.Writes[0].System) {
		t.Errorf("--who-wrote %q printed %q; want the system %q", field, out, ww.Writes[0].System)
	}

	file := filepath.Join(t.TempDir(), "match_test.go")
	wt, err := framework.WriteTest(newGame(), framework.WriteTestOptions{Recording: paths[0], Ticks: 60, Expect: "Ship.Player == 1", File: file})
	if err != nil || !wt.Holds {
		t.Fatalf("WriteTest: %+v, %v; want a test whose check holds", wt, err)
	}
	if src, err := os.ReadFile(file); err != nil || !strings.Contains(string(src), wt.Name) {
		t.Fatalf("the written test %s: %v\n%s", file, err, src)
	}

	c, err := framework.Bisect(newGame(), paths[0], paths[1])
	if err != nil || !c.Same() {
		t.Fatalf("Bisect of the two peers' recordings: %v, %v; want no difference", c, err)
	}
	if out := main("--replay", paths[0], "--compare", paths[1]); !strings.Contains(out, "no difference") {
		t.Errorf("--compare printed %q; want no difference", out)
	}
}
