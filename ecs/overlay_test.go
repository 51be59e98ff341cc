package ecs_test

import (
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// overlayPass adds, like package ui's draw, an Extract system that draws
// one quad in a pass of its own over the built-in ones. Added before the
// particles, it runs before their draw system.
func overlayPass(a *ecs.App) {
	a.AddSystem(ecs.Extract, ecs.System{Name: "overlay", Run: func(ctx *ecs.Sys) {
		pw := ctx.Frame.BeginPass(render2d.PassDesc{Camera: render2d.Camera{Size: geom.Vec2{X: 100, Y: 100}}})
		pw.Draw(render2d.DrawPacket2D{Size: geom.Vec2{X: 1, Y: 1}, Tint: render2d.White, Layer: 99})
	}})
}

// TestParticlesUnderAnOverlay: a pass begun after the built-in extraction
// (a menu's) leaves the particles in the built-in pass, drawn by the
// world's camera (package ecs/tilemap tests the same of tile maps).
func TestParticlesUnderAnOverlay(t *testing.T) {
	fx := sparks(false)
	p := newApp(t, ecs.Options{Seed: 1})
	overlayPass(p)
	ecs.AddParticles(p)
	em, err := ecs.NewEmitter(fx, 16)
	if err != nil {
		t.Fatal(err)
	}
	p.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
		e := ctx.Commands.Spawn()
		ecs.With(e, ecs.At(10, 10))
		ecs.With(e, em)
	}})
	if err := p.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	run(t, p, 1, 2)
	f := prepare(t, p)
	if len(f.Passes) != 2 || len(f.Passes[0].Packets) != 4 || len(f.Passes[1].Packets) != 1 {
		n := make([]int, len(f.Passes))
		for i := range f.Passes {
			n[i] = len(f.Passes[i].Packets)
		}
		t.Errorf("packets per pass %v, want [4 1]: the particles in the world's pass", n)
	}
}
