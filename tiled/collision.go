package tiled

import (
	"cmp"
	"slices"

	"github.com/metronome-go/metronome/geom"
)

// SolidProperty returns a predicate for [SolidRects] that calls a tile
// solid when its boolean property name is true ("solid" = true in Tiled's
// tile properties).
func SolidProperty(name string) func(ts *Tileset, id int) bool {
	return func(ts *Tileset, id int) bool {
		t := ts.Tile(id)
		return t != nil && t.Properties.Bool(name)
	}
}

// SolidRects returns the solid tiles of tile layer l of m merged into
// axis-aligned rectangles in map pixels: the tiles solid calls solid,
// joined along each row into runs, and runs spanning the same columns in
// consecutive rows stacked into one rectangle. That greedy merge gives
// one rectangle for a rectangular block of tiles and a handful for a
// typical platform level, a few orders fewer than the tiles. Rectangles
// come ordered by top edge, then left edge, and include the layer's
// Offset (a layer in a group: take it from [Map.Flatten] to include the
// group's).
//
// solid is asked once per distinct GID (flip flags ignored) and never
// for empty cells. The result is a new slice; SolidRects does not keep it.
func SolidRects(m *Map, l *Layer, solid func(ts *Tileset, id int) bool) []geom.Rect {
	if l.Kind != TileLayer || l.Width == 0 {
		return nil
	}
	known := map[uint32]bool{}
	isSolid := func(g GID) bool {
		id := g.ID()
		if id == 0 {
			return false
		}
		s, ok := known[id]
		if !ok {
			if ts, local := m.Tileset(g); ts != nil {
				s = solid(ts, local)
			}
			known[id] = s
		}
		return s
	}
	// open are the rectangles that reach the previous row, by column.
	type run struct{ x0, x1, y0, rows int }
	var open, next []run
	var out []run
	for y := 0; y <= l.Height; y++ {
		next = next[:0]
		k := 0 // open[k] is the first open rectangle not yet matched
		for x := 0; y < l.Height && x < l.Width; {
			if !isSolid(l.Tiles[y*l.Width+x]) {
				x++
				continue
			}
			x0 := x
			for x < l.Width && isSolid(l.Tiles[y*l.Width+x]) {
				x++
			}
			for k < len(open) && open[k].x0 < x0 {
				out = append(out, open[k]) // ends above this row
				k++
			}
			if k < len(open) && open[k].x0 == x0 && open[k].x1 == x {
				r := open[k]
				r.rows++
				next = append(next, r)
				k++
				continue
			}
			next = append(next, run{x0: x0, x1: x, y0: y, rows: 1})
		}
		out = append(out, open[k:]...)
		open, next = next, open
	}
	slices.SortFunc(out, func(a, b run) int {
		return cmp.Or(cmp.Compare(a.y0, b.y0), cmp.Compare(a.x0, b.x0))
	})
	tw, th := float32(m.TileWidth), float32(m.TileHeight)
	rects := make([]geom.Rect, len(out))
	for i, r := range out {
		rects[i] = geom.R(float32(l.X+r.x0)*tw+l.Offset.X, float32(l.Y+r.y0)*th+l.Offset.Y, float32(r.x1-r.x0)*tw, float32(r.rows)*th)
	}
	return rects
}

// Flatten returns the map's layers with groups resolved, bottom first: a
// copy of every tile, object and image layer with its groups' attributes
// combined into its own (offsets added; opacity, tint and parallax
// multiplied; visible only if every group is). Slices are shared with
// the map.
func (m *Map) Flatten() []Layer {
	var out []Layer
	var walk func(ls []Layer, parent *Layer)
	walk = func(ls []Layer, parent *Layer) {
		for _, l := range ls {
			if parent != nil {
				l.Offset = l.Offset.Add(parent.Offset)
				l.Opacity *= parent.Opacity
				l.Tint.R, l.Tint.G, l.Tint.B, l.Tint.A = l.Tint.R*parent.Tint.R, l.Tint.G*parent.Tint.G, l.Tint.B*parent.Tint.B, l.Tint.A*parent.Tint.A
				l.Parallax = geom.V(l.Parallax.X*parent.Parallax.X, l.Parallax.Y*parent.Parallax.Y)
				l.Visible = l.Visible && parent.Visible
			}
			if l.Kind == GroupLayer {
				walk(l.Layers, &l)
				continue
			}
			out = append(out, l)
		}
	}
	walk(m.Layers, nil)
	return out
}
