package framework

import (
	"embed"
	"fmt"
	"io"
	"io/fs"

	"github.com/metronome-go/metronome/internal/srcid"
)

// codeIdentity is the match identity's version: the identity of this
// build's simulation code (package internal/srcid): the Go version, the
// framework's simulation source (known by the sum go generate wrote), the
// modules linked on every platform and the game's own source
// (Game.Source). Without that source the game's
// code is known by its build stamps only, which two builds of different
// code can share: it says so on w, as it does for a module whose code it
// cannot vouch for.
func codeIdentity(g Game, w io.Writer) (string, error) {
	var game fs.FS
	if g.Source != (embed.FS{}) {
		game = g.Source
	}
	id, err := srcid.Of(game)
	if err != nil {
		return "", fmt.Errorf("framework: Game.Source: %w", err)
	}
	for _, warn := range id.Warnings() {
		fmt.Fprintf(w, "%s: warning: %s\n", programName(), warn)
	}
	return id.Version(), nil
}
