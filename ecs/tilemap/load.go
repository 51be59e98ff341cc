package tilemap

import (
	"context"
	"fmt"
	"image"
	"io/fs"
	"strconv"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/tiled"
)

// mapPlan is the list of files a map's images take in a library, and
// which tile or image layer each serves.
type mapPlan struct {
	m      *tiled.Map
	files  []assets.File
	specs  []assets.SheetSpec // beside files: each sheet's spec
	art    map[uint32]plannedArt
	images map[string]int // image layer file -> index in files
}

type plannedArt struct {
	file   int
	frame  int
	region string
	size   geom.Vec2
	ts     *tiled.Tileset
	id     int
	sheet  bool
}

// planMap lists the files of m's images: each one-image tileset as a
// sheet cut into its grid, each image of a collection as an image (or, when
// its tiles use parts of it, a sheet with one named region a tile), and
// each image layer's image.
func planMap(m *tiled.Map) (*mapPlan, error) {
	p := &mapPlan{m: m, art: map[uint32]plannedArt{}, images: map[string]int{}}
	imageFile := map[string]int{}
	addImage := func(src string) int {
		if i, ok := imageFile[src]; ok {
			return i
		}
		p.files = append(p.files, assets.ImageFile(src))
		p.specs = append(p.specs, assets.SheetSpec{})
		imageFile[src] = len(p.files) - 1
		return len(p.files) - 1
	}
	for ti, ts := range m.Tilesets {
		if ts.Image.Source != "" && ts.Columns > 0 && ts.TileCount > 0 {
			spec := assets.SheetSpec{
				FrameWidth: ts.TileWidth, FrameHeight: ts.TileHeight, Margin: ts.Margin, Spacing: ts.Spacing, FrameCount: ts.TileCount,
			}
			p.files = append(p.files, assets.SheetFile(ts.Image.Source, spec))
			p.specs = append(p.specs, spec)
			fi := len(p.files) - 1
			for id := range ts.TileCount {
				p.art[ts.FirstGID+uint32(id)] = plannedArt{file: fi, frame: id, size: geom.V(float32(ts.TileWidth), float32(ts.TileHeight)), ts: ts, id: id, sheet: true}
			}
		}
		// Collection tiles, grouped by image: a sheet of named regions
		// when any of them shows part of its image.
		var order []string
		byImage := map[string][]*tiled.Tile{}
		for i := range ts.Tiles {
			t := &ts.Tiles[i]
			if t.Image.Source == "" {
				continue
			}
			if _, ok := byImage[t.Image.Source]; !ok {
				order = append(order, t.Image.Source)
			}
			byImage[t.Image.Source] = append(byImage[t.Image.Source], t)
		}
		for _, src := range order {
			tiles := byImage[src]
			parts := false
			for _, t := range tiles {
				parts = parts || !t.Rect.Empty()
			}
			if !parts {
				fi := addImage(src)
				for _, t := range tiles {
					p.art[ts.FirstGID+uint32(t.ID)] = plannedArt{file: fi, size: geom.V(float32(t.Image.Width), float32(t.Image.Height)), ts: ts, id: t.ID}
				}
				continue
			}
			spec := assets.SheetSpec{Regions: map[string]image.Rectangle{}}
			var arts []plannedArt
			for _, t := range tiles {
				r := t.Rect
				if r.Empty() {
					if t.Image.Width <= 0 || t.Image.Height <= 0 {
						return nil, fmt.Errorf("tileset %s: tile %d shows all of %s, whose size the tileset does not record (save it again with Tiled)", ts.Name, t.ID, src)
					}
					r = geom.R(0, 0, float32(t.Image.Width), float32(t.Image.Height))
				}
				name := strconv.Itoa(ti) + ":" + strconv.Itoa(t.ID)
				spec.Regions[name] = image.Rect(int(r.X), int(r.Y), int(r.X+r.W), int(r.Y+r.H))
				arts = append(arts, plannedArt{region: name, size: r.Size(), ts: ts, id: t.ID, sheet: true})
			}
			p.files = append(p.files, assets.SheetFile(src, spec))
			p.specs = append(p.specs, spec)
			for i, a := range arts {
				a.file = len(p.files) - 1
				p.art[ts.FirstGID+uint32(tiles[i].ID)] = a
			}
		}
	}
	for _, l := range m.Flatten() {
		if l.Kind == tiled.ImageLayer && l.Image.Source != "" {
			p.images[l.Image.Source] = addImage(l.Image.Source)
		}
	}
	return p, nil
}

// build makes the Map from the handles of the plan's files.
func (p *mapPlan) build(lib *assets.Library, sheet func(i int) (assets.Sheet, error), image func(i int) (assets.Image, error)) (*Map, error) {
	tm := &Map{Map: p.m, lib: lib, art: make(map[uint32]tileArt, len(p.art)), images: map[string]assets.Image{}}
	sheets := map[int]assets.Sheet{}
	imgs := map[int]assets.Image{}
	for gid, a := range p.art {
		t := tileArt{frame: a.frame, region: a.region, size: a.size, ts: a.ts, id: a.id}
		var err error
		if a.sheet {
			s, ok := sheets[a.file]
			if !ok {
				if s, err = sheet(a.file); err != nil {
					return nil, err
				}
				sheets[a.file] = s
			}
			t.sheet = s
		} else {
			img, ok := imgs[a.file]
			if !ok {
				if img, err = image(a.file); err != nil {
					return nil, err
				}
				imgs[a.file] = img
			}
			t.img = img
		}
		tm.art[gid] = t
	}
	for src, fi := range p.images {
		img, ok := imgs[fi]
		if !ok {
			var err error
			if img, err = image(fi); err != nil {
				return nil, err
			}
		}
		tm.images[src] = img
	}
	return tm, nil
}

// Load reads the Tiled map name from fsys (package tiled) and places
// its images in lib, in the foreground: for a game's set-up or a test.
// [StartLoad] does the same without stalling the game. Errors name the
// file: a [*media.Error] from package tiled for the map, or from assets
// for an image. The images reach the GPU with the library's next Upload,
// which must come before [Spawn].
func Load(lib *assets.Library, fsys fs.FS, name string, opts tiled.Options) (*Map, error) {
	m, err := tiled.Load(fsys, name, opts)
	if err != nil {
		return nil, err
	}
	return New(lib, fsys, m)
}

// New places the images of m, a map already parsed (or made in
// code), in lib, reading them from fsys, in the foreground. Errors are as
// for [Load]. Images are PNG files with an alpha channel: Tiled's
// transparent colour ([tiled.Image.Trans], from old tilesets) is not
// applied.
func New(lib *assets.Library, fsys fs.FS, m *tiled.Map) (*Map, error) {
	p, err := planMap(m)
	if err != nil {
		return nil, &media.Error{Pkg: "tilemap", Op: "load map", Path: m.Path, Err: err}
	}
	// Files load in the plan's order, so the atlas layout is the same on
	// every run, as a background load's is.
	sheets := make([]assets.Sheet, len(p.files))
	images := make([]assets.Image, len(p.files))
	for i, f := range p.files {
		if p.specs[i].FrameWidth != 0 || p.specs[i].Regions != nil {
			sheets[i], err = lib.LoadSheet(fsys, f.Name(), p.specs[i])
		} else {
			images[i], err = lib.LoadImage(fsys, f.Name())
		}
		if err != nil {
			return nil, err
		}
	}
	return p.build(lib,
		func(i int) (assets.Sheet, error) { return sheets[i], nil },
		func(i int) (assets.Image, error) { return images[i], nil })
}

// Loading is a Tiled map loading in the background, started by
// [StartLoad]: a worker reads and parses the map, then an
// [assets.Load] reads, decodes and places its images and the graphics
// thread uploads them. Like an assets.Load it belongs to the simulation
// owner, which polls it without blocking: [Loading.Progress] for a bar,
// [Loading.Done], then [Loading.Result] for [Spawn].
type Loading struct {
	lib    *assets.Library
	exec   assets.Executor
	fsys   fs.FS
	name   string
	lopts  assets.LoadOptions
	plan   *mapPlan
	images *assets.Load
	err    error
	done   bool
}

// StartLoad starts loading the map name from fsys, and then its
// images into lib, through exec (package assets/assetsrt implements it
// on a runtime session). Call it from the simulation owner. opts tune the
// parse, lopts the image load. An error means nothing was started.
func StartLoad(lib *assets.Library, exec assets.Executor, fsys fs.FS, name string, opts tiled.Options, lopts assets.LoadOptions) (*Loading, error) {
	ld := &Loading{lib: lib, exec: exec, fsys: fsys, name: name, lopts: lopts}
	err := exec.Go(func(ctx context.Context) {
		m, err := tiled.Load(fsys, name, opts)
		var p *mapPlan
		if err == nil {
			if p, err = planMap(m); err != nil {
				err = &media.Error{Pkg: "tilemap", Op: "load map", Path: name, Err: err}
			}
		}
		if ctx.Err() != nil && err == nil {
			err = assets.ErrCanceled
		}
		// A refused post means the owner is gone: nobody polls the load.
		_ = exec.Post(func() { ld.parsed(p, err) })
	})
	if err != nil {
		return nil, fmt.Errorf("tilemap: start map load %s: %w", name, err)
	}
	return ld, nil
}

// parsed runs on the simulation owner once the map is parsed.
func (ld *Loading) parsed(p *mapPlan, err error) {
	if ld.done {
		return // canceled meanwhile
	}
	if err != nil {
		ld.err, ld.done = err, true
		return
	}
	ld.plan = p
	ld.images, err = ld.lib.StartLoad(ld.exec, ld.fsys, p.files, ld.lopts)
	if err != nil {
		ld.err, ld.done = fmt.Errorf("tilemap: load map %s: %w", ld.name, err), true
	}
}

// Progress returns how many files are finished out of how many: the map
// counts as one, and its images are counted once it is parsed.
func (ld *Loading) Progress() (done, total int) {
	if ld.images == nil {
		if ld.done && ld.err == nil {
			return 1, 1
		}
		return 0, 1
	}
	d, t := ld.images.Progress()
	return d + 1, t + 1
}

// Done reports whether the load is over, finished or failed.
func (ld *Loading) Done() bool {
	if ld.done {
		return true
	}
	return ld.images != nil && ld.images.Done()
}

// Err returns the load's failure: the map's, or the first image's.
func (ld *Loading) Err() error {
	if ld.err != nil {
		return ld.err
	}
	if ld.images != nil {
		return ld.images.Err()
	}
	return nil
}

// Result returns the loaded map for [Spawn] once [Loading.Done]; an
// error before that or if the load failed.
func (ld *Loading) Result() (*Map, error) {
	if !ld.Done() {
		return nil, fmt.Errorf("tilemap: map %s is still loading", ld.name)
	}
	if err := ld.Err(); err != nil {
		return nil, err
	}
	return ld.plan.build(ld.lib, ld.images.Sheet, ld.images.Image)
}

// Cancel stops the load; [Loading.Err] then reports [assets.ErrCanceled].
func (ld *Loading) Cancel() {
	if ld.images != nil {
		ld.images.Cancel()
		return
	}
	if !ld.done {
		ld.err, ld.done = fmt.Errorf("tilemap: load map %s: %w", ld.name, assets.ErrCanceled), true
	}
}
