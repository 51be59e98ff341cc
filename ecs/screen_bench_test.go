package ecs_test

import (
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// BenchmarkExtractScreen measures PrepareFrame over 10,000 sprites and two
// cameras without a logical screen and with one the size of the tick's
// 320x240 window (so both cull the same sprites): the difference is the
// cost of laying the screen out and clearing the window, per frame.
func BenchmarkExtractScreen(b *testing.B) {
	for _, tt := range []struct {
		name   string
		screen render2d.Screen
	}{
		{"screen=none", render2d.Screen{}},
		{"screen=letterbox", render2d.Screen{Width: 320, Height: 240, ClearColor: render2d.Black}},
	} {
		b.Run(tt.name, func(b *testing.B) {
			a := newApp(b, ecs.Options{})
			if err := a.SetScreen(tt.screen); err != nil {
				b.Fatal(err)
			}
			cmd := a.World().Commands()
			for i := range benchEntities {
				p := cmd.Spawn()
				ecs.With(p, ecs.At(float32(i%100*4), float32(i/100*4)))
				ecs.With(p, ecs.Sprite{Size: geom.Vec2{X: 4, Y: 4}})
			}
			for _, c := range []ecs.Camera{{}, {Viewport: geom.Rect{X: 240, W: 80, H: 60}, Zoom: 0.25, Order: 1}} {
				p := cmd.Spawn()
				ecs.With(p, ecs.At(0, 0))
				ecs.With(p, c)
			}
			a.World().Apply()
			var frame render2d.Frame
			fw := render2d.NewFrameWriter(&frame)
			if err := a.Update(tick(1, 0.5)); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
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
