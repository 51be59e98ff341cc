//go:build !metronome_inspect

package framework

import (
	"fmt"
	"io"

	"github.com/metronome-go/metronome/framework/config"
)

// inspectMain refuses in a game's page: the inspector is an HTTP server,
// and a game's page build leaves it (and net/http with it) out of the
// module. The inspector's own page runs a second build of the game, made
// by cmd/webgame with the metronome_inspect tag (inspect_page_js.go).
func inspectMain(_ Game, _ *Flags, _, stderr io.Writer) int {
	fmt.Fprintf(stderr, "%s: --inspect serves the inspector over HTTP, which a page cannot: run the game natively (go run . --replay FILE --inspect :7777), or record it in a page served by cmd/webgame and click Open in Rewind\n", programName())
	return 2
}

// inspectLiveMain refuses as inspectMain does.
func inspectLiveMain(g Game, _ config.Config, opts RunOptions, f *Flags) int {
	return inspectMain(g, f, opts.Stdout, opts.Stderr)
}
