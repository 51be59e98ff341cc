//go:build !js

package query

import (
	"bytes"
	"fmt"
	"go/format"
	"strconv"
	"text/template"
)

// testText is the test TestSource writes.
const testText = `// Written by --write-test from {{.Recording}}; edit it freely.

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
`

// TestSource returns the Go source of the test s describes, gofmt'ed.
func TestSource(s TestSpec) ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	tmpl, err := template.New("test").Parse(testText)
	if err != nil {
		return nil, fmt.Errorf("query: TestSource: %w", err)
	}
	var b bytes.Buffer
	err = tmpl.Execute(&b, struct {
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
