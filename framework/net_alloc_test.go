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
	app.SetDelta(step)
	return app
}

// moverMatch is two peers of the moverApp game over a simulated network,
// on one manual clock, each a netRun as a framework match runs it.
type moverMatch struct {
	t     testing.TB
	clock *timing.ManualClock
	trs   []*rollbacktest.Transport // one per peer of the network: 0 and 1 play
	acts  *input.Actions
	runs  []*netRun
	ticks [2]input.Tick
	ctxs  [2]runtime.TickContext // the runtime's tick lives as long as the session
	n     int
}

const moverStep = time.Second / 60

// newMoverMatch plays the moverApp game between peers 0 and 1 of a network
// with net's conditions and peers peers, each session configured by opts
// (Self and Players filled in).
func newMoverMatch(t testing.TB, peers int, net netsim.Options, opts rollback.Options) *moverMatch {
	t.Helper()
	nw, err := netsim.NewNetwork(peers, net)
	if err != nil {
		t.Fatal(err)
	}
	m := &moverMatch{t: t, clock: timing.NewManualClock(0), acts: input.NewActions(), runs: make([]*netRun, 2)}
	m.trs = rollbacktest.NewTransports(nw, m.clock)
	act, err := m.acts.Register("a", input.KeySpace)
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.runs {
		app := moverApp(t, moverStep)
		o := opts
		o.Self, o.Players, o.Actions, o.Clock = i, []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}, 1, m.clock
		sess, err := rollback.NewSession(app, o)
		if err != nil {
			t.Fatal(err)
		}
		m.runs[i] = &netRun{app: app, sess: sess, tr: m.trs[i], self: i, peers: []int{1 - i}, local: []int{i}, seats: [][]input.Action{{act}},
			msg: make([]byte, 0, rollback.MaxMessage), buf: make([]byte, rollback.MaxMessage), step: moverStep}
	}
	return m
}

// update advances the clock a step and runs one update of each peer, its
// player pressing and releasing the action in turns of its own.
func (m *moverMatch) update() {
	m.n++
	m.clock.Advance(moverStep)
	for i, r := range m.runs {
		var recs [1]input.Record
		k := recs[:0]
		if (m.n/(7+i))%2 == 0 {
			k = append(k, input.Record{Kind: input.RecordPress, Time: m.clock.Now(), Button: input.KeySpace})
		}
		m.ticks[i].Fill(m.acts, m.clock.Now()-timing.Instant(moverStep), m.clock.Now(), input.State{}, k)
		ctx := &m.ctxs[i]
		*ctx = runtime.TickContext{Update: timing.Update{Number: uint64(m.n), Kind: timing.FixedUpdate, Steps: 1, Delta: moverStep, Final: true}, Input: &m.ticks[i]}
		if err := r.update(ctx); err != nil {
			m.t.Fatal(err)
		}
	}
}

// A networked update in steady state (receive, local input, advance with
// rollbacks, send) allocates nothing.
func TestNetUpdateAllocatesNothing(t *testing.T) {
	m := newMoverMatch(t, 2, netsim.Options{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Seed: 3},
		rollback.Options{Window: rollback.DefaultWindow, HashEvery: 1})
	for range 600 {
		m.update()
	}
	if got := testing.AllocsPerRun(300, m.update); got != 0 {
		t.Errorf("a networked update allocates %v times, want 0", got)
	}
	if st := m.runs[0].sess.Stats(); st.Rollbacks == 0 || st.Desyncs != 0 {
		t.Errorf("stats %+v: want rollbacks and no desync", st)
	}
}
