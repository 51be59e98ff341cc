package ecs_test

import (
	"fmt"
	"math"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// A spark fountain: a simulated emitter (hashed, rolled back, drawn from
// the seeded random source) spawned with its position, and the particle
// systems added once. A cosmetic effect would use NewCosmeticEmitter the
// same way.
func ExampleNewEmitter() {
	app, err := ecs.NewApp(ecs.Options{Seed: 7})
	if err != nil {
		fmt.Println(err)
		return
	}
	ecs.AddParticles(app)
	sparks, err := ecs.NewEmitter(ecs.ParticleEffect{
		Rate:     100,                                                                         // two a tick of 20 ms
		Lifetime: ecs.DurationRange{Min: 200 * time.Millisecond, Max: 200 * time.Millisecond}, // ten ticks
		Speed:    ecs.Range{Min: 40, Max: 80},
		Angle:    ecs.Range{Min: -math.Pi, Max: 0},
		Gravity:  geom.Vec2{Y: 200},
		Size:     ecs.Curve{Start: 3, End: 1},
		Color:    ecs.ColorCurve{Start: render2d.White, End: render2d.Color{R: 1, G: 0.5, A: 1}},
		Alpha:    ecs.Curve{Start: 1, End: 0},
	}, 256)
	if err != nil {
		fmt.Println(err)
		return
	}
	app.AddSystem(ecs.Startup, ecs.System{Name: "fountain", Run: func(ctx *ecs.Sys) {
		e := ctx.Commands.Spawn()
		ecs.With(e, ecs.At(160, 200))
		ecs.With(e, sparks)
	}})
	if err := app.InitSimulation(nil); err != nil {
		fmt.Println(err)
		return
	}
	for n := uint64(1); n <= 30; n++ {
		if err := app.Update(tick(n, 0)); err != nil {
			fmt.Println(err)
			return
		}
	}
	q := ecs.NewFilter1[ecs.Emitter](app.World()).Query()
	q.Next()
	fmt.Println("live sparks after 30 ticks:", len(q.Get().Live()))
	q.Close()
	// Output:
	// live sparks after 30 ticks: 20
}

// A size that swells to 6 in the first fifth of a particle's life, holds,
// and shrinks to nothing, written in code and as the text a config key
// holds (a [game] field of type ecs.Curve reads it).
func ExampleCurve() {
	swell := ecs.Curve{Start: 2, End: 0, Stops: [ecs.MaxCurveStops]ecs.Stop{{At: 0.2, Value: 6}, {At: 0.75, Value: 6}}}
	var fromText ecs.Curve
	if err := fromText.UnmarshalText([]byte("0:2, 0.2:6, 0.75:6, 1:0")); err != nil {
		fmt.Println(err)
		return
	}
	text, _ := swell.MarshalText()
	fmt.Println(string(text), fromText == swell)
	for _, f := range []float32{0, 0.1, 0.5, 0.875, 1} {
		fmt.Printf("%v:%v ", f, swell.At(f))
	}
	fmt.Println()
	// Output:
	// 0:2, 0.2:6, 0.75:6, 1:0 true
	// 0:2 0.1:4 0.5:6 0.875:3 1:0
}
