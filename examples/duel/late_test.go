package main

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework/frameworktest"
)

// A peer that starts later than the debt cutoff (2 s) after the other, as
// the players of a dedicated host do when they open windows, leaves the
// first peer holding for longer than the scheduler takes in one
// adjustment: the frame-advantage adjustment stays within the cutoff, and
// the match plays on to the same world.
func TestPeerStartingPastTheCutoff(t *testing.T) {
	const d = 6 * time.Second
	peers, err := frameworktest.Match(newGame, frameworktest.MatchOptions{
		Options: frameworktest.Options{Sets: []string{"runtime.frame_cap=60", "window.vsync=false", "net.delay=2"}},
		For:     d, Start: []time.Duration{0, 3 * time.Second},
		Script: func(peer int, sim *frameworktest.Sim) { randomSeat(sim, 0, int(d/tick), uint64(20+peer)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	a, b := peers[0], peers[1]
	sameEnd(t, a, b)
}
