package rollback_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/rollback/rollbacktest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// A bot's input is a function of its seed, the player and the tick, with
// presses and releases exactly where an action goes down and up.
func TestBotIsSeededAndConsistent(t *testing.T) {
	const ticks, actions = 600, 3
	play := func(seed uint64) [][actions]input.Stats {
		b := rollback.NewBot(seed, 2, actions)
		out := make([][actions]input.Stats, ticks)
		for tick := range out {
			b.Fill(1, int64(tick), time.Second/60, out[tick][:])
		}
		return out
	}
	a, again, other := play(7), play(7), play(8)
	if !equal(a, again) {
		t.Fatal("one seed played twice differs")
	}
	if equal(a, other) {
		t.Error("two seeds play the same")
	}
	down := 0
	for tick := 1; tick < ticks; tick++ {
		for i, s := range a[tick] {
			was := a[tick-1][i].Down
			if s.WasDown != was || (s.Presses == 1) != (s.Down && !was) || (s.Releases == 1) != (!s.Down && was) {
				t.Fatalf("tick %d action %d: %+v after down=%v", tick, i, s, was)
			}
			if s.Down {
				down++
			}
		}
	}
	if share := float64(down) / float64((ticks-1)*actions); share < 0.1 || share > 0.5 {
		t.Errorf("actions down %.2f of the time, want about a quarter", share)
	}
}

func equal(a, b [][3]input.Stats) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A peer with PeerOptions.Bot plays its player with the bot's input, not
// the buffer the caller left: the bot's seed, player and tick decide it.
func TestAPeersBotPlaysItsPlayer(t *testing.T) {
	nw, err := netsim.NewNetwork(2, netsim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	clock := timing.NewManualClock(0)
	app, err := rollback.NewApp(paddleGame(t, 2), 8)
	if err != nil {
		t.Fatal(err)
	}
	const seed = 99
	p, err := rollback.NewPeer(app, rollback.PeerOptions{
		Options:   rollback.Options{Self: 0, Players: []rollback.Player{{Peer: 0}, {Peer: 1}}, Actions: 2, Window: 8, Clock: clock},
		Transport: rollbacktest.NewTransports(nw, clock)[0], Step: peerStep, Patience: time.Minute, Cutoff: 2 * time.Second, Bot: seed})
	if err != nil {
		t.Fatal(err)
	}
	want := rollback.NewBot(seed, 1, 2)
	wantIn := make([]input.Stats, 2)
	for n := 1; n <= 120; n++ {
		tick := p.Tick()
		want.Fill(0, tick, peerStep, wantIn)
		clock.Advance(peerStep)
		ctx := runtime.TickContext{Update: timing.Update{Number: uint64(n), Kind: timing.FixedUpdate, Steps: 1, Delta: peerStep, Final: true}}
		if err := p.Update(&ctx); err != nil {
			t.Fatal(err)
		}
		if got := p.Input(0); got[0] != wantIn[0] || got[1] != wantIn[1] {
			t.Fatalf("update %d (tick %d): input %+v, want the bot's %+v", n, tick, got, wantIn)
		}
	}
}
