package tiled

import (
	"time"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
)

// Map is an orthogonal Tiled map, read from a .tmx or a .tmj file. Both
// formats load into this one model: a game never asks which it was.
type Map struct {
	// Path is the map's file name in the fs.FS it was loaded from; image
	// and tileset paths below are resolved against it and are names in the
	// same fs.FS.
	Path string
	// Class is the map's class ("type" before Tiled 1.9).
	Class string
	// RenderOrder is Tiled's "right-down" (the default), "right-up",
	// "left-down" or "left-up"; it only says how Tiled itself draws.
	RenderOrder string
	// Width and Height are the map's size in tiles (for an infinite map,
	// the size Tiled shows; the layers hold their own bounds).
	Width, Height int
	// TileWidth and TileHeight are the grid cell's size in pixels.
	TileWidth, TileHeight int
	// Infinite maps store tile layers in chunks; their layers' X and Y
	// give where the dense grid begins, possibly negative.
	Infinite bool
	// ParallaxOrigin is the point, in map pixels, where parallax layers
	// line up whatever their factor.
	ParallaxOrigin geom.Vec2
	// BackgroundColor is zero (transparent) when the map has none.
	BackgroundColor render2d.Color
	// Tilesets in GID order, each with its FirstGID.
	Tilesets []*Tileset
	// Layers in drawing order, bottom first; groups nest.
	Layers     []Layer
	Properties Properties
}

// Tileset is a set of tiles: cells of one image (Image set, Columns > 0)
// or an image collection (each Tile with an Image of its own).
type Tileset struct {
	// FirstGID is the GID of the tileset's tile 0 in the map that loaded
	// it.
	FirstGID uint32
	// Source is the external tileset's file name in the fs.FS, "" for a
	// tileset embedded in the map.
	Source string
	Name   string
	Class  string
	// TileWidth and TileHeight are the cell size (for a collection, the
	// largest tile).
	TileWidth, TileHeight int
	// Spacing between cells and Margin around them in Image, in pixels.
	Spacing, Margin int
	// TileCount is the number of tiles; Columns the cells per row of
	// Image (zero for a collection).
	TileCount, Columns int
	// TileOffset shifts every tile when drawn, in pixels.
	TileOffset geom.Vec2
	// ObjectAlignment is where tile objects are anchored: "unspecified"
	// (bottom-left on orthogonal maps), "topleft", "top", ... "bottomright".
	ObjectAlignment string
	// Image is the tileset's one image; zero Source for a collection.
	Image Image
	// Tiles are the tiles with something of their own (properties, an
	// image, an animation, collision shapes), by ascending ID.
	Tiles      []Tile
	Properties Properties
}

// Image is an image file a tileset, tile or image layer draws.
type Image struct {
	// Source is the file's name in the fs.FS the map came from, resolved
	// against the file that named it.
	Source string
	// Width and Height are the size Tiled recorded, zero when unknown.
	Width, Height int
	// Trans is the colour drawn transparent, if HasTrans.
	Trans    render2d.Color
	HasTrans bool
}

// Tile is one tile of a tileset that has data of its own.
type Tile struct {
	ID    int
	Class string
	// Image is the tile's own image in an image collection, zero otherwise.
	Image Image
	// Rect is the part of Image the tile shows (Tiled 1.9+ sub-rectangles);
	// zero means the whole image.
	Rect geom.Rect
	// Animation is the frame sequence Tiled plays in place of the tile.
	Animation []Frame
	// Objects are the tile's collision shapes, relative to its top-left.
	Objects     []Object
	Probability float32
	Properties  Properties
}

// Frame is one frame of a tile animation: a tile ID of the same tileset
// shown for Duration.
type Frame struct {
	TileID   int
	Duration time.Duration
}

// LayerKind says what a [Layer] holds.
type LayerKind uint8

const (
	TileLayer LayerKind = iota + 1
	ObjectLayer
	ImageLayer
	GroupLayer
)

var kindNames = [...]string{"", "tile layer", "object layer", "image layer", "group layer"}

func (k LayerKind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return "unknown layer"
}

// Layer is one layer of a map: tiles, objects, an image or a group of
// layers, as Kind says. The drawing attributes apply to every kind; a
// group's combine with its children's (see [Map.Flatten]).
type Layer struct {
	Kind  LayerKind
	ID    int
	Name  string
	Class string
	// Visible and Locked as set in Tiled.
	Visible, Locked bool
	// Opacity in [0, 1]; 1 when the file says nothing.
	Opacity float32
	// Tint multiplies the layer's colours; white when the file says
	// nothing.
	Tint render2d.Color
	// Offset moves the layer, in pixels.
	Offset geom.Vec2
	// Parallax is the scroll factor relative to the camera; {1, 1} when
	// the file says nothing.
	Parallax   geom.Vec2
	Properties Properties

	// Tile layers: the grid of GIDs, Width x Height cells row by row,
	// whose first cell is at tile (X, Y). X and Y are zero but for the
	// layers of infinite maps, whose chunks are merged into this grid.
	X, Y, Width, Height int
	Tiles               []GID

	// Object layers: the objects, and Tiled's "topdown" or "index" order.
	Objects   []Object
	DrawOrder string
	Color     render2d.Color

	// Image layers: the image and whether it repeats along each axis.
	Image            Image
	RepeatX, RepeatY bool

	// Group layers: the children, bottom first.
	Layers []Layer
}

// At returns the GID at tile (x, y) of a tile layer in map tile
// coordinates, zero (no tile) outside its grid.
func (l *Layer) At(x, y int) GID {
	x -= l.X
	y -= l.Y
	if x < 0 || y < 0 || x >= l.Width || y >= l.Height {
		return 0
	}
	return l.Tiles[y*l.Width+x]
}

// ObjectShape says what an [Object] is.
type ObjectShape uint8

const (
	Rectangle ObjectShape = iota // the zero value, as in Tiled
	Point
	Ellipse
	Polygon
	Polyline
	TileObject // an object with a GID: a tile placed freely
	TextObject
)

var shapeNames = [...]string{"rectangle", "point", "ellipse", "polygon", "polyline", "tile", "text"}

func (s ObjectShape) String() string {
	if int(s) < len(shapeNames) {
		return shapeNames[s]
	}
	return "unknown shape"
}

// Object is a shape or a free tile on an object layer, or a collision
// shape of a tile.
type Object struct {
	ID    int
	Name  string
	Class string
	Shape ObjectShape
	// X and Y place the object in pixels: the top-left of a rectangle or
	// ellipse, the point, the origin of a polygon's points, and for a tile
	// object the bottom-left corner of the tile (Tiled's anchor).
	X, Y          float32
	Width, Height float32
	// Rotation in degrees, clockwise, about (X, Y).
	Rotation float32
	// GID of a tile object, with its flip flags.
	GID GID
	// Points of a polygon or polyline, relative to (X, Y).
	Points  []geom.Vec2
	Text    string
	Visible bool
	// Template is the template file's name when the object came from one.
	Template   string
	Properties Properties
}

// Bounds returns the object's box in pixels, ignoring rotation: a tile
// object's box rises from its anchor, a polygon's covers its points.
func (o *Object) Bounds() geom.Rect {
	switch o.Shape {
	case TileObject:
		return geom.R(o.X, o.Y-o.Height, o.Width, o.Height)
	case Polygon, Polyline:
		if len(o.Points) == 0 {
			return geom.R(o.X, o.Y, 0, 0)
		}
		lo, hi := o.Points[0], o.Points[0]
		for _, p := range o.Points[1:] {
			lo.X, lo.Y = min(lo.X, p.X), min(lo.Y, p.Y)
			hi.X, hi.Y = max(hi.X, p.X), max(hi.Y, p.Y)
		}
		return geom.RectFromMinMax(lo, hi).Translate(geom.V(o.X, o.Y))
	}
	return geom.R(o.X, o.Y, o.Width, o.Height)
}

// GID is a global tile ID as stored in a map: the tile's number across all
// the map's tilesets in its low bits, and flip flags in its top four. Zero
// is no tile.
type GID uint32

// The flag bits of a [GID].
const (
	FlipHorizontal GID = 1 << 31
	FlipVertical   GID = 1 << 30
	FlipDiagonal   GID = 1 << 29 // swap x and y (a quarter turn with a flip)
	RotatedHex120  GID = 1 << 28 // hexagonal maps only
	flagMask           = FlipHorizontal | FlipVertical | FlipDiagonal | RotatedHex120
)

// ID returns the GID without its flags.
func (g GID) ID() uint32 { return uint32(g &^ flagMask) }

// Flags returns the GID's flag bits alone.
func (g GID) Flags() GID { return g & flagMask }

// FlippedH, FlippedV and FlippedD report the flip flags.
func (g GID) FlippedH() bool { return g&FlipHorizontal != 0 }
func (g GID) FlippedV() bool { return g&FlipVertical != 0 }
func (g GID) FlippedD() bool { return g&FlipDiagonal != 0 }

// Tileset returns the tileset a GID belongs to and the tile's ID within
// it; nil when the GID is zero or beyond every tileset.
func (m *Map) Tileset(g GID) (*Tileset, int) {
	id := g.ID()
	if id == 0 {
		return nil, 0
	}
	for i := len(m.Tilesets) - 1; i >= 0; i-- {
		ts := m.Tilesets[i]
		if id >= ts.FirstGID {
			local := int(id - ts.FirstGID)
			if local >= ts.span() {
				return nil, 0
			}
			return ts, local
		}
	}
	return nil, 0
}

// span is how many GIDs the tileset takes: its tile count, or for a
// collection whose IDs have gaps, one past its largest ID.
func (ts *Tileset) span() int {
	n := ts.TileCount
	if k := len(ts.Tiles); k > 0 && ts.Tiles[k-1].ID >= n {
		n = ts.Tiles[k-1].ID + 1
	}
	return n
}

// Tile returns the data of tile id, nil when it has none.
func (ts *Tileset) Tile(id int) *Tile {
	lo, hi := 0, len(ts.Tiles)
	for lo < hi {
		m := (lo + hi) / 2
		if ts.Tiles[m].ID < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(ts.Tiles) && ts.Tiles[lo].ID == id {
		return &ts.Tiles[lo]
	}
	return nil
}

// TileImage returns where tile id is drawn from: the image and the rectangle
// of it in pixels. For a one-image tileset it is the cell at column
// id%Columns, row id/Columns, past the margin and spacing.
func (ts *Tileset) TileImage(id int) (Image, geom.Rect) {
	if t := ts.Tile(id); t != nil && t.Image.Source != "" {
		r := t.Rect
		if r.Empty() {
			r = geom.R(0, 0, float32(t.Image.Width), float32(t.Image.Height))
		}
		return t.Image, r
	}
	if ts.Columns <= 0 {
		return Image{}, geom.Rect{}
	}
	col, row := id%ts.Columns, id/ts.Columns
	x := ts.Margin + col*(ts.TileWidth+ts.Spacing)
	y := ts.Margin + row*(ts.TileHeight+ts.Spacing)
	return ts.Image, geom.R(float32(x), float32(y), float32(ts.TileWidth), float32(ts.TileHeight))
}
