//go:build js

package query

import "errors"

// TestSource returns the Go source of the test s describes. A browser
// build writes no Go files, so it only checks s: the generator (and the
// template and gofmt packages it needs, a few hundred kilobytes of every
// page) is in native builds alone.
func TestSource(s TestSpec) ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return nil, errors.New("query: TestSource: a browser build writes no Go tests; run the game natively with --write-test")
}
