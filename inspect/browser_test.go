package inspect_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/internal/browsertest"
)

// The page in headless chromium: open it on a recording, scrub on the
// timeline, step, and read one entity's field at two ticks, checked
// against what the recorded session held.
func TestPageScrubsStepsAndReadsAField(t *testing.T) {
	path, xs := record(t)
	rep := open(t, path, 50)
	h, err := inspect.NewHandler(rep, inspect.ServerOptions{Name: "test.rec", Token: "tok"})
	if err != nil {
		t.Fatal(err)
	}
	url := browsertest.Serve(t, h)
	ctx := browsertest.Start(t, 10*time.Minute)

	// wait waits until the page's state satisfies cond (a JavaScript
	// expression), giving up only when the page stops changing.
	wait := func(what, cond string) {
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
			seen, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify([globalThis.inspector?.tick, globalThis.inspector?.busy, document.getElementById("msg").textContent, document.body.innerText.length])`))
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if seen != last {
				last, stalled = seen, time.Now()
			} else if time.Since(stalled) > time.Minute {
				t.Fatalf("%s: the page made no progress for a minute: %s", what, seen)
			}
			// Up to a second for the condition, then look at the progress.
			_, _ = chromedp.Run(ctx, chromedp.Poll[bool]("Boolean("+cond+")", chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(time.Second)))
		}
	}
	field := func() float32 {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#inspector [data-path="mover.X"] .v').textContent`))
		if err != nil {
			t.Fatal(err)
		}
		v, err := strconv.ParseFloat(s, 32)
		if err != nil {
			t.Fatalf("mover.X shows %q", s)
		}
		return float32(v)
	}
	settled := func(tick int) {
		t.Helper()
		wait(fmt.Sprintf("tick %d", tick), fmt.Sprintf(`inspector.tick === %d && !inspector.busy && document.querySelector('#inspector [data-path="mover.X"]')`, tick))
	}

	if err := chromedp.Do(ctx, chromedp.Navigate(url+"?token=tok")); err != nil {
		t.Fatal(err)
	}
	wait("the page's start", "globalThis.inspector && inspector.ready")
	// Select the mover.
	// Find the mover by its component, then click it.
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#search`), "mover")); err != nil {
		t.Fatal(err)
	}
	wait("the search", `document.querySelectorAll("#entities .row").length === 1 && /mover/.test(document.querySelector("#entities .row").textContent)`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#entities .row`))); err != nil {
		t.Fatal(err)
	}
	wait("the frame", "inspector.frameQuads === 1")
	settled(0)
	if got := field(); got != xs[0] {
		t.Errorf("mover.X at tick 0: page shows %v, want %v", got, xs[0])
	}
	// The game's states: a band of three spans on the strip, and the
	// state in force in the tick's line.
	spans, err := chromedp.Run(ctx, chromedp.Evaluate[string](`inspector.stateSpans.map(s => s.from + "-" + s.to + " " + s.states).join("; ")`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "0-151 inspect_test.phase early; 151-401 inspect_test.phase late; 401-600 inspect_test.phase later"; spans != want {
		t.Errorf("the strip's state spans: %q, want %q", spans, want)
	}
	// The presents the recording kept: spans drawn under the states, and
	// the tick's share in its line.
	wait("the replay's presents", `inspector.presents.length > 3 && inspector.presents.every(p => p.presented > 0) && /presents: [0-9.]+ a tick \([0-9]+ over ticks 0-/.test(document.getElementById("tickinfo").textContent)`)
	// Zoomed in with the wheel to single ticks, the band is a bar a tick:
	// the frames presented after it, the next recorded tick's Presented;
	// the tick's line says its own.
	wait("tick 0's presents", `/; [0-9]+ after this tick/.test(document.getElementById("tickinfo").textContent)`)
	before := recordedPresents(t, path)
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(() => {
		const s = document.getElementById("strip"), r = s.getBoundingClientRect();
		for (let i = 0; i < 20 && inspector.to - inspector.from > 30; i++) {
			s.dispatchEvent(new WheelEvent("wheel", { deltaY: -100, clientX: r.left + r.width / 2, clientY: r.top + 10, cancelable: true }));
		}
		return inspector.to - inspector.from;
	})()`))
	if err != nil || n > 30 {
		t.Fatalf("zooming in: %d ticks in view (%v), want at most 30", n, err)
	}
	wait("the per-tick presents", `inspector.presentsDrawn.length === inspector.to - inspector.from`)
	drawn, err := chromedp.Run(ctx, chromedp.Evaluate[[]struct{ Tick, Presented int }](`inspector.presentsDrawn`))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range drawn {
		if d.Tick+1 >= len(before) || d.Presented != before[d.Tick+1] {
			t.Errorf("tick %d: the band shows %d presents after it, want the next tick's recorded %v", d.Tick, d.Presented, before[min(d.Tick+1, len(before)-1)])
		}
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { inspector.from = 0; inspector.to = inspector.ticks; drawStrip(); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	stateLine := func(tick int, want string) {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("tickinfo").textContent`))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got, "state: "+want) {
			t.Errorf("tick %d's line: %q, want the state %q", tick, got, want)
		}
	}
	stateLine(0, "inspect_test.phase early")

	// Scrub: press on the strip three quarters of the way and drag to the
	// middle.
	box, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const r = document.getElementById("strip").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	y := box[1] + box[3]/2
	if err := chromedp.Do(ctx,
		chromedp.MouseEvent("mousePressed", box[0]+box[2]*0.75, y, chromedp.ButtonLeft),
		chromedp.MouseEvent("mouseMoved", box[0]+box[2]*0.6, y, chromedp.ButtonLeft),
		chromedp.MouseEvent("mouseMoved", box[0]+box[2]*0.5+1, y, chromedp.ButtonLeft),
		chromedp.MouseEvent("mouseReleased", box[0]+box[2]*0.5+1, y, chromedp.ButtonLeft)); err != nil {
		t.Fatal(err)
	}
	// The page takes the mouse at whole pixels: the tick is about the
	// middle one.
	want := int((box[2]*0.5 + 1) / box[2] * testTicks)
	wait("the scrub", fmt.Sprintf("Math.abs(inspector.tick - %d) <= 2 && !inspector.busy", want))
	mid, err := chromedp.Run(ctx, chromedp.Evaluate[int]("inspector.tick"))
	if err != nil {
		t.Fatal(err)
	}
	settled(mid)
	if got := field(); got != xs[mid] {
		t.Errorf("mover.X at tick %d after scrubbing: page shows %v, want %v", mid, got, xs[mid])
	}
	stateLine(mid, "inspect_test.phase late")
	// Step one tick forward and one back.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#fwd`))); err != nil {
		t.Fatal(err)
	}
	settled(mid + 1)
	if got := field(); got != xs[mid+1] {
		t.Errorf("mover.X at tick %d after a step: page shows %v, want %v", mid+1, got, xs[mid+1])
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#back`)), chromedp.Click(chromedp.CSS(`#back`))); err != nil {
		t.Fatal(err)
	}
	settled(mid - 1)
	if got := field(); got != xs[mid-1] {
		t.Errorf("mover.X at tick %d after two steps back: page shows %v, want %v", mid-1, got, xs[mid-1])
	}
	// The field's graph over the session.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#inspector [data-path="mover.X"]`))); err != nil {
		t.Fatal(err)
	}
	wait("the graph", fmt.Sprintf("inspector.graphData && inspector.graphData.length === %d && !inspector.busy", testTicks))
	at, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`inspector.graphData[123].value`))
	if err != nil {
		t.Fatal(err)
	}
	if float32(at) != xs[123] {
		t.Errorf("graph of mover.X at 123: %v, want %v", at, xs[123])
	}
}

// The page's compare view, in headless chromium, names the system whose
// code parts between two builds of the game, as framework.BisectBuilds
// does, and a click on it moves the page to that tick.
func TestPageCompareNamesTheSystem(t *testing.T) {
	const drift = 200
	path, _ := record(t)
	other, _ := recordGame(t, testGameDrifting(drift), 500*time.Millisecond)
	want, err := framework.BisectBuilds(testGame(), testGameDrifting(drift), path, other)
	if err != nil {
		t.Fatal(err)
	}
	if !want.HasSystem || want.System != "move" {
		t.Fatalf("BisectBuilds: %v; want system move named", want)
	}
	rep := open(t, path, 50)
	h, err := inspect.NewHandler(rep, inspect.ServerOptions{Name: "a.rec",
		Analysis: framework.InspectAnalysisBuilds(testGame(), testGameDrifting(drift), path, other)})
	if err != nil {
		t.Fatal(err)
	}
	url := browsertest.Serve(t, h)
	ctx := browsertest.Start(t, 10*time.Minute)
	wait := func(what, cond string) {
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
			seen, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify([globalThis.inspector?.tick, document.getElementById("msg").textContent, document.body.innerText])`))
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
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	wait("the compare view", `globalThis.inspector && inspector.ready && document.getElementById("compare-system")`)
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("compare").innerText`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "system move (") || !strings.Contains(text, fmt.Sprintf("after tick %d", want.Tick)) {
		t.Errorf("the compare view shows %q; want system move after tick %d", text, want.Tick)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#compare-system`))); err != nil {
		t.Fatal(err)
	}
	wait("the named tick", fmt.Sprintf("inspector.tick === %d && !inspector.busy", want.Tick))
}
