//go:build linux && cgo

package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/internal/browsertest"
)

// The page, in headless chromium, marks the ticks that played sounds on
// its strip (one mark a tick while the strip has a column a tick) and
// names a tick's sounds in its line.
func TestInspectorPageShowsTheSounds(t *testing.T) {
	path, played, _ := recordDemoSounds(t, 600)
	rep, err := framework.InspectReplay(newGame(), path, inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ticks []int
	for tk := range played {
		ticks = append(ticks, int(tk))
	}
	slices.Sort(ticks)
	at := ticks[len(ticks)/2]
	var want []string
	for _, s := range rep.Timeline(uint64(at), uint64(at)+1)[0].Sounds {
		want = append(want, "play "+s.Name+" (effects)")
	}
	h, err := inspect.NewHandler(rep, inspect.ServerOptions{Name: "demo.rec"})
	if err != nil {
		t.Fatal(err)
	}
	url := browsertest.Serve(t, h)
	ctx := browsertest.Start(t, 2*time.Minute, chromedp.WindowSize(1600, 900))
	if err := chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s?tick=%d", url, at))); err != nil {
		t.Fatal(err)
	}
	waitPage(t, ctx, fmt.Sprintf("globalThis.inspector && inspector.ready && inspector.tick === %d && !inspector.busy && inspector.soundMarks", at))
	marks, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`inspector.soundMarks`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(marks, ticks) {
		t.Errorf("the strip marks sounds at ticks %v; the game played them at %v", marks, ticks)
	}
	line, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("tickinfo").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if w := "sounds: " + strings.Join(want, ", "); !strings.Contains(line, w) {
		t.Errorf("tick %d's line %q; want %q", at, line, w)
	}
}
