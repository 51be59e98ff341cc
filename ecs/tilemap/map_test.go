package tilemap_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/ecs/ecstest"
	"github.com/metronome-go/metronome/ecs/tilemap"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
	"github.com/metronome-go/metronome/tiled"
)

// mapFS holds package tiled's test maps: own/ (written for its tests) and
// tiled/ (saved by Tiled itself).
var mapFS = os.DirFS("../../tiled/testdata")

// loadedMap loads a test map into a fresh library and uploads it.
func loadedMap(t testing.TB, name string) (*tilemap.Map, *assets.Library, *rendertest.Recorder) {
	t.Helper()
	lib, err := assets.NewLibrary(assets.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	tm, err := tilemap.Load(lib, mapFS, name, tiled.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := rendertest.NewRecorder(320, 240, 4096)
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	return tm, lib, rec
}

func spawnMap(t testing.TB, a *ecs.App, tm *tilemap.Map, opts tilemap.Options) tilemap.Stats {
	t.Helper()
	st, err := tilemap.Spawn(a.World().Commands(), tm, opts)
	if err != nil {
		t.Fatal(err)
	}
	a.World().Apply()
	return st
}

func TestSpawnMap(t *testing.T) {
	tm, lib, rec := loadedMap(t, "own/csv.tmx")
	a := newApp(t, ecs.Options{Assets: lib})
	maps := ecs.AddTileMaps(a)
	if ecs.AddTileMaps(a) != maps {
		t.Error("a second AddTileMaps made another resource")
	}
	st := spawnMap(t, a, tm, tilemap.Options{Layer: -10})
	// ground: 9 tiles in one chunk; sky: 64 pixels of an 8-pixel image
	// repeated along x; deco (hidden, in a group): 2 tiles. Seven objects,
	// the coin with a sprite.
	if st != (tilemap.Stats{Chunks: 3, Tiles: 9 + 8 + 2, Objects: 7}) {
		t.Errorf("stats = %+v", st)
	}
	if err := a.Update(tick(1, 0)); err != nil {
		t.Fatal(err)
	}
	f := prepareWith(t, a, rec)
	ps := f.Passes[0].Packets
	if len(ps) != 9+8+1 {
		t.Fatalf("%d packets, want 9 tiles, 8 sky copies and the coin sprite", len(ps))
	}
	// Layers: ground -10, things -9 (the coin sprite), sky -8; the hidden
	// deco chunk is not drawn.
	for i, want := range []int16{-10, -10, -10, -10, -10, -10, -10, -10, -10, -9, -8} {
		if ps[i].Layer != want {
			t.Errorf("packet %d on layer %d, want %d", i, ps[i].Layer, want)
		}
	}
	if s := maps.Stats(); s.Chunks != 2 || s.Culled != 1 || s.Tiles != 17 {
		t.Errorf("draw stats %+v, want 2 chunks (1 hidden culled) and 17 tiles", s)
	}
	// ground row 0: GIDs 1 and 2 at (0, 0) and (16, 0); tile 1 (GID 2)
	// is animated, on its first frame (tile 1) at game time zero.
	ts := tm.Map.Tilesets[0]
	want0 := region(t, lib, tm, ts, 0)
	if ps[0].Transform.Position != geom.V(0, 0) || ps[0].Size != geom.V(16, 16) || ps[0].Source != want0.Source || ps[0].Tint != render2d.White {
		t.Errorf("ground (0, 0) = %+v, want tile 0 at the origin", ps[0])
	}
	if ps[1].Transform.Position != geom.V(16, 0) || ps[1].Source != region(t, lib, tm, ts, 1).Source {
		t.Errorf("ground (1, 0) = %+v, want tile 1 at (16, 0)", ps[1])
	}
	// GID 4 flipped horizontally at (1, 1): mirrored about its middle.
	flip := ps[3]
	if flip.Source != region(t, lib, tm, ts, 3).Source || flip.Transform.Scale != geom.V(-1, 1) ||
		flip.Transform.Origin != geom.V(8, 8) || flip.Transform.Position != geom.V(24, 24) {
		t.Errorf("flipped tile = %+v", flip.Transform)
	}
	// Half a second in, the animation (100 ms of tile 1, 200 ms of tile
	// 3) is at 200 ms of its period: tile 3.
	for n := uint64(2); n <= 26; n++ {
		if err := a.Update(tick(n, 0)); err != nil {
			t.Fatal(err)
		}
	}
	f = prepareWith(t, a, rec)
	if got := f.Passes[0].Packets[1].Source; got != region(t, lib, tm, ts, 3).Source {
		t.Errorf("animated tile at 500 ms shows %v, want tile 3's %v", got, region(t, lib, tm, ts, 3).Source)
	}

	objs := map[string]tilemap.Object{}
	q := ecs.NewFilter2[ecs.Transform, tilemap.Object](a.World()).Query()
	for q.Next() {
		tr, o := q.Get()
		objs[o.Name] = *o
		if o.Name == "zone" && (tr.Position != geom.V(0, 0) || tr.Rotation < 0.26 || tr.Rotation > 0.27) {
			t.Errorf("zone transform %+v, want at the origin turned 15 degrees", tr)
		}
	}
	if len(objs) != 7 || objs["zone"].Properties.String("a_string") != "hello" || objs["zone"].Class != "trigger" ||
		objs["rock"].Shape != tiled.Polygon || len(objs["rock"].Points) != 3 || objs["coin"].GID.ID() != 2 {
		t.Errorf("objects = %+v", objs)
	}
	if r := objs["pond"]; r.Bounds() != geom.R(16, 16, 24, 12) {
		t.Errorf("pond bounds %v", r.Bounds())
	}
	rects, ok := tm.SolidRects("ground", "solid")
	if !ok || !slices.Equal(rects, []geom.Rect{geom.R(0, 0, 16, 32), geom.R(48, 16, 16, 16), geom.R(0, 32, 64, 16)}) {
		t.Errorf("SolidRects = %v, %v", rects, ok)
	}
	if _, ok := tm.SolidRects("nope", "solid"); ok {
		t.Error("SolidRects found a layer named nope")
	}
}

func region(t testing.TB, lib *assets.Library, tm *tilemap.Map, ts *tiled.Tileset, id int) assets.Region {
	t.Helper()
	r, err := tm.Region(tiled.GID(ts.FirstGID + uint32(id)))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestMapCulling draws a map of 64x64 tiles in chunks of 16 through a
// camera that sees a corner of it.
func TestMapCulling(t *testing.T) {
	m := &tiled.Map{Path: "big", Width: 64, Height: 64, TileWidth: 16, TileHeight: 16,
		Tilesets: []*tiled.Tileset{{FirstGID: 1, Name: "t", TileWidth: 16, TileHeight: 16, TileCount: 4, Columns: 2, Image: tiled.Image{Source: "own/terrain.png"}}}}
	l := tiled.Layer{Kind: tiled.TileLayer, Name: "floor", Width: 64, Height: 64, Visible: true, Opacity: 1, Tint: render2d.White, Parallax: geom.V(1, 1)}
	l.Tiles = make([]tiled.GID, 64*64)
	for i := range l.Tiles {
		l.Tiles[i] = tiled.GID(1 + i%4)
	}
	m.Layers = []tiled.Layer{l}
	tm, lib, rec := mapOf(t, m)
	a := newApp(t, ecs.Options{Assets: lib})
	maps := ecs.AddTileMaps(a)
	if st := spawnMap(t, a, tm, tilemap.Options{}); st.Chunks != 16 || st.Tiles != 4096 {
		t.Fatalf("stats %+v, want 16 chunks of 256 tiles", st)
	}
	cam := a.World().Commands().Spawn()
	ecs.With(cam, ecs.At(0, 0))
	ecs.With(cam, ecs.Camera{Viewport: geom.R(0, 0, 320, 240)})
	a.World().Apply()
	if err := a.Update(tick(1, 0)); err != nil {
		t.Fatal(err)
	}
	f := prepareWith(t, a, rec)
	// 320x240 from the origin touches chunks (0..1) x (0..0): 256 pixels
	// a chunk, so two chunks across and one down.
	if s := maps.Stats(); s.Chunks != 2 || s.Culled != 14 || len(f.Passes[0].Packets) != 512 {
		t.Errorf("stats %+v with %d packets, want 2 chunks drawn of 16", s, len(f.Passes[0].Packets))
	}
}

// mapOf loads the images of a map made in code.
func mapOf(t testing.TB, m *tiled.Map) (*tilemap.Map, *assets.Library, *rendertest.Recorder) {
	t.Helper()
	lib, err := assets.NewLibrary(assets.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	tm, err := tilemap.New(lib, mapFS, m)
	if err != nil {
		t.Fatal(err)
	}
	rec := rendertest.NewRecorder(320, 240, 4096)
	if err := lib.Upload(rec); err != nil {
		t.Fatal(err)
	}
	return tm, lib, rec
}

// TestMapParallax loads a map Tiled wrote from our own content
// (tiled/scene.tmx), whose image layer scrolls at half the camera's
// speed, and checks where it is drawn as the camera moves.
func TestMapParallax(t *testing.T) {
	tm, lib, rec := loadedMap(t, "tiled/scene.tmx")
	a := newApp(t, ecs.Options{Assets: lib})
	ecs.AddTileMaps(a)
	st := spawnMap(t, a, tm, tilemap.Options{})
	// ground: 26 tiles; deco: 2; the sky image: 1; props: three tile
	// objects, entities with sprites.
	if st.Objects != 3 || st.Tiles != 26+2+1 {
		t.Errorf("stats %+v", st)
	}
	cam := a.World().Commands().Spawn()
	ecs.With(cam, ecs.At(80+20, 48))
	ecs.With(cam, ecs.Camera{Anchor: geom.V(0.5, 0.5), Viewport: geom.R(0, 0, 160, 96)})
	a.World().Apply()
	if err := a.Update(tick(1, 0)); err != nil {
		t.Fatal(err)
	}
	f := prepareWith(t, a, rec)
	// The sky (8x8, placed by its top-left corner at the layer's offset
	// (8, 4)), at parallax 0.5 with the camera 20 pixels right of the
	// parallax origin, moves 10 pixels right.
	var found bool
	for _, p := range f.Passes[0].Packets {
		if p.Layer == 0 && p.Transform.Position == geom.V(8+10, 4) {
			found = true
		}
	}
	if !found {
		t.Errorf("the sky is not at (18, 4): %+v", f.Passes[0].Packets)
	}
	// The tile objects are sprite entities placed at their middles (Tiled
	// anchors them bottom-left), the flipped one mirrored.
	q := ecs.NewFilter3[ecs.Transform, ecs.Sprite, tilemap.Object](a.World()).Query()
	want := map[int]struct {
		at, size, scale geom.Vec2
	}{
		1: {geom.V(112+16, 64-16), geom.V(32, 32), geom.V(1, 1)},
		2: {geom.V(16+8, 64-8), geom.V(16, 16), geom.V(-1, 1)},
		3: {geom.V(64+8, 16-8), geom.V(16, 16), geom.V(1, 1)}, // animated
	}
	n := 0
	for q.Next() {
		tr, s, o := q.Get()
		n++
		if w, ok := want[o.ID]; !ok || tr.Position != w.at || s.Size != w.size || tr.Scale != w.scale {
			t.Errorf("tile object %d: %+v %+v", o.ID, tr, s)
		}
	}
	if n != 3 {
		t.Errorf("%d sprite objects, want 3", n)
	}
}

func TestSpawnMapErrors(t *testing.T) {
	tm, _, _ := loadedMap(t, "own/csv.tmx")
	if _, err := tilemap.Spawn(newApp(t, ecs.Options{}).World().Commands(), tm, tilemap.Options{ChunkSize: 1000}); err == nil {
		t.Error("ChunkSize 1000 accepted")
	}
	// A map made in code whose layer does not hold width*height tiles.
	bad := *tm.Map
	bad.Layers = []tiled.Layer{{Kind: tiled.TileLayer, Name: "short", Width: 3, Height: 3, Tiles: make([]tiled.GID, 8)}}
	short, _, _ := mapOf(t, &bad)
	if _, err := tilemap.Spawn(newApp(t, ecs.Options{}).World().Commands(), short, tilemap.Options{}); err == nil || !strings.Contains(err.Error(), `tile layer "short" holds 8 tiles, want width*height = 3*3`) {
		t.Errorf("short layer: %v", err)
	}
	// Not uploaded: the regions do not resolve yet.
	lib, _ := assets.NewLibrary(assets.DefaultOptions())
	tm, err := tilemap.Load(lib, mapFS, "own/csv.tmx", tiled.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := newApp(t, ecs.Options{})
	if _, err := tilemap.Spawn(a.World().Commands(), tm, tilemap.Options{}); !errors.Is(err, assets.ErrPending) {
		t.Errorf("spawn before upload: %v, want assets.ErrPending", err)
	}
	if n := a.World().Commands().Len(); n != 0 {
		t.Errorf("a failed spawn queued %d commands", n)
	}
	if _, err := tilemap.Load(lib, mapFS, "own/terrain.tsx", tiled.Options{}); err == nil {
		t.Error("a tileset loaded as a map")
	}
	if _, err := tilemap.Load(lib, fs.FS(os.DirFS("/nonexistent")), "x.tmx", tiled.Options{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing map: %v", err)
	}
}

// queueExec is an assets.Executor run by hand on the test goroutine:
// pump runs every queued job, graphics call and post.
type queueExec struct {
	jobs  []func(context.Context)
	gfx   []func(assets.Uploader)
	posts []func()
}

func (e *queueExec) Go(job func(context.Context)) error      { e.jobs = append(e.jobs, job); return nil }
func (e *queueExec) Post(fn func()) error                    { e.posts = append(e.posts, fn); return nil }
func (e *queueExec) Graphics(fn func(assets.Uploader)) error { e.gfx = append(e.gfx, fn); return nil }

func (e *queueExec) pump(u assets.Uploader) int {
	n := 0
	for len(e.jobs)+len(e.gfx)+len(e.posts) > 0 {
		jobs, gfx, posts := e.jobs, e.gfx, e.posts
		e.jobs, e.gfx, e.posts = nil, nil, nil
		for _, j := range jobs {
			j(context.Background())
		}
		for _, g := range gfx {
			g(u)
		}
		for _, p := range posts {
			p()
		}
		n += len(jobs) + len(gfx) + len(posts)
	}
	return n
}

func TestMapLoadInBackground(t *testing.T) {
	lib, _ := assets.NewLibrary(assets.DefaultOptions())
	rec := rendertest.NewRecorder(320, 240, 4096)
	exec := &queueExec{}
	ld, err := tilemap.StartLoad(lib, exec, mapFS, "tiled/scene.tmx", tiled.Options{}, assets.LoadOptions{Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	if d, n := ld.Progress(); d != 0 || n != 1 || ld.Done() {
		t.Errorf("before any work: progress %d/%d, done %v", d, n, ld.Done())
	}
	if _, err := ld.Result(); err == nil {
		t.Error("Result before Done gave no error")
	}
	var seen [][2]int
	for !ld.Done() {
		if exec.pump(rec) == 0 {
			t.Fatal("the load stalled: nothing queued and not done")
		}
		d, n := ld.Progress()
		seen = append(seen, [2]int{d, n})
	}
	if ld.Err() != nil {
		t.Fatal(ld.Err())
	}
	// The map and its sheets of named regions (marks.png, and terrain.png
	// and sky.png of the image collection).
	if last := seen[len(seen)-1]; last != [2]int{4, 4} {
		t.Errorf("progress seen %v, want to end at 4/4", seen)
	}
	tm, err := ld.Result()
	if err != nil {
		t.Fatal(err)
	}
	a := newApp(t, ecs.Options{Assets: lib})
	if st := spawnMap(t, a, tm, tilemap.Options{}); st.Tiles != 29 || st.Objects != 3 {
		t.Errorf("spawned %+v", st)
	}

	// A map that fails to parse fails the load, with the parser's error.
	ld, err = tilemap.StartLoad(lib, exec, mapFS, "own/terrain.tsx", tiled.Options{}, assets.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	exec.pump(rec)
	if !ld.Done() || ld.Err() == nil {
		t.Errorf("tileset as a map: done %v err %v", ld.Done(), ld.Err())
	}
	// Canceled before the parse is delivered.
	ld, _ = tilemap.StartLoad(lib, exec, mapFS, "own/csv.tmx", tiled.Options{}, assets.LoadOptions{})
	ld.Cancel()
	exec.pump(rec)
	if !errors.Is(ld.Err(), assets.ErrCanceled) {
		t.Errorf("canceled load: %v", ld.Err())
	}
}

// TestMapTravels: a spawned map is state a snapshot carries whole, so a
// peer that rejoins from a snapshot has the objects (hashed, with their
// properties) and draws the same chunks, animations included.
func TestMapTravels(t *testing.T) {
	tm, lib, rec := loadedMap(t, "own/csv.tmx")
	a := newApp(t, ecs.Options{Assets: lib})
	ecs.AddTileMaps(a)
	spawnMap(t, a, tm, tilemap.Options{})
	b := newApp(t, ecs.Options{Assets: lib})
	ecs.AddTileMaps(b)
	ecs.NewMap[tilemap.Object](b.World()) // the receiver knows the game's types
	ecs.NewMap[ecs.Transform](b.World())
	ecs.NewMap[ecs.Sprite](b.World())
	ecstest.Travel(t, a, b)
	for _, app := range []*ecs.App{a, b} {
		for n := uint64(1); n <= 8; n++ { // 160 ms: the animated tile is on tile 3
			if err := app.Update(tick(n, 0)); err != nil {
				t.Fatal(err)
			}
		}
	}
	fa, fb := prepareWith(t, a, rec), prepareWith(t, b, rec)
	if !slices.Equal(fa.Passes[0].Packets, fb.Passes[0].Packets) || len(fa.Passes[0].Packets) != 18 {
		t.Errorf("the receiver draws %d packets, the sender %d; want the same 18", len(fb.Passes[0].Packets), len(fa.Passes[0].Packets))
	}
	q := ecs.NewFilter1[tilemap.Object](b.World()).Query()
	found := false
	for q.Next() {
		if o := q.Get(); o.Name == "zone" {
			found = true
			if loot, _ := o.Properties.Get("h_class"); loot == nil || loot.Members.String("coins") != "3" {
				t.Errorf("zone's class property arrived as %+v", loot)
			}
		}
	}
	if !found {
		t.Error("the zone object did not arrive")
	}
}
