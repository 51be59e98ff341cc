package tiled_test

import (
	"fmt"
	"os"

	"github.com/metronome-go/metronome/tiled"
)

func ExampleLoad() {
	m, err := tiled.Load(os.DirFS("testdata"), "own/zlib.tmx", tiled.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ground := &m.Layers[0]
	g := ground.At(1, 1)
	ts, id := m.Tileset(g)
	img, src := ts.TileImage(id)
	fmt.Printf("%s: %dx%d tiles of %dx%d\n", m.Path, m.Width, m.Height, m.TileWidth, m.TileHeight)
	fmt.Printf("tile (1, 1): GID %d flipped %v, tile %d of %s, %v of %s\n", g.ID(), g.FlippedH(), id, ts.Name, src, img.Source)
	fmt.Println("solid:", tiled.SolidRects(m, ground, tiled.SolidProperty("solid")))
	for _, o := range m.Layers[1].Objects[:2] {
		fmt.Printf("object %d %q: %v at (%v, %v)\n", o.ID, o.Name, o.Shape, o.X, o.Y)
	}
	// Output:
	// own/zlib.tmx: 4x3 tiles of 16x16
	// tile (1, 1): GID 4 flipped true, tile 3 of terrain, {16 16 16 16} of own/terrain.png
	// solid: [{0 0 16 32} {48 16 16 16} {0 32 64 16}]
	// object 1 "spawn": point at (8, 24)
	// object 2 "zone": rectangle at (0, 0)
}

func ExampleLoad_error() {
	_, err := tiled.Load(os.DirFS("testdata"), "own/zstd.tmx", tiled.Options{})
	fmt.Println(err)
	// Output:
	// tiled: load map own/zstd.tmx: tile layer "ground": zstd compression is not supported (no zstd decoder is available to this build): save the map with zlib or gzip compression, or none
}
