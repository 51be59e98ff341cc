package ecs_test

import (
	"math"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
)

// TestHeadingAcrossPi: a heading kept in (-π, π] that wraps between two
// ticks (from π-0.1 to -π+0.1, a turn of 0.2) is drawn between them the
// short way, through π, with no teleport: halfway, the sprite points at π,
// not at 0 after half a turn the other way.
func TestHeadingAcrossPi(t *testing.T) {
	for _, turn := range []float32{0.2, -0.2} {
		a := newApp(t, ecs.Options{})
		from := float32(math.Pi) - 0.1
		if turn < 0 {
			from = -from
		}
		a.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
			e := ctx.Commands.Spawn()
			tr := ecs.At(10, 20)
			tr.Rotation = from
			ecs.With(e, tr)
			ecs.With(e, ecs.Sprite{Size: geom.Vec2{X: 4, Y: 4}, Origin: geom.Vec2{X: 2, Y: 2}, Tint: red})
		}})
		a.AddSystem(ecs.Update, ecs.System{Name: "turn", Run: func(ctx *ecs.Sys) {
			q := ecs.NewFilter1[ecs.Transform](ctx.World).Query()
			for q.Next() {
				tr := q.Get()
				tr.Rotation = float32(math.Remainder(float64(tr.Rotation+turn), 2*math.Pi)) // wrapped into [-π, π]
			}
		}})
		if err := a.InitSimulation(nil); err != nil {
			t.Fatal(err)
		}
		frames := playScript(t, a, rendertest.NewRecorder(320, 240, 1024), "F T F")
		f := frames[len(frames)-1]
		p := packetByTint(t, f, 0, red)
		if !p.Prev.Set || p.Prev.Rotation != from || math.Abs(float64(p.Transform.Rotation+from)) > 1e-5 {
			t.Fatalf("turn %v: previous %+v, current rotation %v; want from %v to %v", turn, p.Prev, p.Transform.Rotation, from, -from)
		}
		f.Present.Alpha = 0.5
		got := f.Resolved().Passes[0].Packets
		var half float32
		for _, q := range got {
			if q.Tint == red {
				half = q.Transform.Rotation
			}
		}
		// Halfway is π (or -π): its cosine is -1, where the long way
		// round passes through 0 (cosine 1).
		if c := math.Cos(float64(half)); c > -0.999 {
			t.Errorf("turn %v: drawn halfway at %v rad (cos %.3f), want ±π: the short way across ±π", turn, half, c)
		}
		if again := render2d.LerpAngle(p.Prev.Rotation, p.Transform.Rotation, 0.5); again != half {
			t.Errorf("turn %v: resolved %v, LerpAngle %v: the renderers' one arithmetic", turn, half, again)
		}
	}
}
