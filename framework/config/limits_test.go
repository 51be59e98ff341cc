package config_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework/config"
)

// deep returns documents nested n levels in each way TOML nests.
func deep(n int) map[string]string {
	return map[string]string{
		"inline tables": "[game]\nx = " + strings.Repeat("{a = ", n-2) + "1" + strings.Repeat("}", n-2) + "\n",
		"arrays":        "[game]\nx = " + strings.Repeat("[", n-2) + strings.Repeat("]", n-2) + "\n",
		"dotted key":    strings.Repeat("a.", n-1) + "a = 1\n",
		"header":        "[" + strings.Repeat("a.", n-1) + "a]\n",
		"mixed":         "[" + strings.Repeat("a.", n/2-1) + "a]\nb = [{c = " + strings.Repeat("[", n-n/2-3) + strings.Repeat("]", n-n/2-3) + "}]\n",
	}
}

// TestDepthLimit: nesting past MaxDepth is refused before parsing (the
// parser takes minutes and gigabytes on a few thousand levels), naming the
// file, the line and the limit; nesting at the limit reaches the parser.
func TestDepthLimit(t *testing.T) {
	for _, n := range []int{config.MaxDepth + 1, 5000} {
		for name, doc := range deep(n) {
			_, err := config.Parse("deep.toml", []byte(doc), config.Default())
			if err == nil || !strings.Contains(err.Error(), "config: deep.toml:") || !strings.Contains(err.Error(), fmt.Sprintf("nested deeper than %d levels", config.MaxDepth)) {
				t.Errorf("%s, %d levels: got %v, want the depth refused", name, n, err)
			}
		}
	}
	for name, doc := range deep(config.MaxDepth) {
		_, err := config.Parse("deep.toml", []byte(doc), config.Default())
		if err != nil && strings.Contains(err.Error(), "nested deeper") {
			t.Errorf("%s, %d levels: got %v, want it parsed", name, config.MaxDepth, err)
		}
	}
	// Strings and comments do not nest.
	ok := "[timing]\nmode = \"fixed\" # [[[[[[[[[[[[[[[[[[[[{{{{{{{{{{{{{{{{{{{{\n[window]\ntitle = '''a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r\n[[[[[[[[[[[[[[[[[[[[[[[[[[['''\n"
	if _, err := config.Parse("ok.toml", []byte(ok), config.Default()); err != nil {
		t.Errorf("brackets and dots in strings and comments: %v", err)
	}
}

// TestSizeLimit: a document over MaxFileSize is refused unparsed, from a
// file or as embedded bytes (a recording's configuration).
func TestSizeLimit(t *testing.T) {
	big := []byte("# " + strings.Repeat("x", config.MaxFileSize) + "\n")
	want := fmt.Sprintf("has %d bytes; allowed: at most %d", len(big), config.MaxFileSize)
	if _, err := config.Build(config.Layers{Embedded: big, EmbeddedName: "x.rec (recorded configuration)"}); err == nil || !strings.Contains(err.Error(), "config: x.rec (recorded configuration): the configuration "+want) {
		t.Errorf("embedded: got %v, want %q", err, want)
	}
	path := filepath.Join(t.TempDir(), "big.toml")
	if err := os.WriteFile(path, big, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := config.Build(config.Layers{File: path}); err == nil || !strings.Contains(err.Error(), "config: "+path+": cannot read the file: it "+want) {
		t.Errorf("file: got %v, want %q", err, want)
	}
}

// TestProblemsCapped: a document with a great many problems lists the
// first MaxProblems and counts the rest.
func TestProblemsCapped(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "unknown%d = 1\n", i)
	}
	_, err := config.Parse("many.toml", []byte(b.String()), config.Default())
	var errs interface{ Unwrap() []error }
	if !errors.As(err, &errs) {
		t.Fatalf("got %v, want joined problems", err)
	}
	list := errs.Unwrap()
	if len(list) != config.MaxProblems+1 || !strings.Contains(list[config.MaxProblems].Error(), fmt.Sprintf("and %d more problems", 5000-config.MaxProblems)) {
		t.Errorf("got %d problems, the last %q; want %d and a count of the rest", len(list), list[len(list)-1], config.MaxProblems+1)
	}
	if _, err := config.Build(config.Layers{Embedded: []byte(b.String())}); err == nil || strings.Count(err.Error(), "\n") != config.MaxProblems {
		t.Errorf("Build: got %d lines, want %d", strings.Count(fmt.Sprint(err), "\n")+1, config.MaxProblems+1)
	}
}
