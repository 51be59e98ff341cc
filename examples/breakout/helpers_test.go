package main

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
)

// tick is one fixed step at the game's 120 Hz.
const tick = time.Second / 120

// small is the fake window's size in the tests. The game draws in its
// logical 960x540 whatever the window, so the logic is the same; a small
// window keeps the test renderer's software framebuffer (cleared every
// frame) cheap, above all under the race detector.
var small = []string{"window.width=320", "window.height=180"}

// start runs a headless session of the game with the embedded config.toml
// and the given --set overrides. It closes the session when the test ends.
func start(t *testing.T, sets ...string) *frameworktest.Sim {
	t.Helper()
	sim, err := frameworktest.New(newGame(), frameworktest.Options{Sets: slices.Concat(small, sets)})
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

// tapAt scripts a short press of b at the instant tick n's span starts:
// tick n takes it (tick numbers count from 0). Tapping at sim.Ticks()
// while paused reaches the next tick.
func tapAt(sim *frameworktest.Sim, n int, b input.Button) {
	sim.Input.Tap(sim.At(time.Duration(n)*tick), b, 2*tick)
}

// screen returns the game's current screen.
func screen(sim *frameworktest.Sim) Screen {
	return ecs.GetResource[ecs.States[Screen]](sim.App.World()).Current()
}

// progress returns the game's Progress resource.
func progress(sim *frameworktest.Sim) *Progress {
	return ecs.GetResource[Progress](sim.App.World())
}

// ball returns the ball's transform, body and velocity.
func ball(t *testing.T, sim *frameworktest.Sim) (*ecs.Transform, *Body, *Ball) {
	t.Helper()
	q := ecs.NewFilter3[ecs.Transform, Body, Ball](sim.App.World()).Query()
	defer q.Close()
	if !q.Next() {
		t.Fatal("no ball")
	}
	return q.Get()
}

// paddleOf returns the paddle's transform and body.
func paddleOf(t *testing.T, sim *frameworktest.Sim) (*ecs.Transform, *Body) {
	t.Helper()
	q := ecs.NewFilter3[ecs.Transform, Body, Paddle](sim.App.World()).Query()
	defer q.Close()
	if !q.Next() {
		t.Fatal("no paddle")
	}
	tr, b, _ := q.Get()
	return tr, b
}

// bricksLeft returns the boxes of the bricks standing.
func bricksLeft(sim *frameworktest.Sim) []geom.Rect {
	var out []geom.Rect
	q := ecs.NewFilter3[ecs.Transform, Body, Brick](sim.App.World()).Query()
	for q.Next() {
		tr, b, _ := q.Get()
		out = append(out, box(tr, b))
	}
	return out
}

// serve starts a game from the title screen with Space and steps until
// the ball is in play.
func serve(t *testing.T, sim *frameworktest.Sim) {
	t.Helper()
	tapAt(sim, int(sim.Ticks())+1, input.KeySpace)
	stepUntil(t, sim, 2000, "playing", func() bool { return screen(sim) == Playing })
}

// aim puts the ball at (x, y) with velocity v, in play.
func aim(t *testing.T, sim *frameworktest.Sim, x, y float32, v geom.Vec2) {
	t.Helper()
	tr, _, b := ball(t, sim)
	tr.Position = geom.Vec2{X: x, Y: y}
	b.Vel = v
}

// near reports whether a and b differ by at most 1/1000 of a pixel.
func near(a, b float32) bool { return a-b <= 1e-3 && b-a <= 1e-3 }

// playing starts a session and serves, so a test can aim the ball.
func playing(t *testing.T, sets ...string) *frameworktest.Sim {
	t.Helper()
	sim := start(t, sets...)
	serve(t, sim)
	return sim
}

// stepCounting counts the ticks of a step that ran in the Paused screen; step
// one tick at a time through it.
func stepCounting(t *testing.T, sim *frameworktest.Sim, n int, in Screen) int {
	t.Helper()
	count := 0
	for range n {
		step(t, sim, 1)
		if screen(sim) == in {
			count++
		}
	}
	return count
}

// sprite returns the ball's sprite.
func sprite(t *testing.T, sim *frameworktest.Sim) *ecs.Sprite {
	t.Helper()
	q := ecs.NewFilter2[ecs.Sprite, Ball](sim.App.World()).Query()
	defer q.Close()
	if !q.Next() {
		t.Fatal("no ball sprite")
	}
	s, _ := q.Get()
	return s
}

// bannerText returns the banner's text.
func bannerText(t *testing.T, sim *frameworktest.Sim) string {
	t.Helper()
	q := ecs.NewFilter2[ecs.Text, Label](sim.App.World()).Query()
	for q.Next() {
		if text, l := q.Get(); l.Shows == bannerLabel {
			q.Close()
			return text.Content
		}
	}
	t.Fatal("no banner")
	return ""
}

// tapAtRandom taps the left, D and space keys at random over span of the
// simulation's time, from the random stream (seed1, seed2): a tap every
// 0.1-1 s, held 20-620 ms, as the benchmarks' player.
func tapAtRandom(sim *frameworktest.Sim, seed1, seed2 uint64, span time.Duration) {
	r := rand.New(rand.NewPCG(seed1, seed2))
	keys := []input.Button{input.KeyLeft, input.KeyD, input.KeySpace}
	for at := time.Duration(0); at < span; at += time.Duration(100+r.IntN(900)) * time.Millisecond {
		sim.Input.Tap(sim.At(at), keys[r.IntN(len(keys))], time.Duration(20+r.IntN(600))*time.Millisecond)
	}
}
