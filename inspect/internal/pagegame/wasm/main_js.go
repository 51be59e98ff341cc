// Command wasm serves pagegame's session's inspector from a page
// (inspect.ServeInPage), for the inspect package's browser test.
package main

import (
	"fmt"
	"os"

	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/inspect/internal/pagegame"
)

func main() {
	rep, err := pagegame.Replay()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	h, err := inspect.NewHandler(rep, inspect.ServerOptions{Name: "pagegame"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if _, err := inspect.ServeInPage("metronomeInspect", h); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	select {} // serves until the page goes
}
