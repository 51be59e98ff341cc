package tiled

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/metronome-go/metronome/media"
)

// DefaultMaxTiles is the largest tile grid a layer (or an infinite
// layer's chunks together) may have unless [Options.MaxTiles] says
// otherwise: 16M tiles, 64 MiB of GIDs, a 4096x4096 map.
const DefaultMaxTiles = 1 << 24

// Options tune loading. The zero Options is the default.
type Options struct {
	// MaxTiles bounds each tile layer's grid, so that a damaged or hostile
	// file (a layer of 100000x100000, a compressed layer that inflates
	// without end) is refused before it takes the memory it asks for.
	// Zero means DefaultMaxTiles; otherwise it must be positive.
	MaxTiles int
}

func (o Options) maxTiles() int {
	if o.MaxTiles <= 0 {
		return DefaultMaxTiles
	}
	return o.MaxTiles
}

// Load reads the map file name from fsys: a .tmx (XML) or .tmj (JSON) map,
// told apart by its content. External tilesets (.tsx, .tsj) and images are
// named relative to the map's file and read from fsys too (images are only
// named here: package ecs/tilemap loads them into an assets.Library).
//
// Errors are [*media.Error] values with Pkg "tiled", the map's file as
// Path and a cause naming the layer or tileset and what is allowed; they
// wrap [media.ErrCorrupt] (malformed data, a truncated or oversized
// layer, a GID beyond every tileset), [media.ErrUnsupported] (an
// orientation other than orthogonal, an unknown encoding or compression),
// [media.ErrTooLarge] (past [Options.MaxTiles], a decompression bomb) or
// [fs.ErrNotExist] (a missing map or tileset). Load never panics on bad
// input. It may be called from any goroutine.
func Load(fsys fs.FS, name string, opts Options) (*Map, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, &media.Error{Pkg: "tiled", Op: "load map", Path: name, Err: err}
	}
	return Decode(fsys, name, b, opts)
}

// Decode reads a map from its bytes, as [Load] does with the file's
// contents: name says where external tilesets are resolved from and is
// the Path of errors.
func Decode(fsys fs.FS, name string, b []byte, opts Options) (*Map, error) {
	ld := &loader{fsys: fsys, opts: opts, tilesets: map[string]*Tileset{}}
	var m *Map
	var err error
	switch sniff(b) {
	case '<':
		m, err = ld.decodeTMX(name, b)
	case '{':
		m, err = ld.decodeTMJ(name, b)
	default:
		err = media.Detail(media.ErrCorrupt, "neither a .tmx (XML) nor a .tmj (JSON) map")
	}
	if err == nil {
		err = m.checkGIDs()
	}
	if err != nil {
		return nil, &media.Error{Pkg: "tiled", Op: "load map", Path: name, Err: err}
	}
	return m, nil
}

// LoadTileset reads an external tileset file (.tsx or .tsj) from fsys;
// its FirstGID is zero. Errors are as for [Load], with Op "load tileset".
func LoadTileset(fsys fs.FS, name string, opts Options) (*Tileset, error) {
	ld := &loader{fsys: fsys, opts: opts, tilesets: map[string]*Tileset{}}
	ts, err := ld.tileset(name)
	if err != nil {
		return nil, &media.Error{Pkg: "tiled", Op: "load tileset", Path: name, Err: err}
	}
	return ts, nil
}

func sniff(b []byte) byte {
	b = bytes.TrimLeft(b, " \t\r\n\ufeff")
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// loader holds what one load shares: external tilesets read once each.
type loader struct {
	fsys      fs.FS
	opts      Options
	tilesets  map[string]*Tileset
	templates map[string]*template
	m         *Map // the map whose layers are being read
}

// tileset reads the external tileset file name (already resolved), once.
func (ld *loader) tileset(name string) (*Tileset, error) {
	if ts, ok := ld.tilesets[name]; ok {
		return ts, nil
	}
	b, err := fs.ReadFile(ld.fsys, name)
	if err != nil {
		return nil, err
	}
	var ts *Tileset
	switch sniff(b) {
	case '<':
		ts, err = ld.decodeTSX(name, b)
	case '{':
		ts, err = ld.decodeTSJ(name, b)
	default:
		err = media.Detail(media.ErrCorrupt, "neither a .tsx (XML) nor a .tsj (JSON) tileset")
	}
	if err != nil {
		return nil, err
	}
	ts.Source = name
	ld.tilesets[name] = ts
	return ts, nil
}

// external loads the tileset a map names at firstgid and gives the
// map its own copy with that FirstGID.
func (ld *loader) external(mapName, source string, firstGID uint32) (*Tileset, error) {
	name, err := resolve(mapName, source)
	if err != nil {
		return nil, fmt.Errorf("tileset (firstgid %d): %w", firstGID, err)
	}
	ts, err := ld.tileset(name)
	if err != nil {
		return nil, fmt.Errorf("tileset %s (firstgid %d): %w", name, firstGID, err)
	}
	c := *ts
	c.FirstGID = firstGID
	return &c, nil
}

// resolve returns the name in the fs.FS of ref, a path written in the
// file base, refusing one that leaves the file system's root.
func resolve(base, ref string) (string, error) {
	if ref == "" {
		return "", nil
	}
	ref = strings.ReplaceAll(ref, "\\", "/")
	if path.IsAbs(ref) || strings.Contains(ref, ":") {
		return "", media.Detail(media.ErrInvalid, "path %q is absolute; want a path relative to %s inside the file system", ref, base)
	}
	name := path.Join(path.Dir(base), ref)
	if !fs.ValidPath(name) {
		return "", media.Detail(media.ErrInvalid, "path %q leaves the file system's root (from %s)", ref, base)
	}
	return name, nil
}

// checkGIDs refuses a tile or tile object whose GID no tileset holds.
func (m *Map) checkGIDs() error {
	var walk func(ls []Layer) error
	walk = func(ls []Layer) error {
		for i := range ls {
			l := &ls[i]
			for j, g := range l.Tiles {
				if g.ID() != 0 {
					if ts, _ := m.Tileset(g); ts == nil {
						return fmt.Errorf("layer %q: tile (%d, %d) has GID %d, %w", l.Name, l.X+j%l.Width, l.Y+j/l.Width, g.ID(), m.gidRange())
					}
				}
			}
			for j := range l.Objects {
				o := &l.Objects[j]
				if o.GID.ID() != 0 {
					if ts, _ := m.Tileset(o.GID); ts == nil {
						return fmt.Errorf("layer %q: object %d has GID %d, %w", l.Name, o.ID, o.GID.ID(), m.gidRange())
					}
				}
			}
			if err := walk(l.Layers); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(m.Layers)
}

// gidRange says which GIDs the map's tilesets hold, for an error.
func (m *Map) gidRange() error {
	if len(m.Tilesets) == 0 {
		return media.Detail(media.ErrCorrupt, "but the map has no tileset")
	}
	var b strings.Builder
	for i, ts := range m.Tilesets {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d-%d (%s)", ts.FirstGID, int(ts.FirstGID)+ts.span()-1, ts.Name)
	}
	return media.Detail(media.ErrCorrupt, "beyond every tileset (want 0 for none or one of %s)", b.String())
}

// checkTilesets refuses tilesets whose GID ranges overlap or are out of
// order, which would make GIDs ambiguous.
func (m *Map) checkTilesets() error {
	for i, ts := range m.Tilesets {
		if ts.FirstGID == 0 {
			return media.Detail(media.ErrCorrupt, "tileset %d (%s) has firstgid 0, want 1 or more", i, ts.Name)
		}
		if i > 0 {
			prev := m.Tilesets[i-1]
			if uint64(prev.FirstGID)+uint64(prev.span()) > uint64(ts.FirstGID) {
				return media.Detail(media.ErrCorrupt, "tileset %s (firstgid %d) overlaps tileset %s (GIDs %d-%d): want ascending, disjoint ranges",
					ts.Name, ts.FirstGID, prev.Name, prev.FirstGID, int(prev.FirstGID)+prev.span()-1)
			}
		}
	}
	return nil
}

// checkOrientation refuses every map but an orthogonal one. Tiled
// writes the orientation into every map, so a document without one (a
// JSON file that is not a map at all) is refused rather than read as an
// empty map.
func checkOrientation(o string) error {
	if o == "" {
		return media.Detail(media.ErrCorrupt, "no orientation: not a map Tiled wrote (want orientation orthogonal)")
	}
	if o != "orthogonal" {
		return media.Detail(media.ErrUnsupported, "orientation %q is not supported (want orthogonal)", o)
	}
	return nil
}

// defaults fills in what a layer is when the file says nothing.
func (l *Layer) defaults() {
	l.Visible, l.Opacity = true, 1
	l.Tint.R, l.Tint.G, l.Tint.B, l.Tint.A = 1, 1, 1, 1
	l.Parallax.X, l.Parallax.Y = 1, 1
}
