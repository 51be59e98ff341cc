package apicheck_test

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/metronome-go/metronome/internal/apicheck"
)

const gomod = "module example.com/m\n\ngo 1.26\n"

// released is a module as a release shipped it.
var released = fstest.MapFS{
	"go.mod": {Data: []byte(gomod)},
	"timing/pacer.go": {Data: []byte(`package timing

type PacingPolicy struct{ Interval int64 }

type FramePacer struct{ policy PacingPolicy }

func NewFramePacer(p PacingPolicy) *FramePacer { return &FramePacer{p} }
func (p *FramePacer) Policy() PacingPolicy      { return p.policy }
func (p *FramePacer) Pace()                     {}

type OSWaiter struct{}

func (OSWaiter) Wake() {}

type Context struct{ Display int }

func (*Context) Close() {}

type Stats struct{ Ticks uint64 }

type Telemetry struct{ Frames int }
`)},
	"old/old.go":       {Data: []byte("package old\n\nfunc Gone() {}\n")},
	"cmd/tool/main.go": {Data: []byte("package main\n\nfunc Exported() {}\n")},
	"internal/x/x.go":  {Data: []byte("package x\n\nfunc Hidden() {}\n")},
}

// now is the same module later: Policy, OSWaiter (and so its Wake) and
// package old are gone; Context is an alias of Adapters, and Report
// embeds Stats, whose members it still offers.
var now = fstest.MapFS{
	"go.mod": {Data: []byte(gomod)},
	"timing/pacer.go": {Data: []byte(`package timing

type PacingPolicy struct{ Interval int64 }

type FramePacer struct{ policy PacingPolicy }

func NewFramePacer(p PacingPolicy) *FramePacer { return &FramePacer{p} }
func (p *FramePacer) Pace()                     {}

type Adapters struct{ Display int }

func (*Adapters) Close() {}

// Deprecated: use Adapters.
type Context = Adapters

type Stats = struct{ Ticks uint64 }

type Telemetry struct{ *Window }

type Window struct{ Frames int }
`)},
}

func baseline(t *testing.T) []apicheck.Line {
	t.Helper()
	api, err := apicheck.Extract(released)
	if err != nil {
		t.Fatal(err)
	}
	return api.Lines
}

func TestExtract(t *testing.T) {
	var got []string
	for _, l := range baseline(t) {
		got = append(got, l.Name+" | "+l.Text)
	}
	want := []string{
		"old.Gone | pkg old, func Gone()",
		"timing.NewFramePacer | pkg timing, func NewFramePacer(PacingPolicy) *FramePacer",
		"timing.Context.Close | pkg timing, method (*Context) Close()",
		"timing.FramePacer.Pace | pkg timing, method (*FramePacer) Pace()",
		"timing.FramePacer.Policy | pkg timing, method (*FramePacer) Policy() PacingPolicy",
		"timing.OSWaiter.Wake | pkg timing, method (OSWaiter) Wake()",
		"timing.Context | pkg timing, type Context struct",
		"timing.Context.Display | pkg timing, type Context struct, Display int",
		"timing.FramePacer | pkg timing, type FramePacer struct",
		"timing.OSWaiter | pkg timing, type OSWaiter struct",
		"timing.PacingPolicy | pkg timing, type PacingPolicy struct",
		"timing.PacingPolicy.Interval | pkg timing, type PacingPolicy struct, Interval int64",
		"timing.Stats | pkg timing, type Stats struct",
		"timing.Stats.Ticks | pkg timing, type Stats struct, Ticks uint64",
		"timing.Telemetry | pkg timing, type Telemetry struct",
		"timing.Telemetry.Frames | pkg timing, type Telemetry struct, Frames int",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestBaselineRoundTrip: an API file reads back to the same names, over
// the whole of this module's API.
func TestBaselineRoundTrip(t *testing.T) {
	api, err := apicheck.Extract(os.DirFS("../.."))
	if err != nil {
		t.Fatal(err)
	}
	if len(api.Lines) < 1000 {
		t.Fatalf("got %d names in this module, want over 1000", len(api.Lines))
	}
	var buf bytes.Buffer
	b := apicheck.Baseline{Ref: "v9.9.9", Release: "ninth version", Lines: api.Lines}
	if _, err := b.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := apicheck.ReadBaseline(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if back.Ref != b.Ref || back.Release != b.Release || len(back.Lines) != len(b.Lines) {
		t.Fatalf("got %q %q with %d lines, want %q %q with %d", back.Ref, back.Release, len(back.Lines), b.Ref, b.Release, len(b.Lines))
	}
	for i, l := range back.Lines {
		if l != b.Lines[i] {
			t.Errorf("line %d: got name %q, want %q (%s)", i, l.Name, b.Lines[i].Name, l.Text)
		}
	}
}

func TestRemoved(t *testing.T) {
	cur, err := apicheck.Extract(now)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range apicheck.Removed(baseline(t), cur) {
		got = append(got, r.Line.Name)
	}
	// Context's members come through its alias, Telemetry's field from
	// the type it embeds; OSWaiter.Wake goes with
	// its type and cmd/ and internal/ are no API. Stats is an alias of a
	// struct literal, which this check does not look into, so its field
	// counts as gone.
	want := []string{"old", "timing.FramePacer.Policy", "timing.OSWaiter", "timing.Stats.Ticks"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got removed %q, want %q", got, want)
	}
}

const changelogHead = "# Changelog\n\n## Unreleased (fourth version)\n\n"
const changelogTail = "\n## Unreleased (third version)\n\n- timing: `FramePacer.Policy` is gone. Adapt: keep the policy.\n"

// TestRemovedNameWithoutAdaptLine: a name gone since the release fails the
// check unless an entry of a later release names it in an Adapt line.
func TestRemovedNameWithoutAdaptLine(t *testing.T) {
	cur, err := apicheck.Extract(now)
	if err != nil {
		t.Fatal(err)
	}
	removed := apicheck.Removed(baseline(t), cur)
	tests := []struct {
		name  string
		log   string
		names []string // the names the report must list
	}{
		{"no entry", "", []string{"old", "timing.FramePacer.Policy", "timing.OSWaiter", "timing.Stats.Ticks"}},
		{"an entry that is no Adapt line",
			"- timing: `FramePacer.Policy`, `timing.OSWaiter`, `old` and `Stats.Ticks` are gone.\n",
			[]string{"old", "timing.FramePacer.Policy", "timing.OSWaiter", "timing.Stats.Ticks"}},
		{"unqualified names",
			"- timing: `Policy`, `OSWaiter` and `Ticks` are gone. **Adapt:** write nothing.\n",
			[]string{"old", "timing.FramePacer.Policy", "timing.OSWaiter", "timing.Stats.Ticks"}},
		{"two entries, one with the Adapt line",
			"- timing: `timing.OSWaiter` is gone.\n\n- `old` is gone. **Adapt:** import `new`\n  instead; `Stats.Ticks` is `Stats.Count` and\n  `timing.FramePacer.Policy` gone.\n",
			[]string{"timing.OSWaiter"}},
		{"all named", "- `old`, `timing.OSWaiter`, `FramePacer.Policy`, `timing.Stats.Ticks`: gone.\n  Adapt: see above.\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := apicheck.ReadChangelog([]byte(changelogHead+tt.log+changelogTail), "third version")
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			n := apicheck.Report(&out, removed, a, "api/v0.3.0.txt")
			if n != len(tt.names) {
				t.Errorf("got %d unadapted names, want %d:\n%s", n, len(tt.names), out.String())
			}
			for _, name := range tt.names {
				if !strings.Contains(out.String(), "  "+name+" ") {
					t.Errorf("the report does not list %s:\n%s", name, out.String())
				}
			}
			if n > 0 && (!strings.Contains(out.String(), "//go:fix inline") || !strings.Contains(out.String(), "Adapt:")) {
				t.Errorf("the report does not say what to do:\n%s", out.String())
			}
		})
	}
}

func TestChangelogWithoutTheRelease(t *testing.T) {
	_, err := apicheck.ReadChangelog([]byte(changelogHead), "third version")
	if err == nil || !strings.Contains(err.Error(), "third version") {
		t.Errorf("got %v, want an error naming the third version", err)
	}
}

func TestReadBaselineErrors(t *testing.T) {
	for _, tt := range []struct{ file, want string }{
		{"pkg timing, func F()\n", "header"},
		{"# ref: v1.0.0\n# release: first version\npkg timing, frob F\n", "line 3"},
	} {
		if _, err := apicheck.ReadBaseline(strings.NewReader(tt.file)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadBaseline(%q): got %v, want an error containing %q", tt.file, err, tt.want)
		}
	}
}

// TestDocLeaks: an exported name's doc that names an unexported identifier
// (as PaceWaitLimit's named maxEarlyWakes) is listed; the same word in
// another sense is not.
func TestDocLeaks(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod": {Data: []byte(gomod)},
		"timing/pacer.go": {Data: []byte(`package timing

const maxEarlyWakes = 8

type osWaiter struct{}

func render() {}

const (
	// PaceWaitLimit: the wait returned early maxEarlyWakes times.
	PaceWaitLimit = 1
	// PaceLate: eight early wakes.
	PaceLate = 2
)

// Wake ends a wait of an [osWaiter]; the [render] table is TOML.
func Wake() {}
`)},
	}
	leaks, err := apicheck.DocLeaks(fsys)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range leaks {
		got = append(got, l.String())
	}
	want := []string{
		"timing.PaceWaitLimit: its doc comment names maxEarlyWakes, which is unexported",
		"timing.Wake: its doc comment names osWaiter, which is unexported",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
