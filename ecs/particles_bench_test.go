package ecs_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/render2d"
)

// BenchmarkParticles steps and draws 10,000 live particles per op;
// BenchmarkSpritesExtracted draws 10,000 sprites, for comparison.
func BenchmarkParticles(b *testing.B) {
	fx := sparks(false)
	fx.Rate, fx.Lifetime.Min, fx.Lifetime.Max = 0, time.Hour, time.Hour
	a := particleApp(b, 1, fx, 10_000, false)
	emitterOf(a).Burst = 10_000
	run(b, a, 1, 1)
	if got := len(emitterOf(a).Live()); got != 10_000 {
		b.Fatalf("live: got %d, want 10000", got)
	}
	var f render2d.Frame
	fw := render2d.NewFrameWriter(&f)
	b.ReportAllocs()
	n := uint64(1)
	for b.Loop() {
		n++
		_ = a.Update(tick(n, 0))
		f.Reset()
		_ = a.PrepareFrame(fw)
	}
}

func BenchmarkSpritesExtracted(b *testing.B) {
	a := newApp(b, ecs.Options{Seed: 1})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		for i := range 10_000 {
			spawnSprite(ctx.Commands, float32(i%300), float32(i/300%200), 0, speed{}, red)
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		b.Fatal(err)
	}
	var f render2d.Frame
	fw := render2d.NewFrameWriter(&f)
	b.ReportAllocs()
	n := uint64(0)
	for b.Loop() {
		n++
		_ = a.Update(tick(n, 0))
		f.Reset()
		_ = a.PrepareFrame(fw)
	}
}
