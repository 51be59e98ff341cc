//go:build !race

package framework

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/rollback/rollbacktest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// A host feeding a spectator, and the spectator following it, allocate
// nothing an update once the spectator is live; the spectator reaches
// the host's hashes.
func TestSpectatorUpdateAllocatesNothing(t *testing.T) {
	nw, err := netsim.NewNetwork(3, netsim.Options{Latency: 20 * time.Millisecond, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	clock := timing.NewManualClock(0)
	trs := rollbacktest.NewTransports(nw, clock)
	const step = time.Second / 60
	world := func() (*ecs.App, *rollback.App) {
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
		return a, app
	}
	acts := input.NewActions()
	act, err := acts.Register("a", input.KeySpace)
	if err != nil {
		t.Fatal(err)
	}
	runs := make([]*netRun, 2)
	for i := range runs {
		_, app := world()
		o := rollback.Options{Self: i, Players: []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}},
			Actions: 1, Window: rollback.DefaultWindow, HashEvery: 10, Clock: clock}
		if i == 0 {
			o.LogBytes = 1 << 20
		}
		sess, err := rollback.NewSession(app, o)
		if err != nil {
			t.Fatal(err)
		}
		runs[i] = &netRun{app: app, sess: sess, tr: trs[i], self: i, peers: []int{1 - i}, local: []int{i}, seats: [][]input.Action{{act}},
			msg: make([]byte, 0, rollback.MaxMessage), buf: make([]byte, rollback.MaxMessage), step: step, spectatorDelay: 3}
	}
	// The spectator: its own world, fed by the host from the start.
	_, specApp := world()
	runs[0].spectatorEvent(netplay.Event{Peer: 2, Kind: netplay.Joined, Spectator: true})
	fol, err := rollback.NewFollower(specApp, 2, 1, 10, 0, clock)
	if err != nil {
		t.Fatal(err)
	}
	spec := &specRun{app: specApp, fol: fol, tr: trs[2], msg: make([]byte, 0, rollback.MaxMessage), buf: make([]byte, rollback.MaxMessage),
		step: runStep{half: step / 2, delay: 3}}
	var ticks [2]input.Tick
	var ctxs [3]runtime.TickContext
	n := 0
	update := func() {
		n++
		clock.Advance(step)
		for i, r := range runs {
			var recs [1]input.Record
			k := recs[:0]
			if (n/(7+i))%2 == 0 {
				k = append(k, input.Record{Kind: input.RecordPress, Time: clock.Now(), Button: input.KeySpace})
			}
			ticks[i].Fill(acts, clock.Now()-timing.Instant(step), clock.Now(), input.State{}, k)
			ctx := &ctxs[i]
			*ctx = runtime.TickContext{Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: step, Final: true}, Input: &ticks[i]}
			if err := r.update(ctx); err != nil {
				t.Fatal(err)
			}
		}
		ctxs[2] = runtime.TickContext{Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: step, Final: true}}
		if err := spec.update(&ctxs[2], -1); err != nil {
			t.Fatal(err)
		}
	}
	for range 600 {
		update()
	}
	if got := testing.AllocsPerRun(300, update); got != 0 {
		t.Errorf("a host feeding a spectator and the spectator allocate %v times an update, want 0", got)
	}
	tick, hash, ok := fol.LastHash()
	if !ok || tick < 800 {
		t.Fatalf("the spectator is at hash tick %d (ok %v), want it live (past 800)", tick, ok)
	}
	if want, ok := runs[0].app.HashAt(runs[0].sess, tick); !ok || want != hash {
		t.Errorf("spectator's hash at tick %d %016x, the host's %016x (ok %v)", tick, hash, want, ok)
	}
}
