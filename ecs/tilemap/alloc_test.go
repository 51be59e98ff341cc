//go:build !race

package tilemap_test

import (
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/ecs/tilemap"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/tiled"
)

// TestMapFrameAllocations: drawing maps (animated tiles, parallax layers
// under a moving camera, culled chunks) allocates nothing per frame once
// the passes have grown.
func TestMapFrameAllocations(t *testing.T) {
	scene, lib, _ := loadedMap(t, "tiled/scene.tmx")
	a := newApp(t, ecs.Options{Assets: lib})
	ecs.AddTileMaps(a)
	spawnMap(t, a, scene, tilemap.Options{})
	own, err := tilemap.Load(lib, mapFS, "own/csv.tmx", tiled.Options{})
	if err != nil {
		t.Fatal(err)
	}
	spawnMap(t, a, own, tilemap.Options{Layer: 10})
	cmd := a.World().Commands()
	cam := cmd.Spawn()
	ecs.With(cam, ecs.At(0, 48))
	ecs.With(cam, ecs.Camera{Anchor: geom.V(0.5, 0.5), Viewport: geom.R(0, 0, 320, 240)})
	a.World().Apply()
	pan := ecs.NewFilter2[ecs.Transform, ecs.Camera](a.World())
	a.AddSystem(ecs.Update, ecs.System{Name: "pan", Run: func(ctx *ecs.Sys) {
		q := pan.Query()
		for q.Next() {
			tr, _ := q.Get()
			tr.Position.X += 3
		}
	}})
	frame := steadyAllocs(t, a, tick(0, 0.5))
	if n := len(frame.Passes[0].Packets); n == 0 {
		t.Fatal("no packets drawn")
	}
	if s := ecs.GetResource[ecs.TileMaps](a.World()).Stats(); s.Chunks == 0 || s.Tiles == 0 {
		t.Errorf("stats %+v: nothing drawn", s)
	}
	// Frames here follow one another without a tick between them, so
	// the previous placement is set but equal to the current one.
	var moved bool
	for _, p := range frame.Passes[0].Packets {
		moved = moved || (p.Prev.Set && p.Tint != (render2d.Color{}))
	}
	if !moved {
		t.Error("no parallax packet carries a previous placement under a moving camera")
	}
}
