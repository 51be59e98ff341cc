package main

import (
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/ecs/tilemap"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
)

// tick is one fixed step at the game's 60 Hz.
const tick = time.Second / 60

// small is the fake window's size in the tests: the game draws in its
// logical 480x270 whatever the window, and a small window keeps the test
// renderer's software framebuffer cheap. The tests of play start playing
// at once; those of the menus set game.title=true.
var small = []string{"window.width=240", "window.height=135", "game.title=false"}

// start runs a headless session of the game with the embedded config.toml
// and the given --set overrides, closed when the test ends.
func start(t *testing.T, sets ...string) *frameworktest.Sim {
	t.Helper()
	return startWith(t, frameworktest.Options{Sets: sets})
}

// startWith is start with more options; the test window's size is added
// to opts.Sets.
func startWith(t *testing.T, opts frameworktest.Options) *frameworktest.Sim {
	t.Helper()
	opts.Sets = slices.Concat(small, opts.Sets)
	sim, err := frameworktest.New(newGame(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := sim.Close(); err != nil {
			t.Errorf("closing the session: %v", err)
		}
	})
	return sim
}

// step runs n ticks and fails the test on an error.
func step(t *testing.T, sim *frameworktest.Sim, n int) {
	t.Helper()
	if err := sim.Step(n); err != nil {
		t.Fatalf("after %d ticks: %v", sim.Ticks(), err)
	}
}

// stepUntil steps one tick at a time until cond holds, at most limit
// ticks, and fails the test if it never does.
func stepUntil(t *testing.T, sim *frameworktest.Sim, limit int, what string, cond func() bool) {
	t.Helper()
	for range limit {
		step(t, sim, 1)
		if cond() {
			return
		}
	}
	t.Fatalf("after %d ticks: still not %s", sim.Ticks(), what)
}

// hold scripts b held from the start of tick n for ticks ticks (tick
// numbers count from 0).
func hold(sim *frameworktest.Sim, n int, b input.Button, ticks int) {
	sim.Input.Tap(sim.At(time.Duration(n)*tick), b, time.Duration(ticks)*tick)
}

// next is the number of the tick the next Step runs.
func next(sim *frameworktest.Sim) int { return int(sim.Ticks()) }

// player returns the player's transform and motion.
func player(t *testing.T, sim *frameworktest.Sim) (*ecs.Transform, *Player) {
	t.Helper()
	q := ecs.NewFilter2[ecs.Transform, Player](sim.App.World()).Query()
	defer q.Close()
	if !q.Next() {
		t.Fatal("no player")
	}
	return q.Get()
}

// feet returns the bottom middle of the player's box.
func feet(t *testing.T, sim *frameworktest.Sim) geom.Vec2 {
	t.Helper()
	tr, _ := player(t, sim)
	return geom.V(tr.Position.X, tr.Position.Y+playerHalfH)
}

// progress returns the game's Progress resource.
func progress(sim *frameworktest.Sim) *Progress {
	return ecs.GetResource[Progress](sim.App.World())
}

// screen returns the game's current screen.
func screen(sim *frameworktest.Sim) Screen {
	return ecs.GetResource[ecs.States[Screen]](sim.App.World()).Current()
}

// objects returns the map objects of a class still in the world.
func objects(sim *frameworktest.Sim, class string) []tilemap.Object {
	var out []tilemap.Object
	q := ecs.NewFilter1[tilemap.Object](sim.App.World()).Query()
	for q.Next() {
		if o := q.Get(); o.Class == class {
			out = append(out, *o)
		}
	}
	return out
}
