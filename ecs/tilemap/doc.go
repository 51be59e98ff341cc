// Package tilemap loads a level drawn in Tiled into an ECS world: the
// map and its tilesets (package tiled parses them) with their images in
// the asset library, then entities to draw and to play on.
//
// # Loading
//
// [Load] reads a .tmx or .tmj file with its tilesets from any fs.FS and
// registers its images with the asset library, in the foreground;
// [StartLoad] does the same in the background with the library's
// progress ([Loading]). [New] takes a map already parsed or made in code.
//
// # Spawning
//
// [Spawn] turns the map into entities: an [ecs.TileChunk] per block of
// tiles (and per image layer), which [ecs.AddTileMaps] draws, and an
// [Object] per object of the object layers, carrying its shape and custom
// properties. Solid tiles (a tile property chosen by the game) merge into
// collision rectangles ([Map.SolidRects]):
//
//	level, err := tilemap.Load(lib, levels, "level1.tmx", tiled.Options{})
//	ecs.AddTileMaps(app)
//	_, err = tilemap.Spawn(app.World().Commands(), level, tilemap.Options{})
//	walls, err := level.SolidRects("ground", "solid")
//
// Chunks and objects are plain data, so a snapshot and a rollback carry
// the map. See ExampleSpawn.
//
// The package is apart from ecs so that only a game that loads maps links
// the map parser and its decompressors (zstd among them): a game's
// browser build carries what it imports.
package tilemap
