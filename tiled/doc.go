// Package tiled reads maps made with the Tiled map editor
// (mapeditor.org): .tmx and .tsx files (XML) and Tiled's JSON .tmj and
// .tsj files, into one model, [Map], whichever format a file was saved in.
// It uses the standard library, and klauspost/compress (pure Go) for zstd
// layers, and reads from any [io/fs.FS], so a game embeds its levels and a
// test uses fstest.MapFS.
//
// # Loading
//
//	m, err := tiled.Load(levels, "maps/level1.tmx", tiled.Options{})
//	if err != nil {
//		return err // names the file, the layer and what is allowed
//	}
//	ground := m.Layers[0]             // bottom first; groups nest
//	gid := ground.At(3, 7)            // a GID with its flip flags
//	ts, id := m.Tileset(gid)          // which tileset, which tile
//	img, src := ts.TileImage(id)      // the image file and the cell
//	solid := ts.Tile(id).Properties.Bool("solid")
//
// External tilesets and images are named relative to the file that names
// them and resolved to names in the same fs.FS ([Image.Source]); a path
// that leaves the file system's root is refused.
//
// # What is read
//
// Orthogonal maps, finite or infinite: tile layers in every encoding Tiled
// writes (CSV, base64, base64 with zlib, gzip or zstd compression, XML <tile>
// elements, JSON arrays), with an infinite map's chunks merged into one
// dense grid per layer ([Layer.X] and [Layer.Y] say where it starts);
// object layers with rectangles, points, ellipses, polygons, polylines,
// tile objects and text; image layers; group layers. Every layer keeps
// its opacity, tint, offset and parallax factor. Tilesets come from one
// image (with margin and spacing) or from a collection of images (with
// Tiled 1.9's sub-rectangles), embedded or external, with per-tile
// properties, collision shapes and animations. A [GID] keeps Tiled's flip
// flags in its top bits ([GID.ID] strips them). Custom properties of
// every type (string, int, float, bool, color, file, object and class
// with its members) are [Properties], plain strings sorted by name, with
// typed accessors. Objects made from templates (.tx and .tj files) take
// every attribute they do not override from their template, whose tile is
// renumbered into the map's GIDs ([Object.Template] names the file).
//
// Not read: isometric, staggered and hexagonal maps (refused with
// [media.ErrUnsupported]), Wang sets and terrain data (ignored: they are
// editor aids).
//
// # Bad input
//
// Every problem is an error, never a panic: a [*media.Error] with Pkg
// "tiled", the map's file as Path, and a cause that names the layer,
// tileset or object and what is allowed. A layer whose data holds more or
// fewer tiles than width*height, an unknown encoding, a GID beyond every
// tileset and a tileset file that is missing are all refused. Sizes are
// checked before memory is taken: [Options.MaxTiles] bounds each layer,
// and compressed data is inflated through a limit of the layer's declared
// size, so a small file that inflates without end costs no more than its
// declared layer; a zstd frame that asks for a window larger than its
// layer (rounded up to a power of two, at least 1 MiB) is refused before
// the decoder reserves it. FuzzTMX and FuzzTMJ hold both parsers to this.
//
// # Collision
//
// [SolidRects] turns the tiles of a layer that a predicate calls solid
// (usually a tile property, [SolidProperty]) into as few axis-aligned
// [geom.Rect] values as a greedy merge gives: each row's solid tiles into
// runs, then runs of equal extent in consecutive rows into one rectangle.
// The rectangles are in map pixels, ready for package geom's tests.
package tiled
