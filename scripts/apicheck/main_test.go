package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRemovedNameFails: the check fails on a name of the release that the
// tree lost with no Adapt line, names it and says what to do, and passes
// once the changelog has the Adapt line or a deprecated wrapper brings the
// name back.
func TestRemovedNameFails(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"api/v0.1.0.txt": "# ref: v0.1.0\n# release: first version\n" +
			"pkg timing, func NewFramePacer(int) int\npkg timing, func Now() int\n",
		"timing/timing.go": "package timing\n\n// Pacer is the new name.\nfunc Pacer(int) int { return 0 }\n\nfunc Now() int { return 0 }\n",
		"CHANGELOG.md":     "# Changelog\n\n## Unreleased (second version)\n\n- timing: `timing.Pacer` is new.\n\n## First version\n",
	})
	var out, errs bytes.Buffer
	if code := run([]string{"-root", dir}, &out, &errs); code != 1 {
		t.Fatalf("run: got exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out.String(), errs.String())
	}
	for _, want := range []string{"timing.NewFramePacer", "pkg timing, func NewFramePacer(int) int", "//go:fix inline", "Adapt:", "first version"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report does not say %q:\n%s", want, out.String())
		}
	}

	// A deprecated wrapper keeps the name.
	write(t, dir, map[string]string{"timing/wrapper.go": "package timing\n\n// Deprecated: use Pacer.\n//\n//go:fix inline\nfunc NewFramePacer(n int) int { return Pacer(n) }\n"})
	out.Reset()
	if code := run([]string{"-root", dir}, &out, &errs); code != 0 {
		t.Fatalf("with the wrapper: got exit %d, want 0\n%s%s", code, out.String(), errs.String())
	}

	// So does an Adapt line.
	if err := os.Remove(filepath.Join(dir, "timing/wrapper.go")); err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{"CHANGELOG.md": "# Changelog\n\n## Unreleased (second version)\n\n" +
		"- timing: `timing.NewFramePacer` is `timing.Pacer`.\n  **Adapt:** rename the call.\n\n## First version\n"})
	out.Reset()
	if code := run([]string{"-root", dir}, &out, &errs); code != 0 {
		t.Fatalf("with the Adapt line: got exit %d, want 0\n%s%s", code, out.String(), errs.String())
	}
}

// TestThisTree: the tree keeps every name of its last release or says how
// to adapt (scripts/test.sh runs the same check).
func TestThisTree(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"-root", "../.."}, &out, &errs); code != 0 {
		t.Fatalf("got exit %d\n%s%s", code, out.String(), errs.String())
	}
}
