package inspect_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/internal/browsertest"
)

// pageWaiter returns a wait that waits until the page's state satisfies
// cond (a JavaScript expression), giving up only when the page stops
// changing for a minute.
func pageWaiter(t *testing.T, ctx context.Context) func(what, cond string) {
	return func(what, cond string) {
		t.Helper()
		var last string
		stalled := time.Now()
		for {
			ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("Boolean("+cond+")"))
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if ok {
				return
			}
			seen, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify([globalThis.inspector?.tick, globalThis.inspector?.ticks, globalThis.inspector?.busy, document.getElementById("msg").textContent])`))
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if seen != last {
				last, stalled = seen, time.Now()
			} else if time.Since(stalled) > time.Minute {
				t.Fatalf("%s: the page made no progress for a minute: %s", what, seen)
			}
			_, _ = chromedp.Run(ctx, chromedp.Poll[bool]("Boolean("+cond+")", chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(time.Second)))
		}
	}
}

// The page on a game as it plays, in headless chromium: it waits for the
// first tick, follows the live end as the game runs, stays on a tick
// stepped back to while the game goes on, and follows again on "live".
func TestPageFollowsALiveGame(t *testing.T) {
	live := inspect.NewLive()
	sim := liveGame(t, live)
	live.Watch(sim.Runtime.Stats)
	followed := follow(live, 50)
	h, err := inspect.NewLiveHandler(live, inspect.ServerOptions{Name: "live"})
	if err != nil {
		t.Fatal(err)
	}
	url := browsertest.Serve(t, h)
	ctx := browsertest.Start(t, 10*time.Minute)
	wait := pageWaiter(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	wait("the page waiting for the first tick", `/no tick yet/.test(document.getElementById("msg").textContent)`)
	if err := sim.Step(120); err != nil {
		t.Fatal(err)
	}
	wait("the page's start", "globalThis.inspector && inspector.ready && inspector.live")
	if err := sim.Step(120); err != nil {
		t.Fatal(err)
	}
	wait("following the live end", "inspector.ticks >= 200 && inspector.tick === inspector.ticks - 1 && !inspector.busy")

	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#back`))); err != nil {
		t.Fatal(err)
	}
	wait("a step back", "!inspector.follow && !inspector.busy")
	back, err := chromedp.Run(ctx, chromedp.Evaluate[int]("inspector.tick"))
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Step(120); err != nil {
		t.Fatal(err)
	}
	wait("the session growing behind the page", fmt.Sprintf("inspector.ticks >= 320 && inspector.tick === %d", back))
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#live`))); err != nil {
		t.Fatal(err)
	}
	wait("following again", fmt.Sprintf("inspector.follow && inspector.tick === inspector.ticks - 1 && inspector.tick > %d", back))

	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
	live.Close()
	if err := <-followed; err != nil {
		t.Fatal(err)
	}
	wait("the game's end", `!inspector.live && /the game ended/.test(document.getElementById("ticks").textContent) && inspector.ticks === 360`)
	// The game's presents: spans over all 360 ticks, drawn on the strip,
	// and the tick's line gives its span's.
	wait("the presents", `inspector.presents.length > 1 && inspector.presents[inspector.presents.length - 1].to === 360 && inspector.presents.every(p => p.presented > 0)`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#back`))); err != nil {
		t.Fatal(err)
	}
	wait("the tick's presents", `!inspector.busy && /presents: [0-9.]+ a tick \([0-9]+ over ticks/.test(document.getElementById("tickinfo").textContent)`)
}
