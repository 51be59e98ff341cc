package tiled_test

import (
	"bytes"
	"flag"
	"image"
	"image/draw"
	"image/png"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/tiled"
)

var updateTiled = flag.Bool("update-tiled", false, "rewrite testdata/tiled with the installed Tiled")

// tiledExport is one file of testdata/tiled: Tiled's writer run on one of
// the project's own maps or tilesets (in testdata/own, and the
// platformer's level).
type tiledExport struct {
	out    string   // under testdata/tiled
	args   []string // tiled's options before the input and output
	in     string   // relative to testdata
	tmjMap bool     // out is a map (loaded with tiled.Load), not a tileset
}

// tiledExports lists every file in testdata/tiled and how Tiled wrote it;
// testdata/README.md repeats the list.
var tiledExports = []tiledExport{
	{"level.tmx", []string{"--export-map", "tmx"}, "own/csv.tmx", true},
	{"level.tmj", []string{"--export-map", "json"}, "own/csv.tmx", true},
	{"embedded.tmj", []string{"--export-map", "--embed-tilesets", "json"}, "own/csv.tmx", true},
	{"infinite.tmx", []string{"--export-map", "tmx"}, "own/infinite.tmx", true},
	{"infinite.tmj", []string{"--export-map", "json"}, "own/infinite.tmx", true},
	{"templated.tmx", []string{"--export-map", "tmx"}, "own/templated.tmx", true},
	{"templated.tmj", []string{"--export-map", "json"}, "own/templated.tmx", true},
	{"terrain.tsx", []string{"--export-tileset", "tsx"}, "own/terrain.tsx", false},
	{"terrain.tsj", []string{"--export-tileset", "json"}, "own/terrain.tsx", false},
	{"props.tsj", []string{"--export-tileset", "json"}, "own/props.tsx", false},
	{"scene.tmx", []string{"--export-map", "tmx"}, "own/scene.tmx", true},
	{"platformer.tmx", []string{"--export-map", "tmx"}, platformerLevel, true},
}

// platformerLevel is examples/platformer's level, relative to testdata.
const platformerLevel = "../../examples/platformer/assets/level1.tmx"

// tiledGolden is Tiled's own picture of tiled/scene.tmx, drawn by its
// tmxrasterizer at scale 1 with --no-smoothing; ecs's TestMapGolden compares our renderer's
// frame with it.
const tiledGolden = "scene.png"

// runTiled has the installed Tiled export every file of tiledExports into
// root/tiled/testdata/tiled, root being a tree laid out like the
// repository's. Without tiled it skips, except under
// CI=true, where scripts/setup.sh installs it and its absence is a failure.
func runTiled(t *testing.T, root string) {
	t.Helper()
	bin, err := exec.LookPath("tiled")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tiled is not installed; scripts/setup.sh installs it (Debian package tiled)")
		}
		t.Skip("tiled is not installed (scripts/setup.sh installs it)")
	}
	runtime := t.TempDir()
	for _, e := range tiledExports {
		args := append(append([]string{}, e.args...), e.in, "tiled/"+e.out)
		cmd := exec.Command(bin, args...)
		cmd.Dir = filepath.Join(root, "tiled", "testdata")
		// Tiled is a Qt program: offscreen needs no display.
		cmd.Env = append(os.Environ(), "QT_QPA_PLATFORM=offscreen", "XDG_RUNTIME_DIR="+runtime)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tiled %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	raster, err := exec.LookPath("tmxrasterizer")
	if err != nil {
		t.Fatal("tmxrasterizer is not installed; it comes with the Debian package tiled")
	}
	// Nearest texel, as our renderer samples.
	cmd := exec.Command(raster, "--no-smoothing", "tiled/scene.tmx", "tiled/"+tiledGolden)
	cmd.Dir = filepath.Join(root, "tiled", "testdata")
	cmd.Env = append(os.Environ(), "QT_QPA_PLATFORM=offscreen", "XDG_RUNTIME_DIR="+runtime)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmxrasterizer: %v\n%s", err, out)
	}
}

// decodePNG reads a PNG of fsys as non-premultiplied RGBA.
func decodePNG(t *testing.T, fsys fs.FS, name string) *image.NRGBA {
	t.Helper()
	f, err := fsys.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	n := image.NewNRGBA(img.Bounds())
	draw.Draw(n, n.Rect, img, img.Bounds().Min, draw.Src)
	return n
}

// TestTiledWrites has the installed Tiled re-save the project's own maps
// into a temporary directory and checks that the committed files in
// testdata/tiled are byte for byte what it writes, and that the loader reads
// the same model from both: the committed files are Tiled's own output.
// go test -run TestTiledWrites -update-tiled rewrites them.
func TestTiledWrites(t *testing.T) {
	// The repository's root, and a copy of what Tiled reads laid out the
	// same way, so paths in the files and the models come out alike.
	repo := os.DirFS("..")
	root := t.TempDir()
	if *updateTiled {
		root = ".."
	} else {
		for _, dir := range []string{"tiled/testdata/own", "examples/platformer/assets"} {
			if err := os.CopyFS(filepath.Join(root, dir), os.DirFS(filepath.Join("..", dir))); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Mkdir(filepath.Join(root, "tiled/testdata/tiled"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	runTiled(t, root)
	fresh := os.DirFS(root)
	for _, e := range tiledExports {
		name := "tiled/testdata/tiled/" + e.out
		got, err := fs.ReadFile(fresh, name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := fs.ReadFile(repo, name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the committed file differs from what tiled writes now (go test -run TestTiledWrites -update-tiled)", name)
		}
		var a, b any
		if e.tmjMap {
			a, err = tiled.Load(fresh, name, tiled.Options{})
			if err == nil {
				b, err = tiled.Load(repo, name, tiled.Options{})
			}
		} else {
			a, err = tiled.LoadTileset(fresh, name, tiled.Options{})
			if err == nil {
				b, err = tiled.LoadTileset(repo, name, tiled.Options{})
			}
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: the model of a fresh export differs from the committed one", name)
		}
	}
	// The picture's PNG encoding may vary with the Qt build; its pixels
	// may not.
	golden := "tiled/testdata/tiled/" + tiledGolden
	got, want := decodePNG(t, fresh, golden), decodePNG(t, repo, golden)
	if got.Rect != want.Rect || !bytes.Equal(got.Pix, want.Pix) {
		t.Errorf("tiled/%s: the committed picture differs from what tmxrasterizer draws now (go test -run TestTiledWrites -update-tiled)", tiledGolden)
	}
}
