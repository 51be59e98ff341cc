package main

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/timing"
)

// A host that stops for 3 s, past the 2 s debt cutoff: the time past the
// cutoff is dropped, and the match repays the rest together, both peers
// running fast at the same pace, instead of losing it: the peers share
// what they owe (rollback.Session.SharedDebt). 2 s after the stall they
// are within a tick of each other, on the same world, and the match has
// run at least a second of ticks more than real time since the stall
// (it ran at real time before, the whole stall lost).
func TestAStalledHostSlowsTheMatchTogether(t *testing.T) {
	const d, at, stall = stallMatchFor, stallAt, stallFor
	peers := stalledMatch(t, 0, 30)
	a, b := peers[0], peers[1]
	start := a.Trace[0].At
	worst, when := int64(0), time.Duration(0)
	for _, s := range a.Trace {
		if s.At < start+timing.Instant(at+stall+2*time.Second) || s.At > start+timing.Instant(d-time.Second) {
			continue
		}
		if diff := s.Tick - b.TickAt(s.At); max(diff, -diff) > worst {
			worst, when = max(diff, -diff), time.Duration(s.At-start)
		}
	}
	la, lb := a.Runtime.TimingStats().Ledger, b.Runtime.TimingStats().Ledger
	t.Logf("worst 2 s after the stall %d ticks (at %v); host dropped %v (hook %v, cutoff %v) adjusted %v, joiner dropped %v adjusted %v; held %d / %d; ticks %d / %d",
		worst, when, la.Dropped(), la.DroppedByHook, la.DroppedCutoff, la.Adjusted, lb.Dropped(), lb.Adjusted, a.Stats.Held, b.Stats.Held, a.Stats.Tick, b.Stats.Tick)
	// From the stall's end to the match's, real time gives (d-at-stall)/tick
	// ticks; repaying adds more.
	from := a.TickAt(start + timing.Instant(at+stall+100*time.Millisecond))
	ran, real := a.Stats.Tick-from, int64((d-at-stall-100*time.Millisecond)/tick)
	t.Logf("after the stall: %d ticks in %d ticks of real time", ran, real)
	if ran < real+60 {
		t.Errorf("%d ticks after the stall in %d ticks of real time: want a second (60) more, the owed time repaid", ran, real)
	}
	// The host dropped what it owed past the cutoff for the match
	// (timing.SharedSlowdown); the joiner dropped nothing itself.
	if a.Stats.SlowedDown < stall-2*time.Second-10*tick || la.DroppedCutoff != 0 || lb.Dropped() != 0 || b.Stats.SlowedDown != 0 {
		t.Errorf("host slowed the match by %v (cutoff drops %v), joiner dropped %v (slowed %v): want the host about %v past the cutoff, by its hook, and the joiner nothing",
			a.Stats.SlowedDown, la.DroppedCutoff, lb.Dropped(), b.Stats.SlowedDown, stall-2*time.Second)
	}
	if worst > 1 {
		t.Errorf("peers %d ticks apart at %v, 2 s or more after the stall: want at most 1", worst, when)
	}
	sameEnd(t, a, b)
}

// A joiner that stops for 3 s holds the host at its window past the
// cutoff: the host plays on without it (its players' input neutral), and
// the joiner, a timing.Resync peer that dropped nothing of its own,
// resynchronises from the host's snapshot when it runs again and ends on
// the host's world.
func TestAStalledJoinerResynchronisesInAMatch(t *testing.T) {
	peers := stalledMatch(t, 1, 40)
	a, b := peers[0], peers[1]
	lb := b.Runtime.TimingStats().Ledger
	t.Logf("host slowed %v, played on %d; joiner dropped %v, resynchronised %d; ticks %d / %d; confirmed %d / %d",
		a.Stats.SlowedDown, a.Stats.PlayedOn, lb.Dropped(), b.Stats.Resyncs, a.Stats.Tick, b.Stats.Tick, a.Tick, b.Tick)
	if lb.Dropped() != 0 || a.Stats.PlayedOn != 1 || b.Stats.Resyncs != 1 {
		t.Errorf("the joiner dropped %v and resynchronised %d times, the host played on %d: want nothing, once and once", lb.Dropped(), b.Stats.Resyncs, a.Stats.PlayedOn)
	}
	sameEnd(t, a, b)
}

// The stalled matches: 12 s of the duel over issueNet, peer 1 starting
// lateStart late, in which one peer stops for 3 s from 2 s on.
const stallMatchFor, stallAt, stallFor = 12 * time.Second, 2 * time.Second, 3 * time.Second

// stalledMatch plays a stalled match in which peer stalls, each peer's
// seat scripted with seed+peer, and returns the peers. The disconnect
// timeout is past the stall, so a stalled joiner is waited for.
func stalledMatch(t *testing.T, peer int, seed uint64) []*frameworktest.Peer {
	t.Helper()
	peers, err := frameworktest.Match(newGame, frameworktest.MatchOptions{
		Options: frameworktest.Options{Sets: []string{"runtime.frame_cap=60", "window.vsync=false", "net.delay=2", "net.join_timeout=30s"}},
		Net:     issueNet, For: stallMatchFor, Start: []time.Duration{0, lateStart},
		Stalls: []frameworktest.Stall{{Peer: peer, At: stallAt, For: stallFor}},
		Script: func(p int, sim *frameworktest.Sim) { randomSeat(sim, 0, int(stallMatchFor/tick), seed+uint64(p)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	return peers
}
