//go:build !race

package framework

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

type mover struct{ X int64 }

// moverApp is the allocation tests' game as a rollback.App: two movers,
// player p's moved by its one action.
func moverApp(t testing.TB, step time.Duration) *rollback.App {
	t.Helper()
	a, err := ecs.NewApp(ecs.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var f *ecs.Filter1[mover]
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		ecs.With(ctx.Commands.Spawn(), mover{})
		ecs.With(ctx.Commands.Spawn(), mover{})
	}})
	a.AddSystem(ecs.Update, ecs.System{Name: "move", Run: func(ctx *ecs.Sys) {
		if f == nil {
			f = ecs.NewFilter1[mover](ctx.World)
		}
		pl := ecs.GetResource[rollback.Players](ctx.World)
		q := f.Query()
		for p := 0; q.Next(); p++ {
			if pl.Input(p)[0].Down {
				q.Get().X++
			}
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	app, err := rollback.NewApp(a, rollback.DefaultWindow)
	if err != nil {
		t.Fatal(err)
	}
	return app
}

// moverMatch is two peers of the moverApp game over a simulated network,
// on one manual clock, each a rollback.Peer as a framework match runs it,
// with what the framework adds each update (the recording, when set).
type moverMatch struct {
	t     testing.TB
	clock *timing.ManualClock
	apps  []*rollback.App
	peers []*rollback.Peer
	recs  []*matchRecording
	ctxs  [2]runtime.TickContext
	n     int
}

const moverStep = time.Second / 60

// newMoverMatch plays the moverApp game between peers 0 and 1 of a
// network with net's conditions, each session configured by opts (Self,
// Players and Actions filled in).
func newMoverMatch(t testing.TB, net netsim.Options, opts rollback.Options) *moverMatch {
	t.Helper()
	nw, err := netsim.NewNetwork(2, net)
	if err != nil {
		t.Fatal(err)
	}
	m := &moverMatch{t: t, clock: timing.NewManualClock(0), recs: make([]*matchRecording, 2)}
	trs := rollbacktest.NewTransports(nw, m.clock)
	for i := range 2 {
		app := moverApp(t, moverStep)
		o := opts
		o.Self, o.Players, o.Actions, o.Clock = i, []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}, 1, m.clock
		p, err := rollback.NewPeer(app, rollback.PeerOptions{Options: o, Transport: trs[i], Step: moverStep, Patience: time.Minute, Cutoff: 2 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		m.apps, m.peers = append(m.apps, app), append(m.peers, p)
	}
	return m
}

// update advances the clock a step and runs one update of each peer, its
// player pressing and releasing the action in turns of its own.
func (m *moverMatch) update() {
	m.n++
	m.clock.Advance(moverStep)
	for i, p := range m.peers {
		p.Input(0)[0] = input.Stats{Down: (m.n/(7+i))%2 == 0}
		ctx := &m.ctxs[i]
		*ctx = runtime.TickContext{Update: timing.Update{Number: uint64(m.n), Kind: timing.FixedUpdate, Steps: 1, Delta: moverStep, Final: true}}
		if err := p.Update(ctx); err != nil {
			m.t.Fatal(err)
		}
		if err := m.recs[i].record(p.Timeline(), m.apps[i]); err != nil {
			m.t.Fatal(err)
		}
	}
}
