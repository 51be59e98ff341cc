package rollback_test

import (
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/rollback/rollbacktest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// A player's side reads its seat's actions from each tick's input, so
// the other peer confirms what the keyboard held; a side with no input
// plays neutral. Both sides finish on the same hash, and the update that
// finishes the match requests the loop's stop; the spectator's side
// follows to the same end.
func TestASideReadsItsSeatAndStopsTheLoopAtTheEnd(t *testing.T) {
	const ticks = 120
	nw, err := netsim.NewNetwork(3, netsim.Options{Latency: 30 * time.Millisecond, Jitter: 5 * time.Millisecond, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	clock := timing.NewManualClock(0)
	trs := rollbacktest.NewTransports(nw, clock)
	actions := input.NewActions()
	up, err := actions.Register("up", input.KeyW)
	if err != nil {
		t.Fatal(err)
	}
	boost, err := actions.Register("boost", input.KeySpace)
	if err != nil {
		t.Fatal(err)
	}
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
	// The host's transport tells its feed about the spectator, as
	// netplay's does when one joins.
	host := &watched{Transport: trs[0], events: []rollback.PeerEvent{{Peer: 2, Kind: rollback.PeerJoined, Spectator: true}}}
	var sides []*rollback.Side
	for i := range 3 {
		var tr rollback.Transport = trs[i]
		if i == 0 {
			tr = host
		}
		app, err := rollback.NewApp(paddleGame(t, 2), 8)
		if err != nil {
			t.Fatal(err)
		}
		var side *rollback.Side
		if i == 2 {
			side, err = rollback.NewSpectatorSide(app, rollback.SpectatorOptions{Transport: tr, Players: 2, Actions: 2, HashEvery: 10,
				Step: peerStep, Delay: 3, Ticks: ticks, Clock: clock})
		} else {
			side, err = rollback.NewPlayerSide(app, rollback.PeerOptions{
				Options:   rollback.Options{Self: i, Players: players, Actions: 2, Window: 8, HashEvery: 10, Clock: clock},
				Transport: tr, Step: peerStep, Patience: time.Minute, Cutoff: 2 * time.Second, SpectatorDelay: 3, Ticks: ticks,
			}, [][]input.Action{{up, boost}})
		}
		if err != nil {
			t.Fatal(err)
		}
		sides = append(sides, side)
	}
	var held input.Tick
	var down input.State
	down.Down.Add(input.KeyW)
	stops := []*runtime.StopSignal{runtime.NewStopSignal(), runtime.NewStopSignal(), runtime.NewStopSignal()}
	seen := map[int64]bool{}
	for n := 1; n < 2000; n++ {
		clock.Advance(peerStep)
		done := true
		for i, side := range sides {
			if stops[i].Requested() {
				continue
			}
			done = false
			ctx := runtime.TickContext{Update: timing.Update{Number: uint64(n), Kind: timing.FixedUpdate, Steps: 1, Delta: peerStep, Final: true}, Stop: stops[i]}
			if i == 0 {
				held.Fill(actions, 0, 0, down, nil)
				ctx.Input = &held // the host's player holds "up"; the joiner's tick has no input
			}
			if err := side.Update(&ctx); err != nil {
				t.Fatalf("side %d, update %d: %v", i, n, err)
			}
			tl := side.Timeline()
			for k := max(tl.Settled()-3, 2); k < tl.Settled(); k++ { // from tick 2, the input delay
				for p, want := range []bool{true, false} {
					if in, ok := tl.ConfirmedInput(p, k); ok && (in[0].Down != want || in[1] != (input.Stats{})) {
						t.Fatalf("side %d: player %d's confirmed input at tick %d is %+v: want up down %v, boost idle", i, p, k, in, want)
					} else if ok && i == 1 {
						seen[k] = true
					}
				}
			}
		}
		if done {
			break
		}
	}
	if len(seen) == 0 {
		t.Fatal("the joiner never confirmed an input")
	}
	want, ok := sides[0].Outcome()
	if !ok || want.Kind != rollback.Finished || !want.HasHash {
		t.Fatalf("host's outcome %+v (ended %v): want finished with a hash", want, ok)
	}
	for i, side := range sides {
		got, ok := side.Outcome()
		if !ok || got.Kind != rollback.Finished || got.Tick != want.Tick || got.Hash != want.Hash {
			t.Errorf("side %d: outcome %+v (ended %v), want the host's %+v", i, got, ok, want)
		}
		if !stops[i].Requested() {
			t.Errorf("side %d finished without requesting the stop", i)
		}
		if tick, hash, ok := side.ConfirmedHash(); !ok || tick < want.Tick {
			t.Errorf("side %d: confirmed hash tick %d %x (%v), want one at or past %d", i, tick, hash, ok, want.Tick)
		}
		if got, ok := side.HashAt(want.Tick); ok && got != want.Hash {
			t.Errorf("side %d: hash at %d is %x, want %x", i, want.Tick, got, want.Hash)
		}
	}
	if pc := sides[0].Pacing(); pc == nil || pc.Ticks < ticks || sides[2].Pacing() != nil {
		t.Errorf("the host's pacing %+v, the spectator's %v: want the host's to count every tick it ran, and none for the spectator", pc, sides[2].Pacing())
	}
	if !sides[2].Spectating() || sides[0].Spectating() || !sides[0].Playing() || sides[2].Playing() {
		t.Error("Spectating and Playing do not tell the spectator's side from the players'")
	}
}

// A player's side needs a seat per local player, each with the match's
// actions; the error names what is wrong.
func TestASideRefusesSeatsThatDoNotFit(t *testing.T) {
	nw, err := netsim.NewNetwork(2, netsim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	trs := rollbacktest.NewTransports(nw, timing.NewManualClock(0))
	opts := rollback.PeerOptions{Options: rollback.Options{Self: 0, Players: []rollback.Player{{Peer: 0}, {Peer: 1}}, Actions: 2, Window: 8},
		Transport: trs[0], Step: peerStep}
	for _, c := range []struct {
		seats [][]input.Action
		want  string
	}{
		{nil, "0 seats for the 1 players at peer 0"},
		{[][]input.Action{{1}}, "seat 0 has 1 actions; allowed: the match's 2"},
	} {
		app, err := rollback.NewApp(paddleGame(t, 2), 8)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rollback.NewPlayerSide(app, opts, c.seats); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("seats %v: error %v, want one saying %q", c.seats, err, c.want)
		}
	}
}
