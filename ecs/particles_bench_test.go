package ecs_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/render2d"
)

// benchSizes are the counts: particles against as many sprites.
var benchSizes = []struct {
	name string
	n    int
}{{"10k", 10_000}, {"50k", 50_000}}

// BenchmarkParticles steps and draws 10,000 and 50,000 live particles
// per op; BenchmarkSpritesExtracted draws as many sprites, for
// comparison (go test ./ecs -run '^$' -bench 'Particles|SpritesExtracted').
func BenchmarkParticles(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(size.name, func(b *testing.B) { benchParticles(b, size.n) })
	}
}

func benchParticles(b *testing.B, count int) {
	fx := sparks(false)
	fx.Rate, fx.Lifetime.Min, fx.Lifetime.Max = 0, time.Hour, time.Hour
	a := particleApp(b, 1, fx, count, false)
	emitterOf(a).Burst = count
	run(b, a, 1, 1)
	if got := len(emitterOf(a).Live()); got != count {
		b.Fatalf("live: got %d, want %d", got, count)
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
	for _, size := range benchSizes {
		b.Run(size.name, func(b *testing.B) { benchSprites(b, size.n) })
	}
}

func benchSprites(b *testing.B, count int) {
	a := newApp(b, ecs.Options{Seed: 1})
	a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		for i := range count {
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
