package frameworktest_test

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/rollback/netsim"
)

// trioTally is the world of trioGame: what each player pressed.
type trioTally struct {
	Player  int32
	Presses int32
	Held    int64 // ticks the button was down
}

// trioGame is a game of three players, each with one button, whose world
// counts every player's presses and held ticks: an input that differs
// between two peers' timelines shows in the world hash.
func trioGame() framework.Game {
	net := &framework.Net{Players: 3, Networks: []rollback.Network{netplay.UDPNetwork()}}
	return framework.Game{Net: net, Setup: func(s *framework.Setup) error {
		var errs []error
		keys := []input.Button{input.KeySpace, input.KeyA, input.KeyB}
		for p, k := range keys {
			a, err := s.Actions.Register(string(rune('x'+p)), k)
			errs = append(errs, err)
			net.Seats = append(net.Seats, []input.Action{a})
		}
		w := s.App.World()
		tallies := ecs.NewFilter1[trioTally](w)
		var players *rollback.Players
		s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
			players = ecs.GetResource[rollback.Players](ctx.World)
			for p := range int32(3) {
				ecs.With(ctx.Commands.Spawn(), trioTally{Player: p})
			}
		}})
		s.App.AddSystem(ecs.Update, ecs.System{Name: "count", Gameplay: true, Run: func(ctx *ecs.Sys) {
			q := tallies.Query()
			for q.Next() {
				t := q.Get()
				in := players.Input(int(t.Player))[0]
				t.Presses += int32(in.Presses)
				if in.Down {
					t.Held++
				}
			}
		}})
		return errors.Join(errs...)
	}}
}

// A match of three peers in which peer 2 stops for 3 s, past the 2 s
// cutoff: the host plays on without it, its player's input neutral, and
// sends those inputs to peer 1 as well, which plays on with them; peer 2
// resynchronises from the host's snapshot when it runs again. All three
// end on the same confirmed tick and world.
func TestAStalledPeerOfThreeResynchronises(t *testing.T) {
	const d, tick = 12 * time.Second, time.Second / 60
	peers, err := frameworktest.Match(trioGame, frameworktest.MatchOptions{
		Options: frameworktest.Options{Sets: []string{"timing.mode=fixed", "runtime.frame_cap=60", "window.vsync=false", "net.delay=2", "net.hash_every=10", "net.join_timeout=30s", "audio.enabled=false"}},
		Net:     netsim.Options{Latency: 30 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.05, Seed: 3},
		For:     d,
		Stalls:  []frameworktest.Stall{{Peer: 2, At: 3 * time.Second, For: 3 * time.Second}},
		Script: func(peer int, sim *frameworktest.Sim) {
			r := rand.New(rand.NewPCG(uint64(peer), 7))
			for at := 0; at < int(d/tick); at += 1 + r.IntN(20) {
				sim.Input.Tap(sim.At(time.Duration(at)*tick), input.KeySpace, time.Duration(1+r.IntN(15))*tick)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range peers {
		t.Logf("peer %d: tick %d, confirmed %d hash %#x (%v); held %d, %d hashes compared; played on %d, resynchronised %d",
			i, p.Stats.Tick, p.Tick, p.Hash, p.HasHash, p.Stats.Held, p.Stats.Hashes, p.Stats.PlayedOn, p.Stats.Resyncs)
	}
	if got := [...]int{peers[0].Stats.PlayedOn, peers[1].Stats.Resyncs, peers[2].Stats.Resyncs}; got != [...]int{1, 0, 1} {
		t.Errorf("the host played on %d times, peers 1 and 2 resynchronised %d and %d: want 1, 0 and 1", got[0], got[1], got[2])
	}
	// The peers stop at one instant, each with the confirmed ticks its
	// messages brought: they are compared at the last all confirmed.
	h, last := peers[0], peers[0].Tick
	for _, p := range peers[1:] {
		last = min(last, p.Tick)
	}
	want, ok := h.ConfirmedHashAt(last)
	for i, p := range peers[1:] {
		if got, pok := p.ConfirmedHashAt(last); !ok || !pok || got != want {
			t.Errorf("at tick %d peer %d has hash %#x (%v), the host %#x (%v): want the same", last, i+1, got, pok, want, ok)
		}
	}
	if h.Tick < int64(d/tick)-240 {
		t.Errorf("the host confirmed up to tick %d in %v: the match did not play on", h.Tick, d)
	}
}
