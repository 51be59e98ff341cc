//go:build !js

package main

import (
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestPlatformerInBrowser runs examples/platformer in the page: its Tiled
// level is drawn (the map's chunks, the coins, the player) under the
// title menu, Enter on the menu's Play starts the game, and a held A
// turns the player to the left, the one sprite then drawn with a negative
// width (its scale): the menu and the keys work in the browser.
func TestPlatformerInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the platformer for the browser")
	}
	ctx := browser(t)
	s, err := testBuild(buildOptions{Dir: "../../examples/platformer"})
	if err != nil {
		t.Fatal(err)
	}
	start(t, ctx, s, "", 30)
	sprites := eval[[]float64](t, ctx, `metronome.sprites()`)
	if n := len(sprites) / 4; n < 60 {
		t.Fatalf("%d sprites drawn, want the level's first screen (60 and more)", n)
	}
	// The player's sprite is drawn with a negative width once it faces
	// left (Transform.Scale.X = -1): the only one.
	const turned = `metronome.sprites().some((v, i) => i % 4 == 2 && v < 0)`
	if eval[bool](t, ctx, turned) {
		t.Fatal("a sprite faces left before any key")
	}
	if err := chromedp.Do(ctx, key(input.DispatchKeyEventTypeKeyDown, "Enter", 13), key(input.DispatchKeyEventTypeKeyUp, "Enter", 13)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, key(input.DispatchKeyEventTypeKeyDown, "KeyA", 65)); err != nil {
		t.Fatal(err)
	}
	defer chromedp.Do(ctx, key(input.DispatchKeyEventTypeKeyUp, "KeyA", 65))
	waitFor(t, ctx, turned, "the player turned left by A")
	if code := eval[any](t, ctx, `exitCode`); code != nil {
		t.Errorf("the platformer exited with %v: %s", code, eval[string](t, ctx, `stderr`))
	}
}
