package main

// The tiles of assets/tiles.tsx, by their ID in the tileset (a map's GID is
// the ID plus the tileset's firstgid, 1 here). tiles_test.go draws
// assets/tiles.png from this list.
const (
	tileGrass   = iota // solid: the top of the ground
	tileDirt           // solid
	tileBrick          // solid: floating platforms
	tileStone          // solid: steps
	tileCloudL         // scenery of the back layer
	tileCloudR         //
	tileBush           //
	tileCoin           // a coin, first frame of its animation
	tileCoin2          // a coin, turned
	tileExit           // the flag at the end of the level
	tilePlayer         // the player (drawn as a sprite, not placed in the map)
	tileHillTop        // the back layer's hills
	tileHill           //
	tileCount   = 16   // the tileset's cells, 8 a row, the last ones empty
)
