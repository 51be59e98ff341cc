package rollbacktest_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/rollback/rollbacktest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

type runner struct{ X, V int64 }

// game: each player's runner speeds up while the player holds action 0.
func game(t *testing.T, players int) *ecs.App {
	a, err := ecs.NewApp(ecs.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var f *ecs.Filter1[runner]
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		for range players {
			ecs.With(ctx.Commands.Spawn(), runner{})
		}
	}})
	a.AddSystem(ecs.Update, ecs.System{Name: "run", Run: func(ctx *ecs.Sys) {
		if f == nil {
			f = ecs.NewFilter1[runner](ctx.World)
		}
		pl := ecs.GetResource[rollback.Players](ctx.World)
		q := f.Query()
		for p := 0; q.Next(); p++ {
			r := q.Get()
			if pl.Input(p)[0].Down {
				r.V++
			}
			r.X += r.V
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	return a
}

func TestThreeECSPeersOverALossyNetwork(t *testing.T) {
	nw, err := netsim.NewNetwork(3, netsim.Options{Latency: 40 * time.Millisecond, Jitter: 15 * time.Millisecond, Loss: 0.05, Reorder: 0.05, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}, {Peer: 2, Delay: 2}}
	peers := make([]rollbacktest.Peer, 3)
	for i := range peers {
		sim, err := rollback.NewApp(game(t, 3), rollback.DefaultWindow)
		if err != nil {
			t.Fatal(err)
		}
		opts := rollback.DefaultOptions()
		opts.Self, opts.Players, opts.Actions, opts.HashEvery = i, players, 1, 1
		s, err := rollback.NewSession(sim, opts)
		if err != nil {
			t.Fatal(err)
		}
		peers[i] = rollbacktest.Peer{
			Session: s,
			Input: func(s *rollback.Session) {
				k := s.Tick() + 2
				s.Local(i)[0] = input.Stats{Down: (k/(7+int64(i)))%2 == 0}
			},
			Update: func(now timing.Instant) (rollback.Step, error) {
				ctx := runtime.TickContext{Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: timing.DefaultInterval, Start: now, End: now + timing.Instant(timing.DefaultInterval), Final: true}}
				return sim.Update(s, &ctx)
			},
			Start: time.Duration(i) * 20 * time.Millisecond,
		}
	}
	if err := rollbacktest.Run(nw, peers, 600, rollbacktest.Options{}); err != nil {
		t.Fatal(err)
	}
	for i, p := range peers {
		st := p.Session.Stats()
		if st.Tick != 600 || st.Rollbacks == 0 || st.Desyncs != 0 || st.Hashes < 500 || st.MaxDepth > rollback.DefaultWindow {
			t.Errorf("peer %d: %+v; want 600 ticks, some rollbacks, no desync, most hashes compared", i, st)
		}
	}
}

// Under an exact rate the runtime's updates alternate between deltas
// (Hz(60): 16,666,666 ns and 16,666,667 ns), and each peer's present
// update is a different one of them. With App.SetDelta every tick, run
// first or again, advances game time the same on every peer; without it
// the game time in the world hash drifts apart and the peers desync.
func TestExactRateDeltasStayInSync(t *testing.T) {
	for _, set := range []bool{true, false} {
		nw, err := netsim.NewNetwork(2, netsim.Options{Latency: 40 * time.Millisecond, Jitter: 15 * time.Millisecond, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
		peers := make([]rollbacktest.Peer, 2)
		for i := range peers {
			sim, err := rollback.NewApp(game(t, 2), rollback.DefaultWindow)
			if err != nil {
				t.Fatal(err)
			}
			if set {
				sim.SetDelta(timing.Hz(60).Step())
			}
			opts := rollback.DefaultOptions()
			opts.Self, opts.Players, opts.Actions, opts.HashEvery = i, players, 1, 1
			s, err := rollback.NewSession(sim, opts)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			peers[i] = rollbacktest.Peer{
				Session: s,
				Input: func(s *rollback.Session) {
					k := s.Tick() + 2
					s.Local(i)[0] = input.Stats{Down: (k/(5+int64(i)))%2 == 0}
				},
				Update: func(now timing.Instant) (rollback.Step, error) {
					// Peer i's n-th update has the delta of an exact rate's
					// update n+i: the peers' updates are out of phase.
					n++
					delta := 16666666 * time.Nanosecond
					if (n+i)%3 == 0 {
						delta++
					}
					ctx := runtime.TickContext{Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: delta, Start: now, End: now + timing.Instant(delta), Final: true}}
					return sim.Update(s, &ctx)
				},
			}
		}
		err = rollbacktest.Run(nw, peers, 300, rollbacktest.Options{})
		var desyncs uint64
		for _, p := range peers {
			desyncs += p.Session.Stats().Desyncs
		}
		switch {
		case set && (err != nil || desyncs != 0):
			t.Errorf("with SetDelta: %v, %d desyncs; want none", err, desyncs)
		case !set && desyncs == 0:
			t.Errorf("without SetDelta no desync: the test cannot see the drift it guards against")
		}
	}
}
