package ecs_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/runtime"
)

type runtimeTick = runtime.TickContext

// drift moves an entity along x every tick.
type drift struct{ VX float32 }

// movingSources is a rig with n positional looping sources drifting
// right, and a system playing a sound every tick.
func movingSources(tb testing.TB, n int) *audioRig { return moving(tb, n, true) }

func moving(tb testing.TB, n int, withAudio bool) *audioRig {
	return newRig(tb, withAudio, func(r *audioRig) {
		hum := r.sound("hum", 480, 0.001)
		blip := r.sound("blip", 48, 0.01)
		if r.au != nil {
			r.au.PanWidth = 100
		}
		r.app.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
			for i := range n {
				p := ctx.Commands.Spawn()
				ecs.With(p, ecs.At(float32(i%200), 0))
				ecs.With(p, drift{VX: 60})
				ecs.With(p, ecs.LoopingSource(hum))
			}
		}})
		var f *ecs.Filter2[ecs.Transform, drift]
		r.app.AddSystem(ecs.Update, ecs.System{Name: "move and shoot", Run: func(ctx *ecs.Sys) {
			if f == nil {
				f = ecs.NewFilter2[ecs.Transform, drift](ctx.World)
			}
			dt := float32(ctx.RunDeltaSeconds())
			q := f.Query()
			for q.Next() {
				tr, d := q.Get()
				tr.Position.X += d.VX * dt
				if tr.Position.X > 200 {
					tr.Position.X -= 200
				}
			}
			if _, err := ctx.PlaySound(blip, audio.DefaultParams()); err != nil {
				ctx.Fail(err)
			}
		}})
	})
}

// BenchmarkAudioTick is a tick of 1000 drifting entities with and without
// sound: "no audio" has no Audio resource, "silent" the audio system with a
// nil player, "sources" a looping positional source on every entity, panned
// every tick, and a sound played per tick. The mixer takes the requests
// between ticks, outside the timer.
func BenchmarkAudioTick(b *testing.B) {
	for _, mode := range []string{"no audio", "silent", "sources"} {
		b.Run(mode, func(b *testing.B) {
			r := moving(b, 1000, mode != "no audio")
			if mode == "silent" {
				r.au.Player = nil
			}
			buf := make([]float32, 2*800)
			r.ticks = nil
			start := time.Duration(0)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer() // the device's side: not the tick's cost
				r.m.Render(buf)
				b.StartTimer()
				r.tick(start, false)
				r.ticks = r.ticks[:0]
				start += audioStep
			}
		})
	}
}
