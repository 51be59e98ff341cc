// Package pagegame is a small session made without the framework, for
// the test that serves the inspector from a page (inspect.ServeInPage):
// the same session built natively and in the page must answer the same.
package pagegame

import (
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// Walker walks on, its speed changed by the seeded random source.
type Walker struct{ X, V float32 }

// Ticks is how many ticks Replay runs.
const Ticks = 300

// Replay runs Ticks ticks of the session and returns the seek engine
// over them.
func Replay() (*inspect.Replay, error) {
	app, err := ecs.NewApp(ecs.Options{Seed: 45})
	if err != nil {
		return nil, err
	}
	app.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		ecs.With(ctx.Commands.Spawn(), Walker{V: 1})
	}})
	walkers := ecs.NewFilter1[Walker](app.World())
	app.AddSystem(ecs.Update, ecs.System{Name: "walk", Run: func(ctx *ecs.Sys) {
		q := walkers.Query()
		for q.Next() {
			w := q.Get()
			w.X += w.V
			w.V += float32(ctx.Rand.IntN(5)-2) / 8
		}
	}})
	if err := app.InitSimulation(nil); err != nil {
		return nil, err
	}
	rep, err := inspect.NewReplay(app, app.Update, input.NewActions(), inspect.Options{KeyframeEvery: 50})
	if err != nil {
		return nil, err
	}
	const step = time.Second / 60
	for i := range uint64(Ticks) {
		tc := runtime.TickContext{Update: timing.Update{Kind: timing.FixedUpdate, Delta: step, Number: i, Steps: 1,
			Start: timing.Instant(i) * timing.Instant(step), End: timing.Instant(i+1) * timing.Instant(step)}}
		if err := app.Update(&tc); err != nil {
			return nil, err
		}
		if err := rep.Observe(&tc); err != nil {
			return nil, err
		}
	}
	return rep, rep.Finish()
}
