//go:build js

package framework

import "errors"

// writeTest refuses in the page: a browser build has no package source to
// write a test into, and leaving the writer out keeps text/template's
// reflection from pinning every exported method in the module.
func writeTest(Game, WriteTestOptions) (WriteTestResult, error) {
	return WriteTestResult{}, errors.New("framework: --write-test writes a Go file into the game's package, which a page cannot: run it natively (go run . --replay FILE --replay-until N --expect COND --write-test bug_test.go)")
}
