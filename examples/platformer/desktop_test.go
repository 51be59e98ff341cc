package main

import (
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestDesktopWindow builds the platformer and runs it as a player would,
// in a real OpenGL window (--headless: an invisible one, on a private Xvfb
// server without a display), for 120 ticks with the player's settings in
// a --config file, and checks the screenshot: the Tiled level's sky fills
// most of the picture, its ground the bottom, and the title menu, the
// player and the coins the rest. It fails, rather than skips, under CI=true with no way to open a
// window.
func TestDesktopWindow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the platformer and opens a window")
	}
	if _, err := exec.LookPath("Xvfb"); err != nil && os.Getenv("DISPLAY") == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no display and no Xvfb for a window (scripts/setup.sh installs xvfb)")
		}
		t.Skip("no display and no Xvfb for a window")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "platformer")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("go build: %v", err)
	}
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte("[window]\nwidth = 480\nheight = 270\n\n[audio]\nenabled = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--config", cfg, "--headless", "--ticks", "120", "--screenshot", shot).CombinedOutput()
	if err != nil {
		t.Fatalf("the platformer in a window: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	if b.Dx() != 480 || b.Dy() != 270 {
		t.Errorf("screenshot %dx%d, want the window's 480x270", b.Dx(), b.Dy())
	}
	sky, other, ground := 0, 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			near := func(v uint32, want int) bool { d := int(v>>8) - want; return d >= -6 && d <= 6 }
			switch {
			case near(r, 0x5c) && near(g, 0x94) && near(bl, 0xfc):
				sky++
			case y >= b.Max.Y-12:
				ground++
				fallthrough
			default:
				other++
			}
		}
	}
	total := b.Dx() * b.Dy()
	if sky < total/3 || other < total/20 {
		t.Errorf("the screenshot has %d sky pixels (#5c94fc) and %d others of %d: want the level's sky over a third and its tiles, player and menu over a twentieth", sky, other, total)
	}
	// The level's ground row (the map's tiles, drawn under the title
	// menu's own pass) covers the bottom of the screen but for a pit.
	if want := b.Dx() * 12 * 3 / 4; ground < want {
		t.Errorf("the bottom 12 rows have %d pixels of ground, want %d and more: the map's tiles are not drawn", ground, want)
	}
}
