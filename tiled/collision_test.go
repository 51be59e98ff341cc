package tiled_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/tiled"
)

// gridMap builds a map of 10x10-pixel tiles from rows of text: '#' is
// tile 0 (solid), 'o' tile 1 (not solid), '.' empty, 'F' tile 0 flipped.
func gridMap(rows ...string) (*tiled.Map, *tiled.Layer) {
	ts := &tiled.Tileset{FirstGID: 1, Name: "t", TileWidth: 10, TileHeight: 10, TileCount: 2, Columns: 2,
		Tiles: []tiled.Tile{{ID: 0, Properties: tiled.Properties{{Name: "solid", Type: tiled.BoolProperty, Value: "true"}}}}}
	l := tiled.Layer{Kind: tiled.TileLayer, Width: len(rows[0]), Height: len(rows)}
	for _, r := range rows {
		for _, c := range r {
			l.Tiles = append(l.Tiles, map[rune]tiled.GID{'#': 1, 'o': 2, '.': 0, 'F': 1 | tiled.FlipHorizontal | tiled.FlipDiagonal}[c])
		}
	}
	m := &tiled.Map{TileWidth: 10, TileHeight: 10, Width: l.Width, Height: l.Height, Tilesets: []*tiled.Tileset{ts}, Layers: []tiled.Layer{l}}
	return m, &m.Layers[0]
}

func TestSolidRects(t *testing.T) {
	tests := []struct {
		name string
		rows []string
		want []geom.Rect
	}{
		{"empty", []string{"....", "...."}, nil},
		{"not solid", []string{"oooo"}, nil},
		{"one tile", []string{"....", ".#.."}, []geom.Rect{geom.R(10, 10, 10, 10)}},
		{"block", []string{"###", "###", "###"}, []geom.Rect{geom.R(0, 0, 30, 30)}},
		{"floor and flips", []string{"....", "FF##"}, []geom.Rect{geom.R(0, 10, 40, 10)}},
		{"gap splits a run", []string{"##o##"}, []geom.Rect{geom.R(0, 0, 20, 10), geom.R(30, 0, 20, 10)}},
		{"step", []string{
			"#...",
			"##..",
			"####",
		}, []geom.Rect{geom.R(0, 0, 10, 10), geom.R(0, 10, 20, 10), geom.R(0, 20, 40, 10)}},
		{"pillars and platform", []string{
			"#..#",
			"#..#",
			"####",
			"####",
		}, []geom.Rect{geom.R(0, 0, 10, 20), geom.R(30, 0, 10, 20), geom.R(0, 20, 40, 20)}},
		{"wide run ends, narrow continues", []string{
			"###.",
			".#..",
			".#..",
		}, []geom.Rect{geom.R(0, 0, 30, 10), geom.R(10, 10, 10, 20)}},
		{"runs shifting right", []string{
			"##..",
			".##.",
			"..##",
		}, []geom.Rect{geom.R(0, 0, 20, 10), geom.R(10, 10, 20, 10), geom.R(20, 20, 20, 10)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, l := gridMap(tt.rows...)
			got := tiled.SolidRects(m, l, tiled.SolidProperty("solid"))
			if !slices.Equal(got, tt.want) {
				t.Errorf("SolidRects(\n%s) = %v, want %v", strings.Join(tt.rows, "\n"), got, tt.want)
			}
			// Every solid tile's centre lies in exactly one rectangle,
			// and no other tile's centre does.
			for y := range l.Height {
				for x := range l.Width {
					c := geom.V(float32(x)*10+5, float32(y)*10+5)
					n := 0
					for _, r := range got {
						if c.X > r.X && c.X < r.X+r.W && c.Y > r.Y && c.Y < r.Y+r.H {
							n++
						}
					}
					want := 0
					if tt.rows[y][x] == '#' || tt.rows[y][x] == 'F' {
						want = 1
					}
					if n != want {
						t.Errorf("tile (%d, %d) is in %d rectangles, want %d", x, y, n, want)
					}
				}
			}
		})
	}
}

func TestSolidRectsOffsetAndOrigin(t *testing.T) {
	m, l := gridMap("#.", "##")
	l.X, l.Y, l.Offset = -1, 2, geom.V(3, 4)
	got := tiled.SolidRects(m, l, tiled.SolidProperty("solid"))
	want := []geom.Rect{geom.R(-7, 24, 10, 10), geom.R(-7, 34, 20, 10)}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := tiled.SolidRects(m, &tiled.Layer{Kind: tiled.ObjectLayer}, tiled.SolidProperty("solid")); got != nil {
		t.Errorf("object layer gave %v", got)
	}
}

func TestSolidRectsFromFile(t *testing.T) {
	m, err := tiled.Load(testFS, "own/zlib.tmj", tiled.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// ground: 1 2 . . / 3 4 . 1 / 1 1 1 1; tiles 0 and 2 (GIDs 1, 3) are solid.
	got := tiled.SolidRects(m, &m.Layers[0], tiled.SolidProperty("solid"))
	want := []geom.Rect{geom.R(0, 0, 16, 32), geom.R(48, 16, 16, 16), geom.R(0, 32, 64, 16)}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestFlatten(t *testing.T) {
	m, err := tiled.Load(testFS, "own/csv.tmx", tiled.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ls := m.Flatten()
	if len(ls) != 4 {
		t.Fatalf("%d layers, want 4", len(ls))
	}
	deco := ls[3]
	if deco.Name != "deco" || deco.Opacity != 0.5 || deco.Parallax != geom.V(0.5, 0.25) || deco.Offset != geom.V(1, -2) || deco.Visible ||
		deco.Tint != render2d.RGBA8(255, 128, 0, 255) {
		t.Errorf("deco flattened = %+v", deco)
	}
}
