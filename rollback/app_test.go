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

// TestFollowRunsTicksInThePresentUpdate checks that a follower's ticks run
// through App.Follow see the present update's timing, as a session's ticks
// run through App.Update do, with the App's delta and the streamed input:
// a spectator's systems read the same Time as the players'.
func TestFollowRunsTicksInThePresentUpdate(t *testing.T) {
	const step = time.Second / 60
	// The host: one local player, so every tick it runs is confirmed.
	host, err := rollback.NewApp(paddleGame(t, 1), 8)
	if err != nil {
		t.Fatal(err)
	}
	host.SetDelta(step)
	hs, err := rollback.NewSession(host, rollback.Options{Self: 0, Players: []rollback.Player{{Peer: 0}}, Actions: 2, Window: 8, HashEvery: 10, LogBytes: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	var ctx runtime.TickContext
	for k := range 30 {
		hs.Local(0)[0].Down = k%3 == 0
		if _, err := host.Update(hs, &ctx); err != nil {
			t.Fatal(err)
		}
	}
	// The follower's world records the Time each tick saw.
	world := paddleGame(t, 1)
	var seen []ecs.Time
	world.AddSystem(ecs.Update, ecs.System{Name: "see", Run: func(ctx *ecs.Sys) { seen = append(seen, *ctx.Time) }})
	app, err := rollback.NewApp(world, 0)
	if err != nil {
		t.Fatal(err)
	}
	app.SetDelta(step)
	fol, err := rollback.NewFollower(app, 1, 2, 10, 0, timing.NewManualClock(0))
	if err != nil {
		t.Fatal(err)
	}
	feed := hs.NewFeed(0)
	if err := feed.Receive(fol.AppendAck(nil)); err != nil { // asks from tick 0
		t.Fatal(err)
	}
	for range 8 {
		msg, more, err := feed.Append(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
		if err := fol.Receive(msg); err != nil {
			t.Fatal(err)
		}
	}
	present := runtime.TickContext{Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: step, Final: true}}
	present.Timing.Rate = 1.1
	n, err := app.Follow(fol, &present, time.Second, 30)
	if err != nil {
		t.Fatal(err)
	}
	if n != 30 || len(seen) != 30 {
		t.Fatalf("followed %d ticks, the system ran %d times; want 30", n, len(seen))
	}
	for k, tm := range seen {
		if tm.Kind != timing.FixedUpdate || !tm.Final || tm.Timing.Rate != 1.1 || tm.Delta != step {
			t.Fatalf("tick %d saw %+v; want the present update's kind, Final and rate, and the App's delta %v", k, tm.Update, step)
		}
	}
	if got, want := app.Hash(), host.Hash(); got != want {
		t.Errorf("the follower's world hash %#x, the host's %#x: want the same after the same confirmed ticks", got, want)
	}
}
