//go:build !race

package framework

import (
	"io"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/rollback/rollbacktest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// discardFile is a recording file that keeps nothing.
type discardFile struct{}

func (discardFile) Write(b []byte) (int, error) { return len(b), nil }
func (discardFile) Sync() error                 { return nil }
func (discardFile) Close() error                { return nil }

// A networked update that records the match (its settled ticks with
// every player's input, a checkpoint every tick, its pacing) allocates
// nothing in steady state, with rollbacks.
func TestNetRecordingAllocatesNothing(t *testing.T) {
	nw, err := netsim.NewNetwork(2, netsim.Options{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	clock := timing.NewManualClock(0)
	trs := rollbacktest.NewTransports(nw, clock)
	const step = time.Second / 60
	acts := input.NewActions()
	act, err := acts.Register("a", input.KeySpace)
	if err != nil {
		t.Fatal(err)
	}
	runs := make([]*netRun, 2)
	for i := range runs {
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
		sess, err := rollback.NewSession(app, rollback.Options{Self: i, Players: []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}},
			Actions: 1, Window: rollback.DefaultWindow, HashEvery: 1, Clock: clock})
		if err != nil {
			t.Fatal(err)
		}
		w, err := recording.NewWriter(io.Discard, "match.rec", recording.Header{Net: &recording.Net{Players: 2, Actions: 1, Peer: i}, CheckpointEvery: 1})
		if err != nil {
			t.Fatal(err)
		}
		w.SetClock(clock)
		m := &matchRecording{path: "match.rec", rec: &sessionRecording{path: "match.rec", w: w, f: discardFile{}}, every: 1, step: step, stop: -1}
		m.prepare(2)
		defer m.close(recording.Clean, "")
		runs[i] = &netRun{app: app, sess: sess, tr: trs[i], self: i, peers: []int{1 - i}, local: []int{i},
			msg: make([]byte, 0, rollback.MaxMessage), buf: make([]byte, rollback.MaxMessage), step: step,
			seats: [][]input.Action{{act}}, rec: m}
	}
	var ticks [2]input.Tick
	var ctxs [2]runtime.TickContext
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
			*ctx = runtime.TickContext{Update: timing.Update{Number: uint64(n), Kind: timing.FixedUpdate, Steps: 1, Delta: step, Final: true}, Input: &ticks[i]}
			if err := r.update(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	for range 600 {
		update()
	}
	if got := testing.AllocsPerRun(300, update); got != 0 {
		t.Errorf("a recorded networked update allocates %v times, want 0", got)
	}
	for i, r := range runs {
		if st := r.sess.Stats(); st.Rollbacks == 0 || st.Desyncs != 0 {
			t.Errorf("peer %d: stats %+v: want rollbacks and no desync", i, st)
		}
		if w := r.rec.rec.w; w.Ticks() < 800 || w.Checkpoints() < 800 {
			t.Errorf("peer %d recorded %d ticks and %d checkpoints in 900 updates", i, w.Ticks(), w.Checkpoints())
		}
	}
}
