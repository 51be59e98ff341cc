package assets_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/image/font/gofont/gomono"
)

// TestLoadFromDirectory loads from a directory on disk through os.DirFS,
// the third kind of file system the package promises besides embed and
// MapFS.
func TestLoadFromDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "img"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "img", "tile.png"), encodePNG(t, pattern(7, 3, 5)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mono.ttf"), gomono.TTF, 0o644); err != nil {
		t.Fatal(err)
	}
	fsys := os.DirFS(dir)
	lib := newLib(t, small())
	img, err := lib.LoadImage(fsys, "img/tile.png")
	if err != nil {
		t.Fatal(err)
	}
	if w, h, err := lib.ImageSize(img); w != 7 || h != 3 || err != nil {
		t.Errorf("ImageSize: %dx%d, %v; want 7x3", w, h, err)
	}
	if _, err := lib.LoadFont(fsys, "mono.ttf", 11); err != nil {
		t.Errorf("LoadFont from a directory: %v", err)
	}
	// The file changes on disk; Reload picks it up.
	if err := os.WriteFile(filepath.Join(dir, "img", "tile.png"), encodePNG(t, pattern(9, 9, 6)), 0o644); err != nil {
		t.Fatal(err)
	}
	img2, err := lib.Reload(img)
	if err != nil {
		t.Fatal(err)
	}
	if w, h, _ := lib.ImageSize(img2); w != 9 || h != 9 {
		t.Errorf("after Reload: %dx%d, want 9x9", w, h)
	}
}
