package rollback_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// The state a session's App holds for a tick, loaded into a fresh App of
// the same game, gives it the hash the sender had at that tick, and both
// run on from there to the same hashes.
func TestStateTravels(t *testing.T) {
	players := []rollback.Player{{Peer: 0, Delay: 2}}
	app := paddleGame(t, 1)
	sim, err := rollback.NewApp(app, 8)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := rollback.NewSession(sim, rollback.Options{Self: 0, Players: players, Actions: 2, Window: 8})
	if err != nil {
		t.Fatal(err)
	}
	step := timing.DefaultInterval
	for n := range 300 {
		now := timing.Instant(time.Duration(n) * step)
		script(2, 0, sess.Tick()+2, sess.Local(0))
		ctx := runtime.TickContext{Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: step, Start: now, End: now + timing.Instant(step), Final: true}}
		if _, err := sim.Update(sess, &ctx); err != nil {
			t.Fatal(err)
		}
	}
	at := sess.Tick() - 1 // the latest tick saved
	state, err := sim.AppendState(nil, at)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sim.AppendState(nil, at-20); err == nil {
		t.Error("AppendState of a tick the ring no longer holds succeeded")
	}
	if _, err := sim.AppendState(nil, -1); err == nil || !strings.Contains(err.Error(), "allowed: 0 and above") {
		t.Errorf("AppendState of tick -1: %v, want it refused saying what is allowed", err)
	}

	fresh := paddleGame(t, 1)
	recv, err := rollback.NewApp(fresh, 8)
	if err != nil {
		t.Fatal(err)
	}
	if err := recv.LoadState(at, state[:len(state)-1]); !errors.Is(err, ecs.ErrSnapshot) {
		t.Errorf("LoadState of a truncated state: %v, want an ecs.ErrSnapshot", err)
	}
	if err := recv.LoadState(at, state); err != nil {
		t.Fatal(err)
	}
	if err := sim.Restore(at); err != nil {
		t.Fatal(err)
	}
	if got, want := recv.Hash(), sim.Hash(); got != want {
		t.Fatalf("hash after LoadState %x, want the sender's %x", got, want)
	}
	// Both run on alike, fed the same input without a session.
	in := [][]input.Stats{make([]input.Stats, 2)}
	for _, a := range []*ecs.App{app, fresh} {
		ecs.GetResource[rollback.Players](a.World()).SetLocal(in)
	}
	for k := at; k < at+200; k++ {
		script(5, 0, k, in[0])
		for _, a := range []*ecs.App{app, fresh} {
			tc := runtime.TickContext{Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: step, Number: uint64(k), Final: true}}
			if err := a.Update(&tc); err != nil {
				t.Fatal(err)
			}
		}
		if got, want := recv.Hash(), sim.Hash(); got != want {
			t.Fatalf("tick %d: hash %x, want the sender's %x", k, got, want)
		}
	}
}
