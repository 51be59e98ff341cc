//go:build !js

package framework

import (
	"bytes"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/metronome-go/metronome/inspect/query"
	"github.com/metronome-go/metronome/runtime"
)

// writeTest is [WriteTest] on a native build. Browser builds leave it out
// (query_js.go): it reaches query.TestSource and text/template, whose
// calls by method name keep every exported method of every linked type
// in the module.
func writeTest(g Game, opts WriteTestOptions) (WriteTestResult, error) {
	var errs []error
	if !strings.HasSuffix(opts.File, "_test.go") {
		errs = append(errs, fmt.Errorf("framework: --write-test %q: want a file name ending in _test.go", opts.File))
	}
	if opts.Ticks < 1 {
		errs = append(errs, errors.New("framework: --write-test needs --replay-until N, the number of ticks to replay before the check (at least 1)"))
	}
	if opts.Expect == "" {
		errs = append(errs, errors.New("framework: --write-test needs --expect 'CONDITION', what must hold after the ticks"))
	}
	if len(errs) > 0 {
		return WriteTestResult{}, errors.Join(errs...)
	}
	if opts.Game == "" {
		opts.Game = "newGame()"
	}
	if _, err := os.Stat(opts.File); err == nil {
		return WriteTestResult{}, fmt.Errorf("framework: --write-test: %s exists; remove it or name another file", opts.File)
	}
	dir := filepath.Dir(opts.File)
	pkg, err := packageName(dir)
	if err != nil {
		return WriteTestResult{}, err
	}
	e, err := query.Parse(opts.Expect)
	if err != nil {
		return WriteTestResult{}, err
	}
	res := WriteTestResult{File: opts.File, Name: testName(opts.File, opts.Ticks)}
	err = ReplayVisit(g, opts.Recording, opts.Ticks-1, nil, func(s *Session, t *runtime.TickContext) error {
		if t.Number != opts.Ticks-1 {
			return nil
		}
		w := s.App.World()
		cond, err := query.Compile(e, w.ComponentTypes())
		if err != nil {
			return err
		}
		res.Holds = len(cond.Eval(w)) > 0
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("framework: --write-test: replaying %s: %w", opts.Recording, err)
	}
	rec, err := keepRecording(dir, opts.Recording)
	if err != nil {
		return res, err
	}
	res.Recording = rec
	src, err := query.TestSource(query.TestSpec{Package: pkg, Name: res.Name, Game: opts.Game, Recording: filepath.ToSlash(rec), Ticks: opts.Ticks, Expect: opts.Expect})
	if err != nil {
		return res, err
	}
	if err := os.WriteFile(opts.File, src, 0o644); err != nil {
		return res, fmt.Errorf("framework: --write-test: %w", err)
	}
	return res, nil
}

// packageName reads the package clause of the non-test Go files in dir
// ("main" when there are none).
func packageName(dir string) (string, error) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.PackageClauseOnly)
		if err != nil {
			return "", fmt.Errorf("framework: --write-test: reading the package of %s: %w", dir, err)
		}
		return ast.Name.Name, nil
	}
	return "main", nil
}

// testName makes TestReplay<File><Ticks> from the file's name: bug_test.go
// after 438 ticks is TestReplayBug438.
func testName(file string, ticks uint64) string {
	base := strings.TrimSuffix(filepath.Base(file), "_test.go")
	var b strings.Builder
	b.WriteString("TestReplay")
	up := true
	for _, r := range base {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) || r > unicode.MaxASCII {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	b.WriteString(strconv.FormatUint(ticks, 10))
	return b.String()
}

// keepRecording returns the recording's path relative to dir, copying it
// into dir/testdata first when it lies outside dir (a copy there already,
// byte for byte, is used as it is).
func keepRecording(dir, rec string) (string, error) {
	absDir, err1 := filepath.Abs(dir)
	absRec, err2 := filepath.Abs(rec)
	if err := errors.Join(err1, err2); err != nil {
		return "", fmt.Errorf("framework: --write-test: %w", err)
	}
	if rel, err := filepath.Rel(absDir, absRec); err == nil && !strings.HasPrefix(rel, "..") {
		return rel, nil
	}
	dst := filepath.Join(absDir, "testdata", filepath.Base(rec))
	kept := filepath.Join("testdata", filepath.Base(rec))
	data, err := os.ReadFile(rec)
	if err != nil {
		return "", fmt.Errorf("framework: --write-test: %w", err)
	}
	if have, err := os.ReadFile(dst); err == nil {
		if bytes.Equal(have, data) {
			return kept, nil
		}
		return "", fmt.Errorf("framework: --write-test: %s exists and holds another recording: the recording would be copied there; rename one", dst)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", fmt.Errorf("framework: --write-test: %w", err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return "", fmt.Errorf("framework: --write-test: %w", err)
	}
	return kept, nil
}
