package main

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/ecs/ecstest"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
)

// TestSnapshotTravels plays Breakout in its demo mode (the paddle
// follows the ball), with seeded taps of the start and left keys, and
// every 97th tick sends the world's snapshot (ecs.Snapshot.AppendBinary)
// to a fresh game that played on its own until then with another seed,
// which decodes and restores it: both have the same hash, and keep it
// through the 97 ticks of the same input that follow. The ticks are
// arbitrary, so the serve timer and the wide paddle's end are pending at
// some of them (every brick drops a capsule, and the wide paddle lasts
// 2 s, so that some end inside the test): the test checks that both were
// sent at least once.
func TestSnapshotTravels(t *testing.T) {
	const every, sends = 97, 12
	sets := []string{"game.demo=true", "game.power_up_chance=1", "game.wide_time=2s"}
	taps := scriptTaps(25, every*(sends+1), every, []input.Button{input.KeySpace, input.KeyLeft})
	sender := seededSim(t, 17, sets...)
	scheduleTaps(sender, taps, 0)
	if err := sender.Step(every); err != nil {
		t.Fatal(err)
	}
	var serves, narrows int
	for at := every; at <= every*sends; at += every {
		receiver := seededSim(t, 5, sets...)
		scheduleTaps(receiver, taps, at)
		if err := receiver.Step(at); err != nil {
			t.Fatal(err)
		}
		h := ecstest.Hash(t, sender.App)
		serves += pending(h, "ecs.timers")
		narrows += pending(h, "ecs.queue")
		ecstest.Travel(t, sender.App, receiver.App)
		for k := range every {
			for _, sim := range []*frameworktest.Sim{sender, receiver} {
				if err := sim.Step(1); err != nil {
					t.Fatal(err)
				}
			}
			ecstest.SameHash(t, sender.App, receiver.App, at+1+k)
		}
		receiver.Close()
	}
	t.Logf("%d sends, %d with the serve pending, %d with the wide paddle's end pending", sends, serves, narrows)
	if serves == 0 || narrows == 0 {
		t.Errorf("sent %d times with the serve pending and %d with the wide paddle's end pending, want both at least once", serves, narrows)
	}
}

// seededSim is a headless Breakout whose random source starts at seed.
func seededSim(t testing.TB, seed uint64, sets ...string) *frameworktest.Sim {
	t.Helper()
	g := newGame()
	g.Seed = seed
	sim, err := frameworktest.New(g, frameworktest.Options{Sets: slices.Concat(small, sets)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	return sim
}

// pending returns 1 if the part of h named name counts pending events.
func pending(h ecs.Hash, name string) int {
	for _, p := range h.Types {
		if p.Name == name && p.Count > 0 {
			return 1
		}
	}
	return 0
}

// tap is a scripted press of Key at tick At, held for Hold ticks.
type tap struct {
	At, Hold int
	Key      input.Button
}

// scriptTaps scripts seeded taps of keys over ticks [0, to), none of
// them held across a multiple of gap (give or take two ticks), so that a
// game that starts taking the script there gets the same input as one
// that had it all along.
func scriptTaps(seed uint64, to, gap int, keys []input.Button) []tap {
	r := rand.New(rand.NewPCG(seed, 3))
	var taps []tap
	for at := 0; ; {
		at += 1 + r.IntN(40)
		hold := 1 + r.IntN(60)
		if at+hold >= to {
			return taps
		}
		key := keys[r.IntN(len(keys))]
		// The first multiple of gap at or after at-2 must come after
		// at+hold+2.
		if m := (at - 2 + gap - 1) / gap * gap; m > 0 && m <= at+hold+2 {
			continue
		}
		taps = append(taps, tap{At: at, Hold: hold, Key: key})
	}
}

// scheduleTaps gives sim the taps of the script that start after tick from.
func scheduleTaps(sim *frameworktest.Sim, taps []tap, from int) {
	for _, p := range taps {
		if p.At > from+2 || from == 0 {
			sim.Input.Tap(sim.At(time.Duration(p.At)*tick), p.Key, time.Duration(p.Hold)*tick)
		}
	}
}

// FuzzSnapshotDecode decodes random and mutated snapshots of Breakout
// into a fresh game, seeded with its snapshot after seeded play.
//
//	go test -run '^$' -fuzz FuzzSnapshotDecode -fuzztime 30s -fuzzminimizetime 1x ./examples/breakout
func FuzzSnapshotDecode(f *testing.F) {
	sim := breakoutSim(f)
	scheduleTaps(sim, scriptTaps(25, 600, 600, []input.Button{input.KeySpace, input.KeyLeft, input.KeyRight}), 0)
	if err := sim.Step(600); err != nil {
		f.Fatal(err)
	}
	ecstest.FuzzDecode(f, func(t testing.TB) *ecs.App { return breakoutSim(t).App }, ecstest.Encode(f, sim.App))
}

func breakoutSim(t testing.TB) *frameworktest.Sim { return seededSim(t, newGame().Seed) }
