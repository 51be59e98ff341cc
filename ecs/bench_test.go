package ecs_test

import (
	"fmt"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/render2d"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

const benchEntities = 10_000

type vel struct{ X, Y float32 }

// BenchmarkMovement compares one movement loop over 10,000 entities written
// directly on Arche with the same loop through this package. Read the ratio
// of the ns/op figures; both run in the same process.
func BenchmarkMovement(b *testing.B) {
	const dt = float32(1.0 / 60)
	b.Run("arche", func(b *testing.B) {
		w := arche.NewWorld()
		m := generic.NewMap2[ecs.Transform, vel](&w)
		for i := range benchEntities {
			t := ecs.At(float32(i), 0)
			m.NewWith(&t, &vel{1, 2})
		}
		f := generic.NewFilter2[ecs.Transform, vel]()
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			q := f.Query(&w)
			for q.Next() {
				t, v := q.Get()
				t.Position.X += v.X * dt
				t.Position.Y += v.Y * dt
			}
		}
	})
	b.Run("ecs.Filter2", func(b *testing.B) {
		w := ecs.NewWorld()
		spawnMovers(w, benchEntities)
		f := ecs.NewFilter2[ecs.Transform, vel](w)
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			q := f.Query()
			for q.Next() {
				t, v := q.Get()
				t.Position.X += v.X * dt
				t.Position.Y += v.Y * dt
			}
		}
	})
}

// BenchmarkMovementApp is the same loop as a system of an App, run by the
// Update hook: it adds the tick bookkeeping, the sync point and the
// per-tick Transform snapshot that interpolation needs. The "quiet"
// variant runs quiet ticks, which skip the snapshot.
func BenchmarkMovementApp(b *testing.B) {
	for _, quiet := range []bool{false, true} {
		name := "final"
		if quiet {
			name = "quiet"
		}
		b.Run(name, func(b *testing.B) {
			a := newApp(b, ecs.Options{})
			spawnMovers(a.World(), benchEntities)
			const dt = float32(1.0 / 60)
			f := ecs.NewFilter2[ecs.Transform, vel](a.World())
			a.AddSystem(ecs.Update, ecs.System{Name: "move", Run: func(ctx *ecs.Context) {
				q := f.Query()
				for q.Next() {
					t, v := q.Get()
					t.Position.X += v.X * dt
					t.Position.Y += v.Y * dt
				}
			}})
			tk := tick(0, 0)
			tk.Quiet, tk.Final = quiet, !quiet
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				tk.Number++
				if err := a.Update(tk); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExtract measures PrepareFrame over 10,000 sprites (one camera,
// three layers, a tenth of them off screen) and reports the cost per sprite.
func BenchmarkExtract(b *testing.B) {
	for _, layers := range []int{1, 3} {
		b.Run(fmt.Sprintf("layers=%d", layers), func(b *testing.B) {
			a := newApp(b, ecs.Options{})
			cmd := a.World().Commands()
			for i := range benchEntities {
				p := cmd.Spawn()
				x := float32(i % 100 * 4)
				if i%10 == 0 {
					x = -1000
				}
				ecs.With(p, ecs.At(x, float32(i/100*4)))
				ecs.With(p, ecs.Sprite{Size: ecs.Vec2{X: 4, Y: 4}, Layer: int16((i * 7) % layers)})
			}
			a.World().Apply()
			for n := uint64(1); n <= 2; n++ {
				if err := a.Update(tick(n, 0.5)); err != nil {
					b.Fatal(err)
				}
			}
			var frame render2d.Frame
			fw := render2d.NewFrameWriter(&frame)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				frame.Reset()
				if err := a.PrepareFrame(fw); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchEntities, "ns/sprite")
		})
	}
}

func spawnMovers(w *ecs.World, n int) {
	cmd := w.Commands()
	for i := range n {
		p := cmd.Spawn()
		ecs.With(p, ecs.At(float32(i), 0))
		ecs.With(p, vel{1, 2})
	}
	w.Apply()
}
