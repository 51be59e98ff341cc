package main

import (
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/ecs/ecstest"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// duelRollback is a rollback of the duel after 600 to 1,200 ticks of
// seeded play, in whose 8 ticks run again both ships fire on the first and
// turn, so that shots spawn inside the window while older ones fly out
// of the arena: the case where a restore rebuilds the world's entities.
func duelRollback(t testing.TB) ecstest.Rollback {
	t.Helper()
	g := newGame()
	var actions *input.Actions
	setup := g.Setup
	g.Setup = func(s *framework.Setup) error {
		actions = s.Actions
		return setup(s)
	}
	sim, err := frameworktest.New(g, frameworktest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	for seat := range seatKeys {
		randomSeat(sim, seat, 1200, 5)
	}
	if err := sim.Step(600); err != nil {
		t.Fatal(err)
	}
	const depth = 8
	// Play on to a tick where both ships may fire and a shot in the air
	// leaves the arena or runs out inside the window.
	ships, shots := ecs.NewFilter1[Ship](sim.App.World()), ecs.NewFilter2[ecs.Transform, Shot](sim.App.World())
	ready := func() bool {
		for q := ships.Query(); q.Next(); {
			if q.Get().Reload > 0 {
				q.Close()
				return false
			}
		}
		ending := false
		for q := shots.Query(); q.Next(); {
			t, s := q.Get()
			p := t.Position.Add(s.Step.Scale(depth - 1))
			ending = ending || s.Life < depth || p.X < 0 || p.Y < 0 || p.X > arenaW || p.Y > arenaH
		}
		return ending
	}
	for range 600 {
		if ready() {
			break
		}
		if err := sim.Step(1); err != nil {
			t.Fatal(err)
		}
	}
	if !ready() {
		t.Fatal("no tick of the seeded play from 600 to 1,200 has both ships ready to fire and a shot running out")
	}
	var in [depth]input.Tick
	var held input.State
	held.Down.Add(seatKeys[0].right)
	held.Down.Add(seatKeys[1].left)
	for i := range in {
		start := timing.Instant(i) * timing.Instant(tick)
		end := start + timing.Instant(tick)
		switch i {
		case 0:
			in[0].Fill(actions, start, end, input.State{}, []input.Record{
				{Kind: input.RecordPress, Time: start, Button: seatKeys[0].right},
				{Kind: input.RecordPress, Time: start, Button: seatKeys[1].left},
				{Kind: input.RecordPress, Time: start, Button: seatKeys[0].fire},
				{Kind: input.RecordPress, Time: start, Button: seatKeys[1].fire},
				{Kind: input.RecordRelease, Time: start + 1, Button: seatKeys[0].fire},
				{Kind: input.RecordRelease, Time: start + 1, Button: seatKeys[1].fire},
			})
		default:
			in[i].Fill(actions, start, end, held, nil)
		}
	}
	return ecstest.Rollback{App: sim.App, Next: sim.Ticks(), Step: tick, Depth: depth,
		Input: func(i int, t *runtime.TickContext) { t.Input = &in[i] }}
}

// BenchmarkRollback measures what a rollback costs the duel in play: a
// restore, 8 ticks run again in which shots spawn and despawn, and a
// save (the budget: no allocation), and save and restore alone per
// entity.
//
//	go test -run '^$' -bench Rollback ./examples/duel
func BenchmarkRollback(b *testing.B) { duelRollback(b).Bench(b) }
