// Command gensum writes package srcid's generated file,
// internal/srcid/frameworksum.go: the SHA-256 of the framework's
// simulation source (package srctree says which files and how), so that
// a match's identity knows the framework's code without any game linking
// its source. The module's root package runs it:
//
//	go generate .
//
// Flags: -root DIR, the framework module's root (default: the current
// directory, where go generate runs it); -o FILE, where to write (default:
// the generated file under the root).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/metronome-go/metronome/internal/srcid/srctree"
	"golang.org/x/mod/modfile"
)

const module = "github.com/metronome-go/metronome"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run generates the file as args say, prints what it did on stdout and
// any problem on stderr, and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("gensum", flag.ContinueOnError)
	flags.SetOutput(stderr)
	root := flags.String("root", ".", "the framework module's root `directory`")
	out := flags.String("o", "", "the `file` to write (default: ROOT/"+srctree.GeneratedFile+")")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(stderr, "gensum: unexpected arguments %q: it takes only -root and -o\n", flags.Args())
		return 2
	}
	if *out == "" {
		*out = filepath.Join(*root, filepath.FromSlash(srctree.GeneratedFile))
	}
	if err := generate(*root, *out, stdout); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// generate writes the file for the module at root to out, unless out
// holds it already.
func generate(root, out string, stdout io.Writer) error {
	fsys := os.DirFS(root)
	mod, err := fs.ReadFile(fsys, "go.mod")
	if err != nil {
		return fmt.Errorf("gensum: %s is not the framework module's root (run go generate . there): %w", root, err)
	}
	if got := modfile.ModulePath(mod); got != module {
		return fmt.Errorf("gensum: %s/go.mod is the module %q, not %s (run go generate . at the framework module's root)", root, got, module)
	}
	src, err := srctree.Generate(fsys)
	if err != nil {
		return err // srctree's, naming the package
	}
	old, err := os.ReadFile(out)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("gensum: %w", err)
	}
	if bytes.Equal(old, src) {
		fmt.Fprintf(stdout, "gensum: %s is current\n", out)
		return nil
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		return fmt.Errorf("gensum: %w", err)
	}
	fmt.Fprintf(stdout, "gensum: wrote %s\n", out)
	return nil
}
