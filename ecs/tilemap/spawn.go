package tilemap

import (
	"fmt"
	"math"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/tiled"
)

// Map is a Tiled map whose images are in an [assets.Library], ready
// for [Spawn]: made by [Load], or by a background [Loading].
type Map struct {
	// Map is the parsed map (package tiled): layers, tilesets, objects
	// and properties as the file holds them.
	Map *tiled.Map

	lib    *assets.Library
	art    map[uint32]tileArt      // by GID without flags
	images map[string]assets.Image // image layers' images, by file
}

// tileArt is where a tile's pixels are in the library: grid frame of a
// sheet, a named region of a sheet, or a whole image.
type tileArt struct {
	sheet  assets.Sheet
	frame  int
	region string
	img    assets.Image
	size   geom.Vec2 // the tile's size in pixels
	ts     *tiled.Tileset
	id     int
}

// region resolves a tile's atlas region; it needs the library's pages
// uploaded (see [Spawn]).
func (t *tileArt) resolve(lib *assets.Library) (assets.Region, error) {
	switch {
	case !t.img.IsZero():
		return lib.Region(t.img)
	case t.region != "":
		return lib.NamedRegion(t.sheet, t.region)
	}
	return lib.Frame(t.sheet, t.frame)
}

// Region returns the atlas region tile g draws (its flags ignored): for
// a game that draws tiles itself. It fails like [assets.Library.Region]
// before the images are uploaded, and for a GID without an image.
func (tm *Map) Region(g tiled.GID) (assets.Region, error) {
	art, ok := tm.art[g.ID()]
	if !ok {
		return assets.Region{}, media.Detail(media.ErrInvalid, "tilemap: map %s: GID %d has no image", tm.Map.Path, g.ID())
	}
	return art.resolve(tm.lib)
}

// SolidRects returns the solid tiles of the tile layer named layer,
// merged into rectangles in world units (see [tiled.SolidRects]): the
// tiles whose boolean property prop is true. Group offsets are included.
// It reports false when the map has no tile layer of that name.
func (tm *Map) SolidRects(layer, prop string) ([]geom.Rect, bool) {
	for _, l := range tm.Map.Flatten() {
		if l.Kind == tiled.TileLayer && l.Name == layer {
			return tiled.SolidRects(tm.Map, &l, tiled.SolidProperty(prop)), true
		}
	}
	return nil, false
}

// Options place a map's entities. The zero Options is the default.
type Options struct {
	// Layer is the draw layer ([ecs.Sprite.Layer]) of the map's bottom layer;
	// each layer above it draws one higher, so a map of n layers takes
	// Layer to Layer+n-1.
	Layer int16
	// ChunkSize is the side of a chunk of a tile layer, in tiles: the unit
	// of culling. Zero means DefaultChunkSize; at most MaxChunkSize.
	ChunkSize int
	// Offset moves the whole map, in world units (map pixels).
	Offset geom.Vec2
}

// DefaultChunkSize and MaxChunkSize bound [Options.ChunkSize].
const (
	DefaultChunkSize = 16
	MaxChunkSize     = 256
)

// Object is an object of a Tiled object layer, as an entity: its
// [ecs.Transform] is at the object's position (for a tile object, at the
// middle of its box), turned by its rotation; a tile object on a layer
// without parallax also has an [ecs.Sprite]. Properties are the object's custom
// properties, plain data the world hash covers like any game state.
type Object struct {
	// ID is Tiled's object ID, unique in the map.
	ID    int
	Name  string
	Class string
	Shape tiled.ObjectShape
	// Layer is the object layer's name.
	Layer string
	// Position is Tiled's x, y in world units (with Options.Offset);
	// Size the object's width and height.
	Position, Size geom.Vec2
	// Points of a polygon or polyline, relative to Position.
	Points []geom.Vec2
	// GID of a tile object, with its flip flags.
	GID        tiled.GID
	Properties tiled.Properties
}

// Bounds returns the object's box in world units, ignoring rotation.
func (o *Object) Bounds() geom.Rect {
	t := tiled.Object{Shape: o.Shape, X: o.Position.X, Y: o.Position.Y, Width: o.Size.X, Height: o.Size.Y, Points: o.Points}
	return t.Bounds()
}

// Stats count what [Spawn] queued.
type Stats struct {
	Chunks  int // ecs.TileChunk entities
	Tiles   int // packets in them
	Objects int // Object entities
}

// Spawn queues the entities of tm in c: each tile layer as [ecs.TileChunk]
// entities of Options.ChunkSize tiles a side, each image layer and the
// tile objects of each parallax object layer as one TileChunk, and every
// object as an entity with an [Object] and a [ecs.Transform] (and a
// [ecs.Sprite] for a tile object on a layer without parallax). Layers take
// draw layers from Options.Layer up in map order, groups flattened
// (their offset, opacity, tint and parallax combined into their
// children's). A layer's opacity and tint become its packets' tint. Call
// [ecs.AddTileMaps] once so that the chunks are drawn.
//
// The map's images must be on the GPU: Spawn resolves every tile's
// atlas region once, so call it after the library's Upload (a [Loading]
// is done only then). It returns an error naming the tile whose region
// does not resolve and queues nothing in that case. Call it from a system
// or at set-up (then apply with [ecs.World.Apply]).
func Spawn(c *ecs.Commands, tm *Map, opts Options) (Stats, error) {
	var st Stats
	size := opts.ChunkSize
	if size == 0 {
		size = DefaultChunkSize
	}
	if size < 1 || size > MaxChunkSize {
		return st, fmt.Errorf("tilemap: Options.ChunkSize is %d, want 0 (default %d) or [1, %d]", size, DefaultChunkSize, MaxChunkSize)
	}
	b := mapBuilder{tm: tm, opts: opts, regions: map[uint32]assets.Region{}, anims: map[uint32][]ecs.TileFrame{}}
	m := tm.Map
	var chunks []ecs.TileChunk
	var objects []objectSpawn
	for li, l := range m.Flatten() {
		layer := opts.Layer + int16(li)
		base := ecs.TileChunk{Layer: layer, Parallax: l.Parallax, Origin: m.ParallaxOrigin.Add(opts.Offset), Hidden: !l.Visible, MapLayer: l.Name}
		tint := l.Tint
		tint.A *= l.Opacity
		off := l.Offset.Add(opts.Offset)
		switch l.Kind {
		case tiled.TileLayer:
			if len(l.Tiles) != l.Width*l.Height {
				return st, fmt.Errorf("tilemap: map %s: tile layer %q holds %d tiles, want width*height = %d*%d", m.Path, l.Name, len(l.Tiles), l.Width, l.Height)
			}
			for cy := 0; cy < l.Height; cy += size {
				for cx := 0; cx < l.Width; cx += size {
					ch := base
					if err := b.tiles(&ch, &l, cx, cy, min(cx+size, l.Width), min(cy+size, l.Height), off, tint); err != nil {
						return st, err
					}
					if len(ch.Packets) > 0 {
						chunks = append(chunks, ch)
					}
				}
			}
		case tiled.ImageLayer:
			ch := base
			if err := b.image(&ch, &l, off, tint); err != nil {
				return st, err
			}
			if len(ch.Packets) > 0 {
				chunks = append(chunks, ch)
			}
		case tiled.ObjectLayer:
			still := l.Parallax == geom.V(1, 1)
			ch := base
			for i := range l.Objects {
				o := &l.Objects[i]
				s := objectSpawn{obj: Object{
					ID: o.ID, Name: o.Name, Class: o.Class, Shape: o.Shape, Layer: l.Name,
					Position: geom.V(o.X, o.Y).Add(off), Size: geom.V(o.Width, o.Height),
					Points: o.Points, GID: o.GID, Properties: o.Properties,
				}}
				s.t = ecs.At(s.obj.Position.X, s.obj.Position.Y)
				s.t.Rotation = o.Rotation * math.Pi / 180
				if o.Shape == tiled.TileObject {
					p, err := b.tileObject(o, off, tint)
					if err != nil {
						return st, fmt.Errorf("tilemap: map %s: object layer %q: object %d: %w", m.Path, l.Name, o.ID, err)
					}
					s.t.Position = p.Transform.Position
					if still {
						s.sprite = &ecs.Sprite{Texture: p.Texture, Source: p.Source, Size: p.Size, Origin: p.Transform.Origin,
							Tint: p.Tint, Layer: layer, Hidden: !o.Visible || !l.Visible}
						s.t.Scale = p.Transform.Scale
					} else if o.Visible {
						p.Layer = layer
						ch.Packets = append(ch.Packets, p)
						ch.Bounds = union(ch.Bounds, len(ch.Packets) == 1, quadBounds(&p))
					}
				}
				objects = append(objects, s)
			}
			if len(ch.Packets) > 0 {
				chunks = append(chunks, ch)
			}
		}
	}
	for _, ch := range chunks {
		p := c.Spawn()
		ecs.With(p, ch)
		st.Chunks++
		st.Tiles += len(ch.Packets)
	}
	for _, s := range objects {
		p := c.Spawn()
		ecs.With(p, s.t)
		ecs.With(p, s.obj)
		if s.sprite != nil {
			ecs.With(p, *s.sprite)
		}
		st.Objects++
	}
	return st, nil
}

type objectSpawn struct {
	t      ecs.Transform
	obj    Object
	sprite *ecs.Sprite
}

// mapBuilder turns a map's layers into packets, resolving each GID's
// region and animation once.
type mapBuilder struct {
	tm      *Map
	opts    Options
	regions map[uint32]assets.Region
	anims   map[uint32][]ecs.TileFrame
}

// region returns the atlas region and size of tile GID g (flags ignored).
func (b *mapBuilder) region(g tiled.GID) (assets.Region, *tileArt, error) {
	art, ok := b.tm.art[g.ID()]
	if !ok {
		return assets.Region{}, nil, media.Detail(media.ErrInvalid, "GID %d has no image (its tileset has no image for tile %d)", g.ID(), g.ID())
	}
	if r, ok := b.regions[g.ID()]; ok {
		return r, &art, nil
	}
	r, err := art.resolve(b.tm.lib)
	if err != nil {
		return r, nil, fmt.Errorf("GID %d (tile %d of tileset %s): %w", g.ID(), art.id, art.ts.Name, err)
	}
	b.regions[g.ID()] = r
	return r, &art, nil
}

// anim returns the resolved animation of tile GID g, nil when it has none.
func (b *mapBuilder) anim(g tiled.GID, art *tileArt) ([]ecs.TileFrame, error) {
	if a, ok := b.anims[g.ID()]; ok {
		return a, nil
	}
	var a []ecs.TileFrame
	if t := art.ts.Tile(art.id); t != nil && len(t.Animation) > 0 {
		var end time.Duration
		for _, f := range t.Animation {
			r, _, err := b.region(tiled.GID(art.ts.FirstGID + uint32(f.TileID)))
			if err != nil {
				return nil, fmt.Errorf("animation of tile %d: %w", art.id, err)
			}
			end += f.Duration
			a = append(a, ecs.TileFrame{Texture: r.Texture, Source: r.Source, Until: end})
		}
	}
	b.anims[g.ID()] = a
	return a, nil
}

// tiles fills ch with the packets of the cells [x0, x1) x [y0, y1) of l.
func (b *mapBuilder) tiles(ch *ecs.TileChunk, l *tiled.Layer, x0, y0, x1, y1 int, off geom.Vec2, tint render2d.Color) error {
	m := b.tm.Map
	tw, th := float32(m.TileWidth), float32(m.TileHeight)
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			g := l.Tiles[y*l.Width+x]
			if g.ID() == 0 {
				continue
			}
			r, art, err := b.region(g)
			if err != nil {
				return fmt.Errorf("tilemap: map %s: tile layer %q: tile (%d, %d): %w", m.Path, l.Name, l.X+x, l.Y+y, err)
			}
			// Orthogonal maps align a tile's bottom-left corner with its
			// cell's, whatever the tile's size.
			w, h := art.size.X, art.size.Y
			corner := geom.V(float32(l.X+x)*tw, float32(l.Y+y+1)*th-h).Add(off).Add(art.ts.TileOffset)
			p := flipped(r, corner, geom.V(w, h), g)
			p.Tint, p.Layer = tint, ch.Layer
			ch.Packets = append(ch.Packets, p)
			ch.Bounds = union(ch.Bounds, len(ch.Packets) == 1, quadBounds(&p))
			a, err := b.anim(g, art)
			if err != nil {
				return fmt.Errorf("tilemap: map %s: tile layer %q: tile (%d, %d): %w", m.Path, l.Name, l.X+x, l.Y+y, err)
			}
			if a != nil {
				ch.Anims = append(ch.Anims, ecs.TileAnim{Packet: int32(len(ch.Packets) - 1), Frames: a})
			}
		}
	}
	return nil
}

// flipped returns a packet drawing region r as a w x h quad whose
// unflipped top-left corner is at corner, with Tiled's flips: the
// diagonal flip (a transpose) first, then horizontal, then vertical. A
// transpose is a quarter turn clockwise of the quad mirrored vertically,
// so every combination is a rotation of 0 or 90 degrees about the quad's
// middle with a scale of ±1 on each axis.
func flipped(r assets.Region, corner, size geom.Vec2, g tiled.GID) render2d.DrawPacket2D {
	p := render2d.Sprite(r.Texture, r.Source, corner, size)
	if g.Flags() == 0 {
		return p
	}
	fh, fv := float32(1), float32(1)
	if g.FlippedH() {
		fh = -1
	}
	if g.FlippedV() {
		fv = -1
	}
	half := geom.V(size.X/2, size.Y/2)
	p.Transform.Origin = half
	p.Transform.Position = corner.Add(half)
	p.Transform.Scale = geom.V(fh, fv)
	if g.FlippedD() {
		p.Transform.Rotation = math.Pi / 2
		p.Transform.Scale = geom.V(fv, -fh)
	}
	return p
}

// tileObject returns the packet of a tile object: Tiled anchors it at
// (X, Y) by its tileset's object alignment (bottom-left by default),
// turns it about that point and flips it within its box.
func (b *mapBuilder) tileObject(o *tiled.Object, off geom.Vec2, tint render2d.Color) (render2d.DrawPacket2D, error) {
	r, art, err := b.region(o.GID)
	if err != nil {
		return render2d.DrawPacket2D{}, err
	}
	w, h := o.Width, o.Height
	if w == 0 && h == 0 {
		w, h = art.size.X, art.size.Y
	}
	ax, ay := alignment(art.ts.ObjectAlignment)
	// The box's middle relative to the anchor, turned by the rotation.
	d := geom.V((0.5-ax)*w, (0.5-ay)*h)
	sin, cos := math.Sincos(float64(o.Rotation) * math.Pi / 180)
	s, co := float32(sin), float32(cos)
	mid := geom.V(o.X+float32(co*d.X)-float32(s*d.Y), o.Y+float32(s*d.X)+float32(co*d.Y)).Add(off)
	p := render2d.Sprite(r.Texture, r.Source, mid, geom.V(w, h))
	p.Transform.Origin = geom.V(w/2, h/2)
	p.Transform.Rotation = o.Rotation * math.Pi / 180
	p.Transform.Scale = geom.V(1, 1)
	if o.GID.FlippedH() {
		p.Transform.Scale.X = -1
	}
	if o.GID.FlippedV() {
		p.Transform.Scale.Y = -1
	}
	if !o.Visible {
		tint.A = 0
	}
	p.Tint = tint
	return p, nil
}

// alignment returns where a tile object's (X, Y) lies in its box, as
// fractions of its size.
func alignment(a string) (float32, float32) {
	switch a {
	case "topleft":
		return 0, 0
	case "top":
		return 0.5, 0
	case "topright":
		return 1, 0
	case "left":
		return 0, 0.5
	case "center":
		return 0.5, 0.5
	case "right":
		return 1, 0.5
	case "bottom":
		return 0.5, 1
	case "bottomright":
		return 1, 1
	}
	return 0, 1 // "unspecified" and "bottomleft" on orthogonal maps
}

// image fills ch with an image layer: one quad, or copies across the
// map's area along each axis that repeats.
func (b *mapBuilder) image(ch *ecs.TileChunk, l *tiled.Layer, off geom.Vec2, tint render2d.Color) error {
	m := b.tm.Map
	if l.Image.Source == "" {
		return nil
	}
	img, ok := b.tm.images[l.Image.Source]
	if !ok {
		return fmt.Errorf("tilemap: map %s: image layer %q: image %s was not loaded", m.Path, l.Name, l.Image.Source)
	}
	r, err := b.tm.lib.Region(img)
	if err != nil {
		return fmt.Errorf("tilemap: map %s: image layer %q: %w", m.Path, l.Name, err)
	}
	size := r.Size()
	nx, ny := 1, 1
	if size.X > 0 && size.Y > 0 {
		if l.RepeatX {
			nx = max(1, int(math.Ceil(float64(float32(m.Width*m.TileWidth)/size.X))))
		}
		if l.RepeatY {
			ny = max(1, int(math.Ceil(float64(float32(m.Height*m.TileHeight)/size.Y))))
		}
	}
	if nx*ny > 1<<16 {
		return fmt.Errorf("tilemap: map %s: image layer %q: repeating a %vx%v image over the map takes %d copies, more than 65536", m.Path, l.Name, size.X, size.Y, nx*ny)
	}
	for y := range ny {
		for x := range nx {
			p := r.Sprite(off.Add(geom.V(float32(x)*size.X, float32(y)*size.Y)))
			p.Tint, p.Layer = tint, ch.Layer
			ch.Packets = append(ch.Packets, p)
			ch.Bounds = union(ch.Bounds, len(ch.Packets) == 1, quadBounds(&p))
		}
	}
	return nil
}

// quadBounds is a box holding a packet's quad however it is turned: the
// square around its pivot that holds every corner.
func quadBounds(p *render2d.DrawPacket2D) geom.Rect {
	t := &p.Transform
	if t.Rotation == 0 && t.Scale == geom.V(1, 1) {
		return geom.R(t.Position.X-t.Origin.X, t.Position.Y-t.Origin.Y, p.Size.X, p.Size.Y)
	}
	e := float32(math.Hypot(float64(max(t.Origin.X, p.Size.X-t.Origin.X)), float64(max(t.Origin.Y, p.Size.Y-t.Origin.Y))))
	return geom.R(t.Position.X-e, t.Position.Y-e, 2*e, 2*e)
}

// union grows box to hold r (or is r when first).
func union(box geom.Rect, first bool, r geom.Rect) geom.Rect {
	if first {
		return r
	}
	return geom.RectFromMinMax(
		geom.V(min(box.X, r.X), min(box.Y, r.Y)),
		geom.V(max(box.X+box.W, r.X+r.W), max(box.Y+box.H, r.Y+r.H)))
}
