package tiled_test

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/tiled"
)

var testFS = os.DirFS("testdata")

// wantGround is the ground layer of every map in testdata/own, whatever
// its encoding: tile 4 is flipped horizontally.
var wantGround = []tiled.GID{1, 2, 0, 0, 3, 4 | tiled.FlipHorizontal, 0, 1, 1, 1, 1, 1}

// TestEncodings loads the same small map written in every encoding of
// both formats and checks that each gives the same model.
func TestEncodings(t *testing.T) {
	for _, name := range []string{
		"own/csv.tmx", "own/base64.tmx", "own/zlib.tmx", "own/gzip.tmx", "own/zstd.tmx", "own/xml.tmx", "own/embedded.tmx",
		"own/array.tmj", "own/base64.tmj", "own/zlib.tmj", "own/gzip.tmj", "own/zstd.tmj",
	} {
		t.Run(name, func(t *testing.T) {
			m, err := tiled.Load(testFS, name, tiled.Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkOwnMap(t, m)
		})
	}
}

func checkOwnMap(t *testing.T, m *tiled.Map) {
	t.Helper()
	if m.Width != 4 || m.Height != 3 || m.TileWidth != 16 || m.TileHeight != 16 || m.Infinite {
		t.Errorf("map %dx%d of %dx%d infinite=%v, want 4x3 of 16x16, finite", m.Width, m.Height, m.TileWidth, m.TileHeight, m.Infinite)
	}
	if m.Class != "level" || m.ParallaxOrigin != geom.V(8, 4) || m.BackgroundColor != render2d.RGBA8(0x10, 0x20, 0x30, 255) {
		t.Errorf("class %q, parallax origin %v, background %v", m.Class, m.ParallaxOrigin, m.BackgroundColor)
	}
	if got := m.Properties.String("music"); got != "song.ogg" {
		t.Errorf("map property music = %q, want song.ogg", got)
	}
	if len(m.Tilesets) != 1 {
		t.Fatalf("%d tilesets, want 1", len(m.Tilesets))
	}
	ts := m.Tilesets[0]
	if ts.FirstGID != 1 || ts.Name != "terrain" || ts.TileCount != 4 || ts.Columns != 2 || ts.Image.Source != "own/terrain.png" {
		t.Errorf("tileset %+v", ts)
	}
	if tile := ts.Tile(1); tile == nil || !slices.Equal(tile.Animation, []tiled.Frame{{TileID: 1, Duration: 100 * time.Millisecond}, {TileID: 3, Duration: 200 * time.Millisecond}}) {
		t.Errorf("tile 1 animation = %+v", tile)
	}
	if tile := ts.Tile(2); tile == nil || !tile.Properties.Bool("solid") || len(tile.Objects) != 1 || tile.Objects[0].Bounds() != geom.R(0, 8, 16, 8) {
		t.Errorf("tile 2 = %+v, want solid with one 16x8 collision box", tile)
	}
	if img, r := ts.TileImage(3); img.Source != "own/terrain.png" || r != geom.R(16, 16, 16, 16) {
		t.Errorf("TileImage(3) = %v %v, want own/terrain.png (16,16,16,16)", img.Source, r)
	}
	if len(m.Layers) != 4 {
		t.Fatalf("%d layers, want 4", len(m.Layers))
	}
	g := &m.Layers[0]
	if g.Kind != tiled.TileLayer || g.Name != "ground" || g.Width != 4 || g.Height != 3 || !slices.Equal(g.Tiles, wantGround) {
		t.Errorf("ground = %v %q %dx%d %v, want tile layer 4x3 %v", g.Kind, g.Name, g.Width, g.Height, g.Tiles, wantGround)
	}
	if g.At(1, 1) != 4|tiled.FlipHorizontal || !g.At(1, 1).FlippedH() || g.At(1, 1).ID() != 4 || g.At(-1, 0) != 0 {
		t.Errorf("ground.At(1, 1) = %#x", uint32(g.At(1, 1)))
	}
	if z, ok := g.Properties.Int("z"); !ok || z != 1 || g.Opacity != 1 || !g.Visible || g.Parallax != geom.V(1, 1) || g.Tint != render2d.White {
		t.Errorf("ground defaults: z=%d opacity %v visible %v parallax %v tint %v", z, g.Opacity, g.Visible, g.Parallax, g.Tint)
	}
	checkObjects(t, &m.Layers[1])
	sky := &m.Layers[2]
	if sky.Kind != tiled.ImageLayer || sky.Image.Source != "own/sky.png" || sky.Image.Width != 8 || sky.Offset != geom.V(2, 3) || !sky.RepeatX || sky.RepeatY {
		t.Errorf("sky = %+v", sky)
	}
	front := &m.Layers[3]
	if front.Kind != tiled.GroupLayer || front.Opacity != 0.5 || front.Tint != render2d.RGBA8(255, 128, 0, 255) || front.Parallax != geom.V(0.5, 0.25) || len(front.Layers) != 1 {
		t.Fatalf("front = %+v", front)
	}
	deco := &front.Layers[0]
	if deco.Visible || !deco.Locked || deco.Offset != geom.V(1, -2) || deco.At(1, 1) != 2 || deco.At(2, 1) != 2 || deco.At(0, 0) != 0 {
		t.Errorf("deco = %+v", deco)
	}
}

func checkObjects(t *testing.T, l *tiled.Layer) {
	t.Helper()
	if l.Kind != tiled.ObjectLayer || l.Name != "things" || l.Color != render2d.RGBA8(0, 255, 0, 255) || len(l.Objects) != 7 {
		t.Fatalf("objects layer = %v %q %v with %d objects", l.Kind, l.Name, l.Color, len(l.Objects))
	}
	shapes := []tiled.ObjectShape{tiled.Point, tiled.Rectangle, tiled.Ellipse, tiled.Polygon, tiled.Polyline, tiled.TileObject, tiled.TextObject}
	for i, o := range l.Objects {
		if o.Shape != shapes[i] || o.ID != i+1 {
			t.Errorf("object %d: id %d shape %v, want id %d shape %v", i, o.ID, o.Shape, i+1, shapes[i])
		}
	}
	o := l.Objects
	if o[0].Name != "spawn" || o[0].Class != "start" || o[0].X != 8 || o[0].Y != 24 {
		t.Errorf("spawn = %+v", o[0])
	}
	if o[1].Class != "trigger" || o[1].Rotation != 15 || o[1].Bounds() != geom.R(0, 0, 32, 16) {
		t.Errorf("zone = %+v", o[1])
	}
	ps := o[1].Properties
	want := []struct {
		name  string
		typ   tiled.PropertyType
		value string
	}{
		{"a_string", tiled.StringProperty, "hello"},
		{"b_int", tiled.IntProperty, "-7"},
		{"c_float", tiled.FloatProperty, "2.5"},
		{"d_bool", tiled.BoolProperty, "true"},
		{"e_color", tiled.ColorProperty, "#80ff0000"},
		{"f_file", tiled.FileProperty, "../sky.png"},
		{"g_object", tiled.ObjectProperty, "1"},
		{"h_class", tiled.ClassProperty, ""},
		{"i_multiline", tiled.StringProperty, "line one\nline two"},
	}
	if len(ps) != len(want) {
		t.Fatalf("zone has %d properties, want %d", len(ps), len(want))
	}
	for i, w := range want {
		if p := ps[i]; p.Name != w.name || p.Type != w.typ || p.Value != w.value {
			t.Errorf("property %d = %q %v %q, want %q %v %q", i, p.Name, p.Type, p.Value, w.name, w.typ, w.value)
		}
	}
	if n, ok := ps.Int("b_int"); !ok || n != -7 {
		t.Errorf("Int(b_int) = %d, %v", n, ok)
	}
	if f, ok := ps.Float("c_float"); !ok || f != 2.5 {
		t.Errorf("Float(c_float) = %v, %v", f, ok)
	}
	if c, ok := ps.Color("e_color"); !ok || c != render2d.RGBA8(255, 0, 0, 128) {
		t.Errorf("Color(e_color) = %v, %v", c, ok)
	}
	loot, _ := ps.Get("h_class")
	if loot.CustomType != "Loot" || len(loot.Members) != 2 || loot.Members.String("coins") != "3" || loot.Members[0].Type != tiled.IntProperty || loot.Members.Bool("rare") {
		t.Errorf("h_class = %+v", loot)
	}
	if o[2].Bounds() != geom.R(16, 16, 24, 12) {
		t.Errorf("pond bounds = %v", o[2].Bounds())
	}
	if !slices.Equal(o[3].Points, []geom.Vec2{{X: 0, Y: 0}, {X: 8, Y: 0}, {X: 4, Y: 6}}) || o[3].Bounds() != geom.R(40, 8, 8, 6) {
		t.Errorf("rock = %v, bounds %v", o[3].Points, o[3].Bounds())
	}
	if o[4].Visible || len(o[4].Points) != 3 || o[4].Bounds() != geom.R(0, 36, 32, 4) {
		t.Errorf("path = %+v, bounds %v", o[4], o[4].Bounds())
	}
	if o[5].GID.ID() != 2 || !o[5].GID.FlippedV() || o[5].Bounds() != geom.R(48, 16, 16, 16) {
		t.Errorf("coin gid %#x bounds %v", uint32(o[5].GID), o[5].Bounds())
	}
	if o[6].Text != "Hello" {
		t.Errorf("sign text = %q", o[6].Text)
	}
}

func TestInfinite(t *testing.T) {
	for _, name := range []string{"own/infinite.tmx", "own/infinite.tmj", "tiled/infinite.tmx", "tiled/infinite.tmj"} {
		t.Run(name, func(t *testing.T) {
			m, err := tiled.Load(testFS, name, tiled.Options{})
			if err != nil {
				t.Fatal(err)
			}
			l := &m.Layers[0]
			// Our maps hold 2x2 chunks; Tiled re-saves them as 16x16.
			x, y, w, h := -2, -2, 6, 4
			if strings.HasPrefix(name, "tiled/") {
				x, y, w, h = -16, -16, 32, 32
			}
			if !m.Infinite || l.X != x || l.Y != y || l.Width != w || l.Height != h {
				t.Fatalf("infinite %v, grid at (%d, %d) of %dx%d, want at (%d, %d) of %dx%d", m.Infinite, l.X, l.Y, l.Width, l.Height, x, y, w, h)
			}
			cells := map[[2]int]tiled.GID{{-2, -2}: 1, {-1, -1}: 3, {2, 0}: 2, {3, 0}: 2, {2, 1}: 2, {3, 1}: 2}
			n := 0
			for y := -3; y < 4; y++ {
				for x := -3; x < 5; x++ {
					if got := l.At(x, y); got != cells[[2]int{x, y}] {
						t.Errorf("At(%d, %d) = %d, want %d", x, y, got, cells[[2]int{x, y}])
					}
					if l.At(x, y) != 0 {
						n++
					}
				}
			}
			if n != len(cells) {
				t.Errorf("%d tiles, want %d", n, len(cells))
			}
		})
	}
}

// TestTiledExamples reads the maps Tiled 1.8.2 wrote from the project's
// own (testdata/tiled; TestTiledWrites shows they are Tiled's output) and
// checks the model against what the originals in testdata/own hold.
func TestTiledExamples(t *testing.T) {
	for _, name := range []string{"tiled/level.tmx", "tiled/level.tmj", "tiled/embedded.tmj"} {
		t.Run(name, func(t *testing.T) {
			m, err := tiled.Load(testFS, name, tiled.Options{})
			if err != nil {
				t.Fatal(err)
			}
			tiledDrops(t, name, m)
			checkOwnMap(t, m)
		})
	}
}

// tiledDrops checks what Tiled 1.8.2 leaves out or rewrites when it
// re-saves own/csv.tmx, and puts the original's value back so checkOwnMap
// can check the rest: a drop the loader misread would fail here.
func tiledDrops(t *testing.T, name string, m *tiled.Map) {
	t.Helper()
	// Classes on maps and non-tile objects, and a class property's type
	// name without a project defining it, came in Tiled 1.9.
	if m.Class != "" {
		t.Errorf("map class %q, want none (Tiled 1.8.2 has no map classes)", m.Class)
	}
	m.Class = "level"
	zone := &m.Layers[1].Objects[1]
	if zone.Class != "" {
		t.Errorf("zone class %q, want none", zone.Class)
	}
	zone.Class = "trigger"
	loot := &zone.Properties[7]
	if loot.CustomType != "" {
		t.Errorf("h_class type %q, want none", loot.CustomType)
	}
	loot.CustomType = "Loot"
	if strings.HasSuffix(name, ".tmx") {
		// The XML writer leaves out the members of a class property
		// whose type no project defines.
		if len(loot.Members) != 0 {
			t.Errorf("h_class members %+v, want none", loot.Members)
		}
		loot.Members = tiled.Properties{{Name: "coins", Type: tiled.IntProperty, Value: "3"}, {Name: "rare", Type: tiled.BoolProperty, Value: "false"}}
	}
	// A file property is rewritten relative to the new file.
	if got := m.Properties.String("music"); got != "../own/song.ogg" {
		t.Errorf("music = %q, want ../own/song.ogg", got)
	}
	m.Properties[0].Value = "song.ogg"
	if strings.HasSuffix(name, ".tmj") {
		// Tiled's JSON image layer has no image size.
		sky := &m.Layers[2]
		if sky.Image.Width != 0 {
			t.Errorf("sky image width %d, want none in JSON", sky.Image.Width)
		}
		sky.Image.Width, sky.Image.Height = 8, 8
	}
	if name == "tiled/embedded.tmj" {
		// Exporting with --embed-tilesets copies the map without the
		// layers' repeatx and locked.
		sky, deco := &m.Layers[2], &m.Layers[3].Layers[0]
		if sky.RepeatX || deco.Locked {
			t.Errorf("embedded: sky repeatx %v, deco locked %v; want both dropped", sky.RepeatX, deco.Locked)
		}
		sky.RepeatX, deco.Locked = true, true
	}
}

func TestLoadTileset(t *testing.T) {
	// tiled/ holds own/terrain.tsx as Tiled 1.8.2 writes it in both formats.
	for _, name := range []string{"own/terrain.tsx", "own/terrain.tsj", "tiled/terrain.tsx", "tiled/terrain.tsj"} {
		ts, err := tiled.LoadTileset(testFS, name, tiled.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if ts.Source != name || ts.TileWidth != 16 || !ts.Tile(0).Properties.Bool("solid") || ts.Tile(3) != nil {
			t.Errorf("%s: %+v", name, ts)
		}
		if a := ts.Tile(1).Animation; len(a) != 2 || a[1] != (tiled.Frame{TileID: 3, Duration: 200 * time.Millisecond}) || ts.Image.Source != "own/terrain.png" {
			t.Errorf("%s: animation %v, image %q", name, a, ts.Image.Source)
		}
	}
}

// TestTilesetWithoutCount loads a map in the form Tiled wrote before
// version 0.9 (testdata/own/old.tmx, written for this test, as Tiled's
// own sewers example is): its tilesets give no tile count or columns, so
// they come from the image's size, its margin and spacing, as Tiled
// computes them.
func TestTilesetWithoutCount(t *testing.T) {
	m, err := tiled.Load(testFS, "own/old.tmx", tiled.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct{ count, columns int }{{4, 2}, {6, 2}} {
		if ts := m.Tilesets[i]; ts.TileCount != want.count || ts.Columns != want.columns {
			t.Errorf("tileset %q: %d tiles in %d columns, want %d in %d", ts.Name, ts.TileCount, ts.Columns, want.count, want.columns)
		}
	}
	ts, id := m.Tileset(10)
	if ts == nil {
		t.Fatal("GID 10 is in no tileset")
	}
	if img, r := ts.TileImage(id); img.Source != "own/spaced.png" || r != geom.R(18, 35, 16, 16) {
		t.Errorf("GID 10: tile %d of %v at %v, want tile 5 of own/spaced.png at (18, 35)", id, img.Source, r)
	}
}

// TestTiledPlatformer: the platformer's level, as Tiled 1.8.2 re-saves it
// (testdata/tiled/platformer.tmx), loads to the same layers, tiles,
// objects and properties as the level itself.
func TestTiledPlatformer(t *testing.T) {
	repo := os.DirFS("..")
	orig, err := tiled.Load(repo, "examples/platformer/assets/level1.tmx", tiled.Options{})
	if err != nil {
		t.Fatal(err)
	}
	resaved, err := tiled.Load(repo, "tiled/testdata/tiled/platformer.tmx", tiled.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(orig.Layers, resaved.Layers) || !reflect.DeepEqual(orig.Properties, resaved.Properties) {
		t.Errorf("the re-saved level differs:\n%+v\n%+v", orig.Layers, resaved.Layers)
	}
	a, b := orig.Tilesets[0], resaved.Tilesets[0]
	if a.Source != b.Source || !reflect.DeepEqual(a.Tiles, b.Tiles) || a.Image != b.Image {
		t.Errorf("tileset %+v, re-saved %+v", a, b)
	}
}
