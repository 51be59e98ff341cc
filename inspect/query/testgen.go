package query

import (
	"errors"
	"fmt"
	"go/token"
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
