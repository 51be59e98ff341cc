//go:build js

package framework

import (
	"syscall/js"

	"github.com/metronome-go/metronome/rollback"
)

// showMatchLine puts a match's catching-up events on the page, where a
// player whose tab was hidden sees why the game is not moving yet (the
// messages on stderr go to the console, which players do not open); the
// line goes once the peer plays again. The page's metronomeMessage
// writes it (cmd/webgame's index.html).
func showMatchLine(ev rollback.Event) {
	var line string
	switch ev.Kind {
	case rollback.EventResyncing, rollback.EventSnapshot, rollback.EventRejoining, rollback.EventJoiningLate:
		line = "Catching up with the match: " + ev.String() + "…"
	case rollback.EventPlaying:
		line = ""
	default:
		return
	}
	if f := js.Global().Get("metronomeMessage"); f.Type() == js.TypeFunction {
		f.Invoke(line)
	}
}
