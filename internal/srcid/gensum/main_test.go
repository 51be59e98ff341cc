package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gensum run at the module's root writes the file the package holds, and
// says so; run again it leaves the file as it is.
func TestWritesTheCommittedFile(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	out := filepath.Join(t.TempDir(), "frameworksum.go")
	var stdout, stderr strings.Builder
	if code := run([]string{"-root", root, "-o", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "gensum: wrote "+out) {
		t.Errorf("stdout %q, want it to name the file written", stdout.String())
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join("..", "frameworksum.go"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(committed) {
		t.Errorf("gensum wrote\n%s\nthe package holds\n%s\n(run go generate . at the module's root)", got, committed)
	}
	stdout.Reset()
	if code := run([]string{"-root", root, "-o", out}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "is current") {
		t.Errorf("second run: exit status %d, stdout %q; want 0 and the file current", code, stdout.String())
	}
}

// Run anywhere but the framework module's root, or with arguments it does
// not take, gensum says what is wrong and writes nothing.
func TestRefusesOtherPlaces(t *testing.T) {
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/game\n\ngo 1.26.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no go.mod", []string{"-root", t.TempDir()}, 1, "is not the framework module's root (run go generate . there)"},
		{"another module", []string{"-root", other}, 1, `go.mod is the module "example.com/game", not github.com/metronome-go/metronome`},
		{"an argument", []string{"-root", other, "extra"}, 2, `unexpected arguments ["extra"]`},
		{"an unknown flag", []string{"-force"}, 2, "flag provided but not defined: -force"},
	} {
		var stdout, stderr strings.Builder
		code := run(c.args, &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.want) || stdout.Len() != 0 {
			t.Errorf("%s: exit status %d, stderr %q, stdout %q; want %d and %q", c.name, code, stderr.String(), stdout.String(), c.code, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(other, "internal")); err == nil {
		t.Error("gensum wrote into another module")
	}
}
