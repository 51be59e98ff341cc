//go:build js

package framework

import (
	"fmt"
	"io"
)

// inspectMain refuses in the page: the inspector is an HTTP server, and a
// browser build leaves it (and net/http with it) out of the module.
func inspectMain(_ Game, _ *Flags, _, stderr io.Writer) int {
	fmt.Fprintf(stderr, "%s: --inspect serves the inspector over HTTP, which a page cannot: run the game natively (go run . --replay FILE --inspect :7777)\n", programName())
	return 2
}
