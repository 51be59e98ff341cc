//go:build !race

package rollback_test

import (
	"testing"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// Two sessions exchanging messages directly, one tick apart, so every
// update confirms inputs late and some roll back: steady state allocates
// nothing.
func TestSteadyUpdateAllocatesNothing(t *testing.T) {
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
	var ss [2]*rollback.Session
	for i := range ss {
		sim := newToy(8)
		sim.present = nil
		s, err := rollback.NewSession(sim, rollback.Options{Self: i, Players: players, Actions: 2, Window: 8, HashEvery: 1, Clock: timing.NewManualClock(0)})
		if err != nil {
			t.Fatal(err)
		}
		ss[i] = s
	}
	var inflight [2][4][]byte // messages held back 4 updates
	for i := range inflight {
		for j := range inflight[i] {
			inflight[i][j] = make([]byte, 0, 4096)
		}
	}
	n := 0
	update := func() {
		for i, s := range ss {
			script(3, i, s.Tick()+2, s.Local(i))
			if _, err := s.Advance(); err != nil {
				t.Fatal(err)
			}
			slot := n % 4
			if old := inflight[i][slot]; len(old) > 0 {
				if err := ss[1-i].Receive(old); err != nil {
					t.Fatal(err)
				}
			}
			inflight[i][slot] = s.AppendMessage(inflight[i][slot][:0])
		}
		n++
	}
	for range 200 {
		update()
	}
	if a := testing.AllocsPerRun(500, update); a != 0 {
		t.Errorf("%v allocations per update of two sessions, want 0", a)
	}
	if st := ss[0].Stats(); st.Rollbacks == 0 || st.Desyncs != 0 {
		t.Errorf("%d rollbacks, %d desyncs; want some rollbacks and no desync", st.Rollbacks, st.Desyncs)
	}
}

// Two ECS peers, messages held back four updates: steady updates,
// rollbacks included, allocate nothing (the world's structure is fixed).
func TestSteadyAppUpdateAllocatesNothing(t *testing.T) {
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
	var sims [2]*rollback.App
	var ss [2]*rollback.Session
	for i := range ss {
		sim, err := rollback.NewApp(paddleGame(t, 2), 8)
		if err != nil {
			t.Fatal(err)
		}
		s, err := rollback.NewSession(sim, rollback.Options{Self: i, Players: players, Actions: 2, Window: 8, HashEvery: 1, Clock: timing.NewManualClock(0)})
		if err != nil {
			t.Fatal(err)
		}
		sims[i], ss[i] = sim, s
	}
	var inflight [2][4][]byte
	for i := range inflight {
		for j := range inflight[i] {
			inflight[i][j] = make([]byte, 0, 4096)
		}
	}
	ctx := runtime.TickContext{Update: timing.Update{Kind: timing.FixedUpdate, Steps: 1, Delta: timing.DefaultInterval, Final: true}}
	n := 0
	update := func() {
		for i, s := range ss {
			script(4, i, s.Tick()+2, s.Local(i))
			if _, err := sims[i].Update(s, &ctx); err != nil {
				t.Fatal(err)
			}
			slot := n % 4
			if old := inflight[i][slot]; len(old) > 0 {
				if err := ss[1-i].Receive(old); err != nil {
					t.Fatal(err)
				}
			}
			inflight[i][slot] = s.AppendMessage(inflight[i][slot][:0])
		}
		n++
	}
	for range 200 {
		update()
	}
	if a := testing.AllocsPerRun(300, update); a != 0 {
		t.Errorf("%v allocations per update of two ECS peers, want 0", a)
	}
	if st := ss[0].Stats(); st.Rollbacks == 0 || st.Desyncs != 0 {
		t.Errorf("%d rollbacks, %d desyncs; want some rollbacks and no desync", st.Rollbacks, st.Desyncs)
	}
}
