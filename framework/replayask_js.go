//go:build !metronome_inspect

package framework

import (
	"fmt"
	"io"
)

// compareMain refuses in a game's page, which plays, records and replays
// one recording but asks it no questions: comparing two recordings
// replays both headless, and leaving that out keeps the bisection and its
// reflection out of every game's module.
func compareMain(_ Game, _ *Flags, _, stderr io.Writer) int {
	fmt.Fprintf(stderr, "%s: --compare replays two recordings side by side, which a game's page leaves out: run it natively (go run . --replay A --compare B)\n", programName())
	return StatusUsage
}

// queryMain refuses as compareMain does: the query language and the
// replays that answer it stay out of a game's page.
func queryMain(_ Game, _ *Flags, _, stderr io.Writer) int {
	fmt.Fprintf(stderr, "%s: --where, --who-wrote and --write-test replay a recording to answer a question, which a game's page leaves out: ask natively (go run . --replay FILE --where 'Ball.Y > 400')\n", programName())
	return StatusUsage
}
