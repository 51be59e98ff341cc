package main

import (
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework/frameworktest"
)

// TestMatchReplayInAWindowDrawsTheMatch (issue 42 item 10): a match's
// recording replayed with --window shows the match. The recording keeps
// the players' confirmed input and no window, and the replay gave the
// game a window of size zero, so it drew the clear colour only, though
// every checkpoint matched; now the replay's ticks see its own window.
// The screenshot after 300 ticks must show both ships' colours.
func TestMatchReplayInAWindowDrawsTheMatch(t *testing.T) {
	bin := processTest(t, "builds the duel and replays a match in a window")
	if _, err := exec.LookPath("Xvfb"); err != nil && os.Getenv("DISPLAY") == "" {
		t.Skip("no display and no Xvfb for a window")
	}
	dir := t.TempDir()
	rec := filepath.Join(dir, "host.rec")
	const d = 6 * time.Second
	if _, err := frameworktest.Match(newGame, frameworktest.MatchOptions{
		Options: frameworktest.Options{Sets: []string{"runtime.frame_cap=60", "window.vsync=false"}},
		Net:     issueNet, For: d,
		Records: []string{rec, ""},
		Script:  func(peer int, sim *frameworktest.Sim) { randomSeat(sim, 0, int(d/tick), uint64(40+peer)) },
	}); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "out.png")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--replay", rec, "--window", "--headless", "--replay-until", "300",
		"--screenshot", shot, "--set", "audio.enabled=false").CombinedOutput()
	if err != nil {
		t.Fatalf("replay in a window: %v\n%s", err, out)
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
	for p, c := range shipColors {
		if n := pixelsNear(img, c.R, c.G, c.B); n < 50 {
			t.Errorf("the screenshot has %d pixels of player %d's colour, want a ship's (50 or more)", n, p+1)
		}
	}
}

// pixelsNear counts img's pixels within a few levels of the colour r, g, b
// (0 to 1).
func pixelsNear(img image.Image, r, g, b float32) int {
	near := func(v uint32, want float32) bool {
		d := int(v>>8) - int(want*255+0.5)
		return d >= -8 && d <= 8
	}
	n := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			pr, pg, pb, _ := img.At(x, y).RGBA()
			if near(pr, r) && near(pg, g) && near(pb, b) {
				n++
			}
		}
	}
	return n
}
