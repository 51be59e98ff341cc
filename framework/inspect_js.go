//go:build js

package framework

import (
	"fmt"
	"io"

	"github.com/metronome-go/metronome/framework/config"
)

// inspectMain refuses in the page: the inspector is an HTTP server, and a
// browser build leaves it (and net/http with it) out of the module.
func inspectMain(_ Game, _ *Flags, _, stderr io.Writer) int {
	fmt.Fprintf(stderr, "%s: --inspect serves the inspector over HTTP, which a page cannot: run the game natively (go run . --replay FILE --inspect :7777)\n", programName())
	return 2
}

// inspectLiveMain refuses as inspectMain does.
func inspectLiveMain(g Game, _ config.Config, opts RunOptions, f *Flags) int {
	return inspectMain(g, f, opts.Stdout, opts.Stderr)
}
