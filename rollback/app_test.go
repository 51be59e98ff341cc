package rollback_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

type paddle struct {
	Player int32
	X, V   int64
}

// paddleGame is an App whose paddles move by their player's input and
// bounce off each other's speed: a misprediction changes every tick after.
func paddleGame(t testing.TB, players int) *ecs.App {
	t.Helper()
	a, err := ecs.NewApp(ecs.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var f *ecs.Filter1[paddle]
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		for p := range players {
			ecs.With(ctx.Commands.Spawn(), paddle{Player: int32(p)})
		}
	}})
	a.AddSystem(ecs.Update, ecs.System{Name: "move", Run: func(ctx *ecs.Sys) {
		if f == nil {
			f = ecs.NewFilter1[paddle](ctx.World)
		}
		pl := ecs.GetResource[rollback.Players](ctx.World)
		var sum int64
		q := f.Query()
		for q.Next() {
			p := q.Get()
			in := pl.Input(int(p.Player))
			if in[0].Down {
				p.V++
			}
			p.V += int64(in[1].Presses) * 5
			p.X += p.V
			sum += p.V
		}
		q = f.Query()
		for q.Next() {
			p := q.Get()
			p.V = (p.V*3 + sum) / 4
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	return a
}

func TestAppsOfTwoPeersStayInSync(t *testing.T) {
	nw, err := netsim.NewNetwork(2, netsim.Options{Latency: 60 * time.Millisecond, Jitter: 15 * time.Millisecond, Loss: 0.05, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
	type side struct {
		app  *ecs.App
		sim  *rollback.App
		sess *rollback.Session
	}
	var sides [2]side
	for i := range sides {
		app := paddleGame(t, 2)
		sim, err := rollback.NewApp(app, 8)
		if err != nil {
			t.Fatal(err)
		}
		s, err := rollback.NewSession(sim, rollback.Options{Self: i, Players: players, Actions: 2, Window: 8, HashEvery: 1})
		if err != nil {
			t.Fatal(err)
		}
		sides[i] = side{app, sim, s}
	}
	step := timing.DefaultInterval
	msg, buf := make([]byte, 0, 4096), make([]byte, 64<<10)
	for n := range 600 {
		now := timing.Instant(time.Duration(n) * step)
		for i := range sides {
			sd := &sides[i]
			for k, ok := nw.Link(1-i, i).Receive(now, buf); ok; k, ok = nw.Link(1-i, i).Receive(now, buf) {
				if err := sd.sess.Receive(buf[:k]); err != nil {
					t.Fatal(err)
				}
			}
			script(2, i, sd.sess.Tick()+2, sd.sess.Local(i))
			ctx := runtime.TickContext{Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: step, Start: now, End: now + timing.Instant(step), Final: true}}
			if _, err := sd.sim.Update(sd.sess, &ctx); err != nil {
				t.Fatal(err)
			}
			msg = sd.sess.AppendMessage(msg[:0])
			nw.Link(i, 1-i).Send(now, msg)
		}
	}
	for i, sd := range sides {
		st := sd.sess.Stats()
		if st.Rollbacks == 0 || st.Desyncs != 0 || st.Hashes < 400 {
			t.Errorf("peer %d: %d rollbacks, %d desyncs, %d hashes compared; want some rollbacks, no desync, most ticks compared", i, st.Rollbacks, st.Desyncs, st.Hashes)
		}
	}
}
