package query_test

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/inspect/query"
)

func TestTestSource(t *testing.T) {
	src, err := query.TestSource(query.TestSpec{Package: "main", Name: "TestReplayBug438", Game: "newGame()", Recording: "testdata/bug.rec", Ticks: 438, Expect: `Ball.Y > 400`})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "bug_test.go", src, 0); err != nil {
		t.Fatalf("the source does not parse: %v\n%s", err, src)
	}
	for _, want := range []string{"package main", "func TestReplayBug438(t *testing.T)", `frameworktest.NewReplay(newGame(), "testdata/bug.rec")`, "sim.Step(438)", "query.Prepare(\"Ball.Y > 400\""} {
		if !strings.Contains(string(src), want) {
			t.Errorf("source lacks %q:\n%s", want, src)
		}
	}

	_, err = query.TestSource(query.TestSpec{Package: "a b", Name: "Testbug", Expect: "Ball.Y >"})
	for _, want := range []string{"Package \"a b\"", "Name \"Testbug\"", "Game is empty", "Recording is empty", "Ticks is 0", "Expect"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bad spec: error %v, want it to say %q", err, want)
		}
	}
	if _, err := query.TestSource(query.TestSpec{Package: "main", Name: "TestX", Game: "newGame(", Recording: "r", Ticks: 1, Expect: "A.B"}); err == nil || !strings.Contains(err.Error(), "does not make valid Go") {
		t.Errorf("bad game expression: error %v, want it refused", err)
	}
}
