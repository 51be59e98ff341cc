package main

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/timing"
)

// On a machine too slow for 60 frames a second (every frame takes 40 ms,
// as two processes starved of CPU take), both peers run one tick a frame
// behind real time: pacing can neither slow the peer ahead (it owes
// time) nor speed the one behind (one tick a cycle). The peer ahead
// yields ticks instead, so the peers are within one tick of each other
// 2 s into the match; they used to stay the late start's 5 ticks apart
// for the whole match.
func TestNetworkedMatchOnASlowMachine(t *testing.T) {
	const d = 8 * time.Second
	peers, err := frameworktest.Match(newGame, frameworktest.MatchOptions{
		Options: frameworktest.Options{RenderCost: 40 * time.Millisecond, Sets: []string{"runtime.frame_cap=60", "window.vsync=false", "net.delay=2"}},
		Net:     issueNet, For: d, Start: []time.Duration{0, lateStart},
		Script: func(peer int, sim *frameworktest.Sim) { randomSeat(sim, 0, int(d/tick), uint64(10+peer)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	a, b := peers[0], peers[1]
	start := a.Trace[0].At
	worst, at := int64(0), time.Duration(0)
	for _, s := range a.Trace {
		if s.At < start+timing.Instant(2*time.Second) || s.At > start+timing.Instant(d-time.Second) {
			continue
		}
		if diff := s.Tick - b.TickAt(s.At); max(diff, -diff) > worst {
			worst, at = max(diff, -diff), time.Duration(s.At-start)
		}
	}
	if worst > 1 {
		t.Errorf("peers %d ticks apart at %v, 2 s or more into the match: want at most 1", worst, at)
	}
	sameEnd(t, a, b)
	t.Logf("worst after 2 s %d ticks (at %v); peer 0 %d held, peer 1 %d held", worst, at, a.Stats.Held, b.Stats.Held)
}
