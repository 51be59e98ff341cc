package query

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"go/token"
	"strconv"
	"text/template"
	"unicode"
)

// TestSpec describes a Go test that replays a recording to a tick and
// checks a condition there: what [TestSource] writes.
type TestSpec struct {
	// Package is the package clause of the test file (the game's
	// package, "main" for most games).
	Package string
	// Name is the test function's name; it must start with Test.
	Name string
	// Game is a Go expression, valid in the package, that returns the
	// game's framework.Game ("newGame()" in the templates and examples).
	Game string
	// Recording is the recording's path, relative to the package
	// directory (go test runs there).
	Recording string
	// Ticks is how many updates run before the check: ticks 0 to
	// Ticks-1, as --replay-until counts them. At least 1.
	Ticks uint64
	// Expect is the condition that must hold for some entity after them.
	Expect string
}

// Validate reports every field of s that cannot make a test, at once.
func (s TestSpec) Validate() error {
	var errs []error
	if !token.IsIdentifier(s.Package) {
		errs = append(errs, fmt.Errorf("query: TestSpec.Package %q is not a Go identifier", s.Package))
	}
	if !token.IsIdentifier(s.Name) || len(s.Name) < 4 || s.Name[:4] != "Test" || (len(s.Name) > 4 && unicode.IsLower(rune(s.Name[4]))) {
		errs = append(errs, fmt.Errorf("query: TestSpec.Name %q: want a Go test name, Test followed by an upper-case letter or nothing", s.Name))
	}
	if s.Game == "" {
		errs = append(errs, fmt.Errorf("query: TestSpec.Game is empty: want a Go expression that returns the game, such as newGame()"))
	}
	if s.Recording == "" {
		errs = append(errs, fmt.Errorf("query: TestSpec.Recording is empty: want the recording's path from the package directory"))
	}
	if s.Ticks < 1 {
		errs = append(errs, fmt.Errorf("query: TestSpec.Ticks is 0: want at least 1 update to replay"))
	}
	if _, err := Parse(s.Expect); err != nil {
		errs = append(errs, fmt.Errorf("query: TestSpec.Expect: %w", err))
	}
	return errors.Join(errs...)
}

var testTemplate = template.Must(template.New("test").Parse(`// Written by --write-test from {{.Recording}}; edit it freely.

package {{.Package}}

import (
	"testing"

	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/inspect/query"
)

// {{.Name}} replays {{.Recording}} for {{.Ticks}} ticks (0 to {{.Last}})
// and checks that some entity then has {{.Expect}}.
func {{.Name}}(t *testing.T) {
	sim, err := frameworktest.NewReplay({{.Game}}, {{.RecordingLit}})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	if err := sim.Step({{.Ticks}}); err != nil {
		t.Fatal(err)
	}
	w := sim.App.World()
	cond, err := query.Prepare({{.ExpectLit}}, w.ComponentTypes())
	if err != nil {
		t.Fatal(err)
	}
	if len(cond.Eval(w)) == 0 {
		t.Errorf("after tick {{.Last}} of {{.Recording}}, no entity has %s", cond)
	}
}
`))

// TestSource returns the Go source of the test s describes, gofmt'ed.
func TestSource(s TestSpec) ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err := testTemplate.Execute(&b, struct {
		TestSpec
		Last                    uint64
		RecordingLit, ExpectLit string
	}{s, s.Ticks - 1, strconv.Quote(s.Recording), strconv.Quote(s.Expect)})
	if err != nil {
		return nil, fmt.Errorf("query: TestSource: %w", err)
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("query: TestSource: the game expression %q does not make valid Go: %w", s.Game, err)
	}
	return src, nil
}
