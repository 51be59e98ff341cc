// Command apicheck holds the exported API to the last release: it lists
// every exported name of the release's API file (api/vX.Y.Z.txt) that the
// tree no longer offers and fails unless CHANGELOG.md has an Adapt line
// naming it. A name that is still there, as a deprecated wrapper or an
// alias, passes. It also fails on an exported name whose doc comment names
// an unexported identifier. It reads only the files of the tree.
//
//	go run ./scripts/apicheck                 # check (scripts/test.sh runs this)
//	go run ./scripts/apicheck -update         # regenerate the API file from its ref
//	go run ./scripts/apicheck -update -ref v0.4.0 -release "fourth version" -baseline api/v0.4.0.txt
//
// -update needs git and the release's tag; the check needs neither, so a
// clone without tags runs it.
package main

import (
	"archive/tar"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/semver"

	"github.com/metronome-go/metronome/internal/apicheck"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("apicheck", flag.ContinueOnError)
	fset.SetOutput(stderr)
	root := fset.String("root", ".", "the module's root `directory`")
	baseline := fset.String("baseline", "", "the release's API `file` (default: the newest api/v*.txt)")
	changelog := fset.String("changelog", "CHANGELOG.md", "the changelog `file`, relative to the root")
	update := fset.Bool("update", false, "regenerate the API file from the release's git ref instead of checking")
	ref := fset.String("ref", "", "with -update: the git `ref` of the release (default: the file's own)")
	release := fset.String("release", "", "with -update: the release's `name` as CHANGELOG.md's heading writes it (default: the file's own)")
	if err := fset.Parse(args); err != nil {
		return 2
	}
	if *baseline == "" {
		b, err := newestBaseline(filepath.Join(*root, "api"))
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		*baseline = b
	} else if !filepath.IsAbs(*baseline) {
		*baseline = filepath.Join(*root, *baseline)
	}
	if *update {
		if err := regenerate(*root, *baseline, *ref, *release); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		fmt.Fprintf(stdout, "apicheck: wrote %s\n", *baseline)
		return 0
	}
	n, err := check(*root, *baseline, filepath.Join(*root, *changelog), stdout)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if n > 0 {
		return 1
	}
	return 0
}

// check compares the tree with the API file and reports the removals no
// Adapt line names; it returns how many.
func check(root, baselinePath, changelogPath string, out io.Writer) (int, error) {
	f, err := os.Open(baselinePath)
	if err != nil {
		return 0, fmt.Errorf("apicheck: %w", err)
	}
	defer f.Close()
	base, err := apicheck.ReadBaseline(f)
	if err != nil {
		return 0, fmt.Errorf("%w (in %s)", err, baselinePath)
	}
	cur, err := apicheck.Extract(os.DirFS(root))
	if err != nil {
		return 0, err
	}
	log, err := os.ReadFile(changelogPath)
	if err != nil {
		return 0, fmt.Errorf("apicheck: %w", err)
	}
	adapted, err := apicheck.ReadChangelog(log, base.Release)
	if err != nil {
		return 0, err
	}
	removed := apicheck.Removed(base.Lines, cur)
	rel, _ := filepath.Rel(root, baselinePath)
	n := apicheck.Report(out, removed, adapted, rel)
	leaks, err := apicheck.DocLeaks(os.DirFS(root))
	if err != nil {
		return 0, err
	}
	if len(leaks) > 0 {
		fmt.Fprintf(out, "apicheck: %d doc comments of exported names name an unexported identifier, which go doc readers cannot look up:\n", len(leaks))
		for _, l := range leaks {
			fmt.Fprintf(out, "  %s\n", l)
		}
		fmt.Fprintln(out, "Say it in words, or name the exported API that stands for it.")
		n += len(leaks)
	}
	if n == 0 {
		fmt.Fprintf(out, "apicheck: the %d names of the %s (%s) are all there or have an Adapt line (%d removed)\n",
			len(base.Lines), base.Release, rel, len(removed))
	}
	return n, nil
}

// newestBaseline returns the API file of the highest version in dir.
func newestBaseline(dir string) (string, error) {
	files, _ := filepath.Glob(filepath.Join(dir, "v*.txt"))
	best := ""
	for _, f := range files {
		v := strings.TrimSuffix(filepath.Base(f), ".txt")
		if semver.IsValid(v) && (best == "" || semver.Compare(v, strings.TrimSuffix(filepath.Base(best), ".txt")) > 0) {
			best = f
		}
	}
	if best == "" {
		return "", fmt.Errorf("apicheck: no API file api/vX.Y.Z.txt in %s; make one with -update -ref vX.Y.Z -release NAME -baseline api/vX.Y.Z.txt", dir)
	}
	return best, nil
}

// regenerate writes the API file from the tree at ref, which git archive
// unpacks into a temporary directory.
func regenerate(root, baselinePath, ref, release string) error {
	if ref == "" || release == "" {
		if f, err := os.Open(baselinePath); err == nil {
			old, err := apicheck.ReadBaseline(f)
			f.Close()
			if err == nil {
				ref, release = cmpOr(ref, old.Ref), cmpOr(release, old.Release)
			}
		}
	}
	if ref == "" || release == "" {
		return errors.New("apicheck: -update needs -ref and -release for a new API file")
	}
	tmp, err := os.MkdirTemp("", "apicheck")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var stderr bytes.Buffer
	cmd := exec.Command("git", "archive", "--format=tar", ref)
	cmd.Dir, cmd.Stderr = root, &stderr
	archive, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("apicheck: git archive %s: %v: %s", ref, err, strings.TrimSpace(stderr.String()))
	}
	if err := untar(bytes.NewReader(archive), tmp); err != nil {
		return err
	}
	api, err := apicheck.Extract(os.DirFS(tmp))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	b := apicheck.Baseline{Ref: ref, Release: release, Lines: api.Lines}
	if _, err := b.WriteTo(&buf); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(baselinePath), 0o755); err != nil {
		return err
	}
	return os.WriteFile(baselinePath, buf.Bytes(), 0o644)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// untar writes the archive's Go files and go.mod files under dir.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("apicheck: reading git archive: %w", err)
		}
		if h.Typeflag != tar.TypeReg || !(strings.HasSuffix(h.Name, ".go") || filepath.Base(h.Name) == "go.mod") {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(p, dir+string(filepath.Separator)) {
			return fmt.Errorf("apicheck: git archive holds a path outside its root: %q", h.Name)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
}
