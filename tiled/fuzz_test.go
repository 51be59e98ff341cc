package tiled_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/tiled"
)

// fuzzMap checks what any input must give: a *media.Error naming the map,
// or a map whose every tile layer holds Width*Height tiles, whose every
// GID has a tileset, and that SolidRects and Flatten take without panic.
func fuzzMap(f *testing.F, patterns ...string) {
	var seeds []string
	for _, p := range patterns {
		own, _ := filepath.Glob(filepath.Join("testdata", "own", p))
		byTiled, _ := filepath.Glob(filepath.Join("testdata", "tiled", "*", p))
		seeds = append(append(seeds, own...), byTiled...)
	}
	if len(seeds) == 0 {
		f.Fatalf("no seeds for %v", patterns)
	}
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	fsys := fstest.MapFS{}
	for _, name := range []string{"terrain.tsx", "terrain.tsj"} {
		b, err := os.ReadFile(filepath.Join("testdata", "own", name))
		if err != nil {
			f.Fatal(err)
		}
		fsys[name] = &fstest.MapFile{Data: b}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := tiled.Decode(fsys, "m", b, tiled.Options{MaxTiles: 1 << 16})
		if err != nil {
			var me *media.Error
			if !errors.As(err, &me) || me.Path != "m" || me.Pkg != "tiled" {
				t.Fatalf("error %v is not a *media.Error for m", err)
			}
			if !errors.Is(err, media.ErrCorrupt) && !errors.Is(err, media.ErrUnsupported) && !errors.Is(err, media.ErrTooLarge) &&
				!errors.Is(err, media.ErrInvalid) && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrInvalid) {
				t.Fatalf("error %v wraps no sentinel", err)
			}
			return
		}
		for _, l := range m.Flatten() {
			if l.Kind != tiled.TileLayer {
				continue
			}
			if len(l.Tiles) != l.Width*l.Height || l.Width*l.Height > 1<<16 {
				t.Fatalf("layer %q: %d tiles for %dx%d", l.Name, len(l.Tiles), l.Width, l.Height)
			}
			for _, g := range l.Tiles {
				if ts, _ := m.Tileset(g); g.ID() != 0 && ts == nil {
					t.Fatalf("layer %q: GID %d has no tileset", l.Name, g.ID())
				}
			}
			tiled.SolidRects(m, &l, tiled.SolidProperty("solid"))
		}
	})
}

func FuzzTMX(f *testing.F) { fuzzMap(f, "*.tmx") }

func FuzzTMJ(f *testing.F) {
	f.Add([]byte(`{"type":"map","orientation":"orthogonal","infinite":true,"layers":[{"type":"tilelayer","chunks":[{"x":-5,"y":3,"width":1,"height":1,"data":[0]}]}]}`))
	fuzzMap(f, "*.tmj", "*.json")
}
