package tilemap_test

import (
	"fmt"
	"os"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/ecs/tilemap"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
	"github.com/metronome-go/metronome/tiled"
)

// A level drawn in Tiled becomes entities, drawn layers and collision
// rectangles. A game loads it at set-up as here (the Upload belongs to
// the graphics thread, in InitPlatform), or in the background with
// tilemap.StartLoad behind a loading screen.
func ExampleSpawn() {
	lib, _ := assets.NewLibrary(assets.DefaultOptions())
	level, err := tilemap.Load(lib, os.DirFS("../../tiled/testdata"), "own/csv.tmx", tiled.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = lib.Upload(rendertest.NewRecorder(320, 240, 4096)) // the renderer, on the graphics thread

	app, _ := ecs.NewApp(ecs.Options{Assets: lib})
	ecs.AddTileMaps(app)
	st, err := tilemap.Spawn(app.World().Commands(), level, tilemap.Options{Layer: -10})
	if err != nil {
		fmt.Println(err)
		return
	}
	app.World().Apply()
	walls, _ := level.SolidRects("ground", "solid")

	coins := ecs.NewFilter2[ecs.Transform, tilemap.Object](app.World())
	q := coins.Query()
	for q.Next() {
		if _, o := q.Get(); o.Name == "coin" {
			fmt.Printf("coin: object %d, tile %d\n", o.ID, o.GID.ID())
		}
	}
	var frame render2d.Frame
	_ = app.PrepareFrame(render2d.NewFrameWriter(&frame))
	fmt.Printf("%d chunks of %d tiles, %d objects\n", st.Chunks, st.Tiles, st.Objects)
	fmt.Printf("walls: %v\n", walls)
	fmt.Printf("packets drawn: %d\n", frame.PacketCount())
	// Output:
	// coin: object 6, tile 2
	// 3 chunks of 19 tiles, 7 objects
	// walls: [{0 0 16 32} {48 16 16 16} {0 32 64 16}]
	// packets drawn: 18
}
