package tiled_test

import (
	"fmt"
	"os"
	"testing/fstest"

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
	// A map that names a tileset that is not there.
	fsys := fstest.MapFS{"m.tmj": {Data: []byte(`{"type":"map","orientation":"orthogonal","width":1,"height":1,"tilewidth":8,"tileheight":8,
		"tilesets":[{"firstgid":1,"source":"gone.tsj"}],"layers":[]}`)}}
	_, err := tiled.Load(fsys, "m.tmj", tiled.Options{})
	fmt.Println(err)
	// Output:
	// tiled: load map m.tmj: tileset gone.tsj (firstgid 1): open gone.tsj: file does not exist
}
