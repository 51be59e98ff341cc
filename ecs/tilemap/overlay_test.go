package tilemap_test

import (
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/ecs/tilemap"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// overlayPass adds, like package ui's draw, an Extract system that draws
// one quad in a pass of its own over the built-in ones. Added before the
// tile maps and the particles, it runs before their draw systems.
func overlayPass(a *ecs.App) {
	a.AddSystem(ecs.Extract, ecs.System{Name: "overlay", Run: func(ctx *ecs.Sys) {
		pw := ctx.Frame.BeginPass(render2d.PassDesc{Camera: render2d.Camera{Size: geom.Vec2{X: 100, Y: 100}}})
		pw.Draw(render2d.DrawPacket2D{Size: geom.Vec2{X: 1, Y: 1}, Tint: render2d.White, Layer: 99})
	}})
}

// TestMapUnderAnOverlay: a pass begun after the built-in
// extraction (a menu's) leaves the map's tiles in the built-in pass,
// drawn by the world's camera; they went into the last pass, the
// overlay's, so a title menu hid the whole level.
func TestMapUnderAnOverlay(t *testing.T) {
	tm, lib, rec := loadedMap(t, "own/csv.tmx")
	a := newApp(t, ecs.Options{Assets: lib})
	overlayPass(a)
	ecs.AddTileMaps(a)
	spawnMap(t, a, tm, tilemap.Options{Layer: -10})
	if err := a.Update(tick(1, 0)); err != nil {
		t.Fatal(err)
	}
	f := prepareWith(t, a, rec)
	if len(f.Passes) != 2 {
		t.Fatalf("%d passes, want the world's and the overlay's", len(f.Passes))
	}
	if got, want := len(f.Passes[0].Packets), 9+8+1; got != want {
		t.Errorf("the world's pass has %d packets, want the map's %d", got, want)
	}
	if got := len(f.Passes[1].Packets); got != 1 {
		t.Errorf("the overlay's pass has %d packets, want its own 1", got)
	}

}
