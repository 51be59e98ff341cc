//go:build !js

package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/metronome-go/metronome/internal/browsertest"
	"github.com/metronome-go/metronome/internal/shadersrc"
)

// The browser tests run the games in Debian's chromium, headless, driven
// through the DevTools protocol (internal/browsertest starts it). Without
// chromium they skip, except in CI (CI=true), where a browser that cannot
// start fails the test.

// hookTag builds a game with webplatform's test hook, the page's metronome
// object these tests read; a game's own build has none.
const hookTag = "metronome_testhook"

// testBuild builds a game for the browser with the test hook.
func testBuild(o buildOptions) (*site, error) {
	o.Tags = strings.Trim(o.Tags+","+hookTag, ",")
	return build(context.Background(), o, os.Stderr)
}

var breakoutSite = sync.OnceValues(func() (*site, error) {
	return testBuild(buildOptions{Dir: "../../examples/breakout"})
})

// browser starts headless chromium (internal/browsertest). Its bound is
// only for a browser that stops answering: a loaded machine (load 20 and
// more) makes every step slow, and the tests' waits fail on a page that
// makes no progress (waitFor), not on a total budget.
func browser(t testing.TB, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	return browsertest.Start(t, 30*time.Minute, extra...)
}

// serve serves h on a loopback port and returns its URL.
func serve(t testing.TB, h http.Handler) string {
	t.Helper()
	return browsertest.Serve(t, h)
}

// stallLimit is how long a wait goes on without the page making any
// progress before it fails: generous, as at load 20 a present can take
// seconds and compiling the module a minute.
const stallLimit = 3 * time.Minute

// pageProgress is a JavaScript expression whose value changes whenever
// the page gets on: a present, output, the message line, the load state,
// the game's exit.
const pageProgress = `String([globalThis.metronome?.presents ?? 0,
	typeof stdout === "undefined" ? 0 : stdout.length + stderr.length,
	typeof exitCode === "undefined" ? null : exitCode,
	document.getElementById("message")?.textContent ?? "", document.readyState])`

// waitFor evaluates the expression until it is true. It waits as long as
// the page makes progress (pageProgress changes) and fails after
// stallLimit without any.
func waitFor(t testing.TB, ctx context.Context, expr, what string) {
	t.Helper()
	if err := waitProgress(ctx, expr, stallLimit); err != nil {
		msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("message")?.textContent ?? ""`))
		t.Fatalf("waiting for %s: %v; the page says %q", what, err, msg)
	}
}

// waitProgress evaluates expr until it is true, for as long as the page
// makes progress; after limit without any it fails.
func waitProgress(ctx context.Context, expr string, limit time.Duration) error {
	for {
		before, err := chromedp.Run(ctx, chromedp.Evaluate[string](pageProgress))
		if err != nil {
			return fmt.Errorf("reading the page's progress: %w", err)
		}
		// True when the condition holds or the page got on.
		poll := fmt.Sprintf("(%s) || %s !== %s", expr, pageProgress, strconv.Quote(before))
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](poll, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(limit))); err != nil {
			if errors.Is(err, chromedp.ErrPollingTimeout) {
				return fmt.Errorf("%s: no progress for %v (still %s)", expr, limit, before)
			}
			return fmt.Errorf("%s: %w", expr, err)
		}
		done, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err != nil {
			return fmt.Errorf("%s: %w", expr, err)
		}
		if done {
			return nil
		}
	}
}

// TestWaitOnProgress: a wait lasts as long as the page makes progress,
// longer than the stall limit in all, and fails only once the page makes
// none for that long. The page presents (counts) every 400 ms to 30, or
// stops at 5.
func TestWaitOnProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the browser for about 20 s")
	}
	ctx := browser(t)
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!DOCTYPE html><script>globalThis.metronome = {presents: 0};
const id = setInterval(() => { if (++metronome.presents >= %s) clearInterval(id); }, 400);</script>`, r.URL.Query().Get("to"))
	}))
	const limit = 4 * time.Second
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"?to=30")); err != nil {
		t.Fatal(err)
	}
	if err := waitProgress(ctx, "metronome.presents >= 30", limit); err != nil {
		t.Errorf("30 presents 400 ms apart with a %v stall limit: %v", limit, err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"?to=5")); err != nil {
		t.Fatal(err)
	}
	err := waitProgress(ctx, "metronome.presents >= 30", limit)
	if err == nil || !strings.Contains(err.Error(), "no progress for 4s") {
		t.Errorf("a page stopped at 5 presents: %v, want no progress for %v", err, limit)
	}
}

// paddleX finds Breakout's paddle among the last frame's sprites (the one
// 104 x 16 units) and returns its x.
func paddleX(t testing.TB, ctx context.Context) float64 {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`metronome.sprites()`))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+3 < len(s); i += 4 {
		if s[i+2] == 104 && s[i+3] == 16 {
			return s[i]
		}
	}
	t.Fatalf("no 104x16 paddle among the %d sprites of the last frame", len(s)/4)
	return 0
}

// key dispatches one key event through the protocol, as a keyboard would.
func key(typ input.DispatchKeyEventType, code string, vk int64) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, input.DispatchKeyEvent, input.DispatchKeyEventParams{Type: typ, Code: code, Key: code, WindowsVirtualKeyCode: vk, NativeVirtualKeyCode: vk})
		return err
	})
}

// eval evaluates a JavaScript expression.
func eval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// TestBreakoutInBrowser loads Breakout's page, waits for presents, starts a
// game with Space (the ball appears on the paddle) and holds the right
// arrow, whose records reach the game.
func TestBreakoutInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Breakout for the browser")
	}
	ctx := browser(t)
	s, err := breakoutSite()
	if err != nil {
		t.Fatal(err)
	}
	url := serve(t, s.handler())
	// Count the AudioContexts the page makes: the program opens sound at
	// the first key, not before its first present.
	if err := chromedp.Do(ctx, beforeLoad(countAudioContexts), chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `globalThis.metronome !== undefined && metronome.presents >= 30`, "30 presents")
	if n := eval[int](t, ctx, `audioContexts.length`); n != 0 {
		t.Errorf("the page made %d AudioContexts before any input, want none until the first key", n)
	}
	first, refresh := eval[float64](t, ctx, `metronome.firstPresentMs`), eval[float64](t, ctx, `metronome.refreshMs`)
	// The page measured the refresh while the module loaded, and the
	// platform took it, measuring only the intervals the page had not
	// seen (the shortest of all of them).
	if !eval[bool](t, ctx, `metronomeRefresh.taken === true && metronomeRefresh.stop && metronome.refreshMs > 0 && metronome.refreshMs <= metronomeRefresh.ms + 0.01 && (metronomeRefresh.intervals < 6 || Math.abs(metronomeRefresh.ms - metronome.refreshMs) < 0.01)`) {
		t.Errorf("the platform did not take the page's refresh: page %v, platform %v ms", eval[any](t, ctx, `metronomeRefresh`), refresh)
	}
	// The page linked the renderer's built-in programs while the module
	// downloaded, each of them without error (a source WebGL2 refused
	// would be linked by the renderer alone, in the start's time).
	if got := eval[string](t, ctx, `(() => { const { gl, programs } = metronomePrelinked; return programs.length + " programs, " + programs.filter((p) => gl.getProgramParameter(p, gl.LINK_STATUS)).length + " linked"; })()`); got != fmt.Sprintf("%d programs, %[1]d linked", len(shadersrc.Builtins(shadersrc.ESPrelude))) {
		t.Errorf("the page's own link of the renderer's programs: %s, want all %d linked", got, len(shadersrc.Builtins(shadersrc.ESPrelude)))
	}
	// The page checked for WebGL2 while the module downloaded, before
	// the program ran; the module was fetched once.
	marks := eval[map[string]float64](t, ctx, `Object.fromEntries(performance.getEntriesByType("mark").map((e) => [e.name, e.startTime]))`)
	if at, ok := marks["metronome:gl-context"]; !ok || !(at < marks["metronome:main"]) {
		t.Errorf("mark metronome:gl-context at %v ms (present %v), want it before the program's main at %v ms", at, ok, marks["metronome:main"])
	}
	if n := eval[int](t, ctx, `performance.getEntriesByName(new URL("game.wasm", location.href).href).length`); n != 1 {
		t.Errorf("game.wasm was fetched %d times, want once", n)
	}
	p0, t0 := eval[int](t, ctx, `metronome.presents`), eval[float64](t, ctx, `performance.now()`)
	before := len(eval[[]float64](t, ctx, `metronome.sprites()`))
	if hint := eval[string](t, ctx, `document.getElementById("hint").textContent`); !strings.Contains(hint, "first key or click") {
		t.Errorf("before any gesture the page says %q, want it to say that sound starts at the first key or click", hint)
	}
	if err := chromedp.Do(ctx, key(input.DispatchKeyEventTypeKeyDown, "Space", 32), key(input.DispatchKeyEventTypeKeyUp, "Space", 32)); err != nil {
		t.Fatal(err)
	}
	// The title's "press Space" goes: the frame has other sprites. (The
	// paddle moves while the ball is served and in play; hold the arrow
	// at once, before the ball can be lost.)
	waitFor(t, ctx, `metronome.sprites().length != `+strconv.Itoa(before), "the game to start after Space")
	x0 := paddleX(t, ctx)
	if hint := eval[string](t, ctx, `document.getElementById("hint").textContent`); hint != "" {
		t.Errorf("after a key the page still says %q, want the sound hint gone", hint)
	}
	// The key opened sound: one AudioContext, running, its clock moving.
	waitFor(t, ctx, `audioContexts.length === 1 && audioContexts[0].state === "running" && audioContexts[0].currentTime > 0.1`, "sound to play after the first key")
	held := eval[int](t, ctx, `metronome.presents`)
	if err := chromedp.Do(ctx, key(input.DispatchKeyEventTypeKeyDown, "ArrowRight", 39)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `metronome.presents >= `+strconv.Itoa(held+30), "30 presents with the right arrow held")
	if err := chromedp.Do(ctx, key(input.DispatchKeyEventTypeKeyUp, "ArrowRight", 39)); err != nil {
		t.Fatal(err)
	}
	p1, t1 := eval[int](t, ctx, `metronome.presents`), eval[float64](t, ctx, `performance.now()`)
	x1 := paddleX(t, ctx)
	// The arrow's release is counted when the platform next polls, on a
	// later animation frame: wait for it rather than read at once.
	waitFor(t, ctx, `metronome.inputs >= 4`, "the four key records (Space and the right arrow, each down and up)")
	inputs := eval[int](t, ctx, `metronome.inputs`)
	if !(x1 > x0) {
		t.Errorf("paddle x %v after holding the right arrow for 30 presents, want more than %v", x1, x0)
	}
	if inputs < 4 {
		t.Errorf("metronome.inputs = %d after Space and the right arrow, each down and up, want 4", inputs)
	}
	// The server's COOP and COEP headers isolate the page, which gives
	// performance.now(), the game's clock, its finest resolution.
	if !eval[bool](t, ctx, `crossOriginIsolated`) {
		t.Errorf("crossOriginIsolated is false: the page is not isolated (COOP/COEP headers)")
	}
	res := eval[float64](t, ctx, `(() => { let best = Infinity; let last = performance.now(); for (let i = 0; i < 200000; i++) { const n = performance.now(); if (n > last) { best = Math.min(best, n - last); last = n; } } return best * 1000; })()`)
	if e := eval[string](t, ctx, `stderr`); strings.Contains(e, "sound is off") {
		t.Errorf("the game wrote %q, want sound on (WebAudio)", e)
	}
	t.Logf("first present %.0f ms after page load; animation frame interval %.2f ms; %.1f presents/s; performance.now() resolution %.1f µs; paddle x %v -> %v; %.2f MB .wasm (%.2f MB gzip)",
		first, refresh, float64(p1-p0)/(t1-t0)*1000, res, x0, x1, float64(len(s.files[wasmName]))/1e6, float64(len(gzipBytes(s.files[wasmName])))/1e6)
}

// TestHookOnlyInTestBuilds: Breakout built as a game ships (no tags) plays
// 120 ticks and ends cleanly with no metronome object on its page and no
// trace of the hook in its .wasm; built with the hook tag, its page has
// the object.
func TestHookOnlyInTestBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Breakout for the browser twice")
	}
	// Both builds before the browser starts: its three minutes are for
	// the pages.
	shipped, err := build(context.Background(), buildOptions{Dir: "../../examples/breakout"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	hooked, err := breakoutSite()
	if err != nil {
		t.Fatal(err)
	}
	// The hook's property names are strings in the program's data.
	if bytes.Contains(shipped.files[wasmName], []byte("firstPresentMs")) {
		t.Errorf("the shipped build's .wasm holds the hook's property names")
	}
	if !bytes.Contains(hooked.files[wasmName], []byte("firstPresentMs")) {
		t.Errorf("the test build's .wasm lacks the hook's property names")
	}
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(serve(t, shipped.handler())+"?arg=--ticks=120")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `exitCode !== null`, "the shipped build to stop after 120 ticks")
	if code := eval[int](t, ctx, `exitCode`); code != 0 {
		t.Errorf("the shipped build exited with %d: %s", code, eval[string](t, ctx, `stderr`))
	}
	// (The canvas's id is "metronome", so the page's named access gives
	// globalThis.metronome the canvas element: that is not the hook.)
	if got := eval[string](t, ctx, `globalThis.metronome === undefined || globalThis.metronome instanceof HTMLElement ? "" : Object.keys(globalThis.metronome).join(", ")`); got != "" {
		t.Errorf("the shipped build's page has a metronome object with %s, want none (it is the test hook)", got)
	}

	if err := chromedp.Do(ctx, chromedp.Navigate(serve(t, hooked.handler()))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `!(globalThis.metronome instanceof HTMLElement) && metronome.presents >= 5`, "the test build's hook to count 5 presents")
}

// TestPageMessages: a page whose .wasm is missing says why on the page.
func TestPageMessages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Breakout for the browser")
	}
	ctx := browser(t)
	s, err := breakoutSite()
	if err != nil {
		t.Fatal(err)
	}
	broken := &site{files: map[string][]byte{"index.html": s.files["index.html"], "wasm_exec.js": s.files["wasm_exec.js"]}}
	url := serve(t, broken.handler())
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.getElementById("message").textContent.startsWith("The game could not start")`, "the failed-load message")
	msg := eval[string](t, ctx, `document.getElementById("message").textContent`)
	if !strings.Contains(msg, "game.wasm") || !strings.Contains(msg, "404") {
		t.Errorf("page message %q, want it to name game.wasm and the HTTP 404", msg)
	}
}

// TestNoWebGL2Message: a browser without WebGL2 gets a message on the
// page, not a blank canvas.
func TestNoWebGL2Message(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Breakout for the browser")
	}
	ctx := browser(t, chromedp.Flag("disable-3d-apis", true))
	s, err := breakoutSite()
	if err != nil {
		t.Fatal(err)
	}
	url := serve(t, s.handler())
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.getElementById("message").textContent.includes("WebGL2")`, "the no-WebGL2 message")
}

// countAudioContexts keeps every AudioContext the page makes in
// globalThis.audioContexts.
const countAudioContexts = `(() => {
	globalThis.audioContexts = [];
	const C = globalThis.AudioContext;
	if (C) { globalThis.AudioContext = class extends C { constructor(...args) { super(...args); audioContexts.push(this); } }; }
})()`

// beforeLoad runs script in every page the context loads, before the
// page's own scripts (so before the game starts).
func beforeLoad(script string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		return err
	})
}

// focused makes the page behave as the focused page of the active window.
func focused() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
		return err
	})
}

// fakePad replaces navigator.getGamepads with one standard-mapped pad that
// the test moves through testPad.button(i, pressed) and testPad.axis(i,
// v); each change moves the pad's timestamp, as a real pad's does.
const fakePad = `(() => {
	const pad = { id: "metronome test pad", index: 0, connected: true, mapping: "standard", timestamp: performance.now(),
		buttons: Array.from({ length: 17 }, () => ({ pressed: false, touched: false, value: 0 })), axes: [0, 0, 0, 0] };
	globalThis.testPad = {
		button(i, pressed) { pad.buttons[i] = { pressed, touched: pressed, value: pressed ? 1 : 0 }; pad.timestamp = performance.now(); },
		axis(i, v) { pad.axes[i] = v; pad.timestamp = performance.now(); },
	};
	Object.defineProperty(Navigator.prototype, "getGamepads", { configurable: true, value: () => [pad, null, null, null] });
})();`

// TestGamepadInBrowser plugs a pad in through the page (the protocol has
// no gamepads to offer): its A button starts Breakout and its left stick
// moves the paddle, through the same records as a desktop gamepad.
func TestGamepadInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Breakout for the browser")
	}
	ctx := browser(t)
	s, err := breakoutSite()
	if err != nil {
		t.Fatal(err)
	}
	url := serve(t, s.handler())
	// A headless page has no focus of its own, and the platform reads a
	// pad, as glfwinput does, only while the window has focus.
	if err := chromedp.Do(ctx, focused(), beforeLoad(fakePad), chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `globalThis.metronome !== undefined && metronome.presents >= 30`, "30 presents")
	waitFor(t, ctx, `metronome.gamepadRecords >= 1`, "the pad's connection")
	if !eval[bool](t, ctx, `document.hasFocus()`) {
		t.Fatal("document.hasFocus() is false with focus emulation on")
	}
	before := len(eval[[]float64](t, ctx, `metronome.sprites()`))
	eval[any](t, ctx, `testPad.button(0, true)`)
	waitFor(t, ctx, `metronome.sprites().length != `+strconv.Itoa(before), "the game to start after the pad's A button")
	eval[any](t, ctx, `testPad.button(0, false)`)
	x0 := paddleX(t, ctx)
	held := eval[int](t, ctx, `metronome.presents`)
	eval[any](t, ctx, `testPad.axis(0, 1)`)
	waitFor(t, ctx, `metronome.presents >= `+strconv.Itoa(held+30), "30 presents with the left stick pushed right")
	x1 := paddleX(t, ctx)
	if !(x1 > x0) {
		t.Errorf("paddle x %v after 30 presents with the left stick right, want more than %v", x1, x0)
	}
	if n := eval[int](t, ctx, `metronome.inputs`); n != 0 {
		t.Errorf("metronome.inputs = %d, want 0: no key or mouse button was used", n)
	}
	// Connection, A down, A up, the stick's move.
	if n := eval[int](t, ctx, `metronome.gamepadRecords`); n < 4 {
		t.Errorf("metronome.gamepadRecords = %d, want at least 4 (connect, A down and up, the stick)", n)
	}
}

// start serves s, loads its page with the query q (the game's command
// line) and waits for n presents.
func start(t testing.TB, ctx context.Context, s *site, q string, n int) {
	t.Helper()
	url := serve(t, s.handler())
	if err := chromedp.Do(ctx, focused(), chromedp.Navigate(url+q)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `globalThis.metronome !== undefined && metronome.presents >= `+strconv.Itoa(n), strconv.Itoa(n)+" presents")
}

var demoSite = sync.OnceValues(func() (*site, error) {
	return testBuild(buildOptions{Dir: "../demo"})
})

// TestDemoInBrowser runs the demo with its embedded configuration: it
// presents, its overlay's text is drawn (H hides it: hundreds of glyph
// sprites go), and its keys work (= adds 100 bunnies).
func TestDemoInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo for the browser")
	}
	ctx := browser(t)
	s, err := demoSite()
	if err != nil {
		t.Fatal(err)
	}
	start(t, ctx, s, "", 60)
	// The loading screen ends when the generated atlas is in.
	sprites := func() int { return len(eval[[]float64](t, ctx, `metronome.sprites()`)) / 4 }
	press := func(code string, vk int64) {
		t.Helper()
		if err := chromedp.Do(ctx, key(input.DispatchKeyEventTypeKeyDown, code, vk), key(input.DispatchKeyEventTypeKeyUp, code, vk)); err != nil {
			t.Fatal(err)
		}
	}
	afterPresents := func(n int) {
		t.Helper()
		p := eval[int](t, ctx, `metronome.presents`)
		waitFor(t, ctx, `metronome.presents >= `+strconv.Itoa(p+n), strconv.Itoa(n)+" more presents")
	}
	p0, t0 := eval[int](t, ctx, `metronome.presents`), eval[float64](t, ctx, `performance.now()`)
	afterPresents(60)
	p1, t1 := eval[int](t, ctx, `metronome.presents`), eval[float64](t, ctx, `performance.now()`)
	shown := sprites()
	press("KeyH", 72)
	afterPresents(10)
	hidden := sprites()
	if shown-hidden < 100 {
		t.Errorf("%d sprites with the overlay, %d after H hid it: want the overlay's text (over 100 glyphs) gone", shown, hidden)
	}
	press("Equal", 187)
	afterPresents(10)
	if more := sprites(); more-hidden < 100 {
		t.Errorf("%d sprites after = (add 100 bunnies), %d before: want 100 more", more, hidden)
	}
	if e := eval[string](t, ctx, `stderr`); strings.Contains(e, "panic") || eval[any](t, ctx, `exitCode`) != nil {
		t.Errorf("the demo stopped or panicked: %q", e)
	}
	w := s.files[wasmName]
	t.Logf("demo: %.1f presents/s at its default scene (animation frames every %.2f ms); %d sprites with the overlay, %d without; %.2f MB .wasm (%.2f MB gzip)",
		float64(p1-p0)/(t1-t0)*1000, eval[float64](t, ctx, `metronome.refreshMs`), shown, hidden, float64(len(w))/1e6, float64(len(gzipBytes(w)))/1e6)
}

// TestScaffoldInBrowser makes a game with cmd/newgame in a temporary
// directory, builds it for the browser and sees it present.
func TestScaffoldInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("scaffolds a game and builds it for the browser")
	}
	ctx := browser(t)
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir() + "/mygame"
	cmd := exec.Command("go", "run", "./cmd/newgame", "-replace", root+"/../..", dir)
	cmd.Dir = root + "/../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("newgame: %v\n%s", err, out)
	}
	s, err := testBuild(buildOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	start(t, ctx, s, "", 30)
	if n := len(eval[[]float64](t, ctx, `metronome.sprites()`)); n == 0 {
		t.Errorf("the scaffolded game's frame has no sprites")
	}
	if code := eval[any](t, ctx, `exitCode`); code != nil {
		t.Errorf("the scaffolded game exited with %v: %s", code, eval[string](t, ctx, `stderr`))
	}
}

// nativeBreakout builds Breakout for this machine, once.
var nativeBreakout = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "webgame-native-")
	if err != nil {
		return "", err
	}
	exe := dir + "/breakout"
	out, err := exec.Command("go", "build", "-o", exe, "../../examples/breakout").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building Breakout natively: %v\n%s", err, out)
	}
	return exe, nil
})

// matched is the number in a replay's "N checkpoints matched".
func matched(t *testing.T, result string) int {
	t.Helper()
	m := regexp.MustCompile(`(\d+) checkpoints? matched`).FindStringSubmatch(result)
	if m == nil {
		t.Fatalf("replay printed %q, want its result line (\"replayed N ticks ..., M checkpoints matched\")", result)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// bothBreakouts starts chromium and returns it with Breakout built for
// the browser and natively; with -short it skips.
func bothBreakouts(t *testing.T) (context.Context, *site, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds Breakout for the browser and natively")
	}
	ctx := browser(t)
	s, err := breakoutSite()
	if err != nil {
		t.Fatal(err)
	}
	exe, err := nativeBreakout()
	if err != nil {
		t.Fatal(err)
	}
	return ctx, s, exe
}

// withFile serves s with data beside it at /name, readable by the
// cross-origin-isolated page, and returns the URL.
func withFile(t *testing.T, s *site, name string, data []byte) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/", s.handler())
	mux.HandleFunc("/"+name, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cross-Origin-Resource-Policy", "same-origin")
		w.Write(data)
	})
	return serve(t, mux)
}

// recordNatively records 900 ticks of Breakout's attract mode with the
// native build exe into path and returns the recording.
func recordNatively(t *testing.T, exe, path string) []byte {
	t.Helper()
	if out, err := exec.Command(exe, "--headless", "--ticks=900", "--set", "game.demo=true", "--record", path).CombinedOutput(); err != nil {
		t.Fatalf("recording natively: %v\n%s", err, out)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestRecordingAcrossPlatforms records Breakout in the browser, with keys
// pressed, and replays the recording natively to the same world hashes;
// then records Breakout natively (attract mode) and replays that in the
// browser. Either replay stops with an error at the first hash that
// differs.
func TestRecordingAcrossPlatforms(t *testing.T) {
	ctx, s, exe := bothBreakouts(t)
	dir := t.TempDir()

	// Browser to native.
	start(t, ctx, s, "?arg=--record&arg=session.rec&arg=--ticks=900", 20)
	tap := func(code string, vk int64, presents int) {
		t.Helper()
		if err := chromedp.Do(ctx, key(input.DispatchKeyEventTypeKeyDown, code, vk)); err != nil {
			t.Fatal(err)
		}
		p := eval[int](t, ctx, `metronome.presents`)
		waitFor(t, ctx, `exitCode !== null || metronome.presents >= `+strconv.Itoa(p+presents), "presents with a key held")
		if err := chromedp.Do(ctx, key(input.DispatchKeyEventTypeKeyUp, code, vk)); err != nil {
			t.Fatal(err)
		}
	}
	tap("Space", 32, 2)
	tap("ArrowRight", 39, 20)
	tap("ArrowLeft", 37, 40)
	waitFor(t, ctx, `exitCode !== null`, "the game to stop after 900 ticks")
	if code := eval[int](t, ctx, `exitCode`); code != 0 {
		t.Fatalf("the recording session exited with %d: %s", code, eval[string](t, ctx, `stderr`))
	}
	b64 := eval[string](t, ctx, `metronomePage.file("session.rec") ?? ""`)
	rec, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(rec) == 0 {
		t.Fatalf("metronomePage.file(\"session.rec\"): %d bytes, %v", len(rec), err)
	}
	if !eval[bool](t, ctx, `[...document.querySelectorAll("#files a")].some((a) => a.download === "session.rec")`) {
		t.Errorf("the page offers no download of session.rec")
	}
	browserRec := dir + "/browser.rec"
	if err := os.WriteFile(browserRec, rec, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(exe, "--replay", browserRec).CombinedOutput()
	if err != nil {
		t.Fatalf("the browser's recording does not replay natively: %v\n%s", err, out)
	}
	if n := matched(t, string(out)); n < 2 {
		t.Errorf("native replay of the browser's recording: %s; want at least 2 checkpoints", out)
	}
	t.Logf("browser recording (%d bytes) replayed natively: %s", len(rec), strings.TrimSpace(string(out)))

	// Native to browser.
	nrec := recordNatively(t, exe, dir+"/native.rec")
	url := withFile(t, s, "native.rec", nrec)
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"?replay=native.rec")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `exitCode !== null`, "the replay in the browser to end")
	if code := eval[int](t, ctx, `exitCode`); code != 0 {
		t.Fatalf("the native recording does not replay in the browser (exit %d): %s", code, eval[string](t, ctx, `stderr`))
	}
	res := eval[string](t, ctx, `stdout`)
	if n := matched(t, res); n < 2 {
		t.Errorf("browser replay of the native recording: %s; want at least 2 checkpoints", res)
	}
	t.Logf("native recording (%d bytes) replayed in the browser: %s", len(nrec), strings.TrimSpace(res))
}

// latencyProbe measures, in the page, the time from each arrow key's
// timeStamp to the animation frame that composites the first frame in
// which Breakout's paddle has moved: lat.out lists the latencies in ms.
const latencyProbe = `(() => {
	const paddle = () => { const s = metronome.sprites(); for (let i = 0; i + 3 < s.length; i += 4) { if (s[i + 2] === 104 && s[i + 3] === 16) { return s[i]; } } return NaN; };
	globalThis.lat = { t0: null, x0: null, out: [] };
	addEventListener("keydown", (e) => { if (!e.repeat && (e.code === "ArrowRight" || e.code === "ArrowLeft")) { lat.t0 = e.timeStamp; lat.x0 = paddle(); } }, true);
	metronome.onpresent = (at) => {
		const x = paddle();
		if (lat.t0 !== null && !Number.isNaN(x) && x !== lat.x0) { lat.out.push(at - lat.t0); lat.t0 = null; }
	};
})()`

// BenchmarkInputLatencyInBrowser presses the arrows of Breakout 40 times
// in headless chromium (SwiftShader WebGL2, the protocol's key events) and
// reports the median, p95 and max time from a key event's timeStamp to the
// animation frame that composites the paddle's first move.
//
//	go test ./cmd/webgame -run '^$' -bench InputLatency -benchtime=1x
func BenchmarkInputLatencyInBrowser(b *testing.B) {
	ctx := browser(b)
	s, err := breakoutSite()
	if err != nil {
		b.Fatal(err)
	}
	// A slow ball and nine lives: the game lasts the whole measurement.
	start(b, ctx, s, "?arg=--set&arg=game.lives=9&arg=--set&arg=game.ball_speed=100", 30)
	if err := chromedp.Do(ctx, key(input.DispatchKeyEventTypeKeyDown, "Space", 32), key(input.DispatchKeyEventTypeKeyUp, "Space", 32)); err != nil {
		b.Fatal(err)
	}
	eval[any](b, ctx, latencyProbe)
	const presses = 40
	var lat []float64
	for b.Loop() {
		eval[any](b, ctx, `lat.out = []`)
		for i := range presses {
			code, vk := "ArrowRight", int64(39)
			if i%2 == 1 {
				code, vk = "ArrowLeft", 37
			}
			if err := chromedp.Do(ctx, key(input.DispatchKeyEventTypeKeyDown, code, vk)); err != nil {
				b.Fatal(err)
			}
			waitFor(b, ctx, `lat.t0 === null && lat.out.length === `+strconv.Itoa(i+1), "the paddle to move after press "+strconv.Itoa(i+1))
			if err := chromedp.Do(ctx, key(input.DispatchKeyEventTypeKeyUp, code, vk)); err != nil {
				b.Fatal(err)
			}
			p := eval[int](b, ctx, `metronome.presents`)
			waitFor(b, ctx, `metronome.presents >= `+strconv.Itoa(p+15), "the paddle to settle")
		}
		lat = eval[[]float64](b, ctx, `lat.out`)
	}
	slices.Sort(lat)
	b.Logf("latencies, ms, sorted: %.1f", lat)
	q := func(f float64) float64 { return lat[min(len(lat)-1, int(f*float64(len(lat))))] }
	b.ReportMetric(q(0.5), "median-ms")
	b.ReportMetric(q(0.95), "p95-ms")
	b.ReportMetric(lat[len(lat)-1], "max-ms")
	b.ReportMetric(eval[float64](b, ctx, `metronome.refreshMs`), "frame-ms")
}

// benchLine parses the demo's --bench result line for fps and frame_ms.
func benchLine(tb testing.TB, line string) (fps, frameMS float64) {
	tb.Helper()
	m := regexp.MustCompile(`fps=([0-9.]+) frame_ms=([0-9.]+)`).FindStringSubmatch(line)
	if m == nil {
		tb.Fatalf("the demo's --bench printed %q, want its result line (\"... fps=F frame_ms=M\")", line)
	}
	fps, _ = strconv.ParseFloat(m[1], 64)
	frameMS, _ = strconv.ParseFloat(m[2], 64)
	return fps, frameMS
}

// BenchmarkBunnymarkInBrowser runs the demo's bunnymark (--bench=N: N
// bunnies, one fixed 1 kHz step a frame, 10 s, 30 s at 50,000) in headless chromium and natively
// under Xvfb, one after the other, at 10,000 and 50,000 bunnies, and
// reports frames per second of each and their ratio. Both draw in
// software: chromium's WebGL2 on SwiftShader, the native renderer on
// Mesa's llvmpipe. The browser's presents wait for animation frames
// (60 Hz headless), so its fps is at most that.
//
//	go test ./cmd/webgame -run '^$' -bench Bunnymark -benchtime=1x
func BenchmarkBunnymarkInBrowser(b *testing.B) {
	ctx := browser(b)
	s, err := demoSite()
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	exe := dir + "/demo"
	if out, err := exec.Command("go", "build", "-o", exe, "../demo").CombinedOutput(); err != nil {
		b.Fatalf("building the demo natively: %v\n%s", err, out)
	}
	url := serve(b, s.handler())
	for b.Loop() {
		// 50,000 bunnies take seconds a frame in the browser: measure
		// longer, for frames enough to count.
		for _, run := range []struct {
			n    int
			span string
		}{{10000, "10s"}, {50000, "30s"}} {
			n, args := run.n, "--bench="+strconv.Itoa(run.n)+" --run-for="+run.span
			q := "?arg=--bench=" + strconv.Itoa(n) + "&arg=--run-for=" + run.span
			if err := chromedp.Do(ctx, focused(), chromedp.Navigate(url+q)); err != nil {
				b.Fatal(err)
			}
			waitFor(b, ctx, `typeof exitCode !== "undefined" && exitCode !== null`, "the bunnymark to end")
			if code := eval[int](b, ctx, `exitCode`); code != 0 {
				b.Fatalf("--bench=%d in the browser exited with %d: %s", n, code, eval[string](b, ctx, `stderr`))
			}
			webLine := eval[string](b, ctx, `stdout`)
			webFPS, webMS := benchLine(b, webLine)
			cmd := exec.Command(exe, append([]string{"--headless"}, strings.Fields(args)...)...)
			cmd.Env = append(os.Environ(), "DISPLAY=") // a private Xvfb server
			cmd.Dir = dir
			out, err := cmd.Output()
			if err != nil {
				b.Fatalf("--bench=%d natively: %v\n%s", n, err, out)
			}
			natFPS, natMS := benchLine(b, string(out))
			b.Logf("browser: %s", strings.TrimSpace(webLine))
			b.Logf("native:  %s", strings.TrimSpace(string(out)))
			k := strconv.Itoa(n/1000) + "k-"
			b.ReportMetric(webFPS, k+"browser-fps")
			b.ReportMetric(natFPS, k+"native-fps")
			b.ReportMetric(webFPS/natFPS, k+"browser/native")
			b.Logf("%d bunnies: browser %.1f fps (%.2f ms a frame), native %.1f fps (%.2f ms), ratio %.3f", n, webFPS, webMS, natFPS, natMS, webFPS/natFPS)
		}
	}
}

// presentRate loads the page at url, waits for warm presents (the demo's
// atlas is generated during its first frames), then returns the page's
// presents per second over span (countRate).
func presentRate(b *testing.B, ctx context.Context, url string, warm int, span time.Duration) float64 {
	b.Helper()
	if err := chromedp.Do(ctx, focused(), chromedp.Navigate(url)); err != nil {
		b.Fatal(err)
	}
	waitFor(b, ctx, `globalThis.metronome !== undefined && metronome.presents >= `+strconv.Itoa(warm), strconv.Itoa(warm)+" presents")
	return countRate(b, ctx, span)
}

// countRate counts the loaded page's presents over span of its own clock
// and returns presents per second.
func countRate(b *testing.B, ctx context.Context, span time.Duration) float64 {
	b.Helper()
	p0, t0 := eval[int](b, ctx, `metronome.presents`), eval[float64](b, ctx, `performance.now()`)
	waitFor(b, ctx, `performance.now() >= `+strconv.FormatFloat(t0+float64(span.Milliseconds()), 'f', 0, 64), span.String()+" of presents")
	p1, t1 := eval[int](b, ctx, `metronome.presents`), eval[float64](b, ctx, `performance.now()`)
	return float64(p1-p0) / (t1 - t0) * 1000
}

// BenchmarkPresentsInBrowser measures presents per second of the demo at
// its default scene and of Breakout in headless chromium, each game built
// twice: as shipped, and with -tags gldebug, under which the renderer asks
// WebGL for errors after the clear and every pass of every frame (what
// every build did before). The two builds take turns, three rounds of 5 s
// each, so both see the same machine; it reports the median rate of each
// and their ratio. Then it logs the shipped demo's rate at its default
// scene, with the overlay hidden, and with 500 bunnies fewer: where the
// rate follows the number of sprites, the cost is the browser's per
// sprite, not the page's per call.
//
//	go test ./cmd/webgame -run '^$' -bench PresentsInBrowser -benchtime=1x
func BenchmarkPresentsInBrowser(b *testing.B) {
	games := []struct{ name, dir string }{{"demo", "../demo"}, {"breakout", "../../examples/breakout"}}
	type variant struct {
		name string
		url  string
	}
	urls := make([][2]variant, len(games))
	for i, g := range games {
		for j, tags := range []string{"gldebug", ""} {
			s, err := testBuild(buildOptions{Dir: g.dir, Tags: tags})
			if err != nil {
				b.Fatal(err)
			}
			name := "shipped"
			if tags != "" {
				name = "checked"
			}
			urls[i][j] = variant{name, serve(b, s.handler())}
		}
	}
	const rounds = 3
	ctx := browsertest.Start(b, 15*time.Minute)
	for b.Loop() {
		for i, g := range games {
			var rates [2][]float64
			for range rounds {
				for j, v := range urls[i] {
					r := presentRate(b, ctx, v.url, 60, 5*time.Second)
					rates[j] = append(rates[j], r)
					b.Logf("%s %s: %.1f presents/s", g.name, v.name, r)
				}
			}
			med := func(s []float64) float64 { slices.Sort(s); return s[len(s)/2] }
			checked, shipped := med(rates[0]), med(rates[1])
			b.ReportMetric(checked, g.name+"-checked-presents/s")
			b.ReportMetric(shipped, g.name+"-presents/s")
			b.ReportMetric(shipped/checked, g.name+"-ratio")
			b.Logf("%s: %.1f presents/s checking every frame, %.1f as shipped, ratio %.2f", g.name, checked, shipped, shipped/checked)
		}
		// Where the demo's time goes: the same page with fewer sprites
		// (H hides the overlay's glyphs, each - removes 100 bunnies).
		rate := presentRate(b, ctx, urls[0][1].url, 60, 5*time.Second)
		for _, step := range []struct {
			what    string
			code    string
			vk      int64
			presses int
		}{{"default scene", "", 0, 0}, {"overlay hidden", "KeyH", 72, 1}, {"overlay hidden, 500 bunnies fewer", "Minus", 189, 5}} {
			for range step.presses {
				if err := chromedp.Do(ctx, key(input.DispatchKeyEventTypeKeyDown, step.code, step.vk), key(input.DispatchKeyEventTypeKeyUp, step.code, step.vk)); err != nil {
					b.Fatal(err)
				}
			}
			if step.presses > 0 {
				p := eval[int](b, ctx, `metronome.presents`)
				waitFor(b, ctx, `metronome.presents >= `+strconv.Itoa(p+10), "10 presents after the keys")
				rate = countRate(b, ctx, 5*time.Second)
			}
			b.Logf("demo, %s: %d sprites, %.1f presents/s", step.what, len(eval[[]float64](b, ctx, `metronome.sprites()`))/4, rate)
		}
	}
}

// The screenshot tolerance between the browser (chromium's WebGL2 on
// SwiftShader) and the desktop (OpenGL on Mesa's llvmpipe): a pixel
// differs when one of its channels differs by more than shotChannel (of
// 255), and at most shotPixels of all pixels may differ. Both rasterise
// the same triangles with the same shaders; they may round differently
// where an edge or a filtered texel falls between pixels. Measured: the
// same tick differs by 7 at most, in no pixel by more than 16; tick 300
// against tick 480 differs in 1% of the pixels.
const (
	shotChannel = 16
	shotPixels  = 0.001
)

// shotDiff compares two screenshots: the largest channel difference, and
// how many pixels have a channel that differs by more than tol.
func shotDiff(a, b image.Image, tol int) (maxDiff, over int) {
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c1, c2 := color.RGBAModel.Convert(a.At(x, y)).(color.RGBA), color.RGBAModel.Convert(b.At(x, y)).(color.RGBA)
			d := max(absDiff(c1.R, c2.R), absDiff(c1.G, c2.G), absDiff(c1.B, c2.B))
			maxDiff = max(maxDiff, d)
			if d > tol {
				over++
			}
		}
	}
	return maxDiff, over
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// TestScreenshotAcrossPlatforms records Breakout natively (attract mode),
// replays it to tick 480 natively and in the browser, each with
// --screenshot, and compares the two pictures of that tick within the
// tolerance above (shotChannel, shotPixels). The page is 960 x 540 CSS
// pixels at a device pixel ratio of 1, the size of the native window.
func TestScreenshotAcrossPlatforms(t *testing.T) {
	ctx, s, exe := bothBreakouts(t)
	dir := t.TempDir()
	rec := dir + "/native.rec"
	data := recordNatively(t, exe, rec)
	sameShot(t, ctx, s, exe, data, 480, nil)
}

// TestDemoScreenshotAcrossPlatforms does the same for the demo, whose
// world in a page once differed from the native one (its bunnies fell
// into one strip): the page records 400 ticks at 960 x 540 with H pressed
// (the overlay's live figures, such as pacing lateness, are each
// machine's own), and tick 300 of that recording, replayed natively and
// in the page, gives the same picture within the same tolerance.
func TestDemoScreenshotAcrossPlatforms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo for the browser and natively")
	}
	ctx := browser(t)
	s, err := demoSite()
	if err != nil {
		t.Fatal(err)
	}
	exe, err := nativeDemo()
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, pageSize(960, 540)); err != nil {
		t.Fatal(err)
	}
	start(t, ctx, s, "?arg=--record=page.rec&arg=--ticks=400&arg=--set=audio.enabled=false", 1)
	if err := chromedp.Do(ctx, key(input.DispatchKeyEventTypeKeyDown, "KeyH", 72), key(input.DispatchKeyEventTypeKeyUp, "KeyH", 72)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `exitCode !== null`, "the demo to stop after 400 ticks")
	if code := eval[int](t, ctx, `exitCode`); code != 0 {
		t.Fatalf("the recording session exited with %d: %s", code, eval[string](t, ctx, `stderr`))
	}
	data, err := base64.StdEncoding.DecodeString(eval[string](t, ctx, `metronomePage.file("page.rec") ?? ""`))
	if err != nil || len(data) == 0 {
		t.Fatalf("metronomePage.file(\"page.rec\"): %d bytes, %v", len(data), err)
	}
	sameShot(t, ctx, s, exe, data, 300, []string{"--set=audio.enabled=false"})
}

// pageSize makes the page w x h CSS pixels at a device pixel ratio of 1.
func pageSize(w, h int) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: int64(w), Height: int64(h), DeviceScaleFactor: 1})
		return err
	})
}

// nativeDemo builds the demo for this machine, once.
var nativeDemo = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "webgame-native-")
	if err != nil {
		return "", err
	}
	exe := dir + "/demo"
	out, err := exec.Command("go", "build", "-o", exe, "../demo").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building the demo natively: %v\n%s", err, out)
	}
	return exe, nil
})

// sameShot replays the recording data to tick until natively with exe
// (and the arguments extra) and in the page of s, each with --screenshot,
// and compares the two pictures of that tick within shotChannel and
// shotPixels. The page has the native picture's size at a device pixel
// ratio of 1.
func sameShot(t *testing.T, ctx context.Context, s *site, exe string, data []byte, until int, extra []string) {
	t.Helper()
	dir := t.TempDir()
	rec, nativeShot := dir+"/native.rec", dir+"/native.png"
	if err := os.WriteFile(rec, data, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"--replay", rec, "--window", "--headless", "--replay-until=" + strconv.Itoa(until), "--screenshot", nativeShot}, extra...)
	replay := exec.Command(exe, args...)
	replay.Env = append(os.Environ(), "DISPLAY=") // a private Xvfb server
	if out, err := replay.CombinedOutput(); err != nil {
		t.Fatalf("replaying natively with --screenshot: %v\n%s", err, out)
	}
	want := readPNG(t, nativeShot)
	url := withFile(t, s, "native.rec", data)
	b := want.Bounds()
	metrics := pageSize(b.Dx(), b.Dy())
	q := "?replay=native.rec&arg=--replay-until=" + strconv.Itoa(until) + "&arg=--screenshot=shot.png"
	for _, a := range extra {
		q += "&arg=" + neturl.QueryEscape(a)
	}
	if err := chromedp.Do(ctx, metrics, chromedp.Navigate(url+q)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `exitCode !== null`, "the replay in the browser to end")
	if code := eval[int](t, ctx, `exitCode`); code != 0 {
		t.Fatalf("the replay with --screenshot in the browser exited with %d: %s", code, eval[string](t, ctx, `stderr`))
	}
	shot, err := base64.StdEncoding.DecodeString(eval[string](t, ctx, `metronomePage.file("shot.png") ?? ""`))
	if err != nil || len(shot) == 0 {
		t.Fatalf("metronomePage.file(\"shot.png\"): %d bytes, %v", len(shot), err)
	}
	got, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("the browser's screenshot: %v", err)
	}
	if got.Bounds().Size() != b.Size() {
		t.Fatalf("the browser's screenshot is %v, the native one %v", got.Bounds().Size(), b.Size())
	}
	maxDiff, over := shotDiff(got, want, shotChannel)
	total := b.Dx() * b.Dy()
	t.Logf("tick %d in the browser against the native screenshot: largest channel difference %d of 255; %d of %d pixels (%.3f%%) differ by more than %d",
		until, maxDiff, over, total, 100*float64(over)/float64(total), shotChannel)
	if float64(over) > shotPixels*float64(total) {
		// Keep both for a look: the test's own directory goes with it.
		keep, _ := os.MkdirTemp("", "webgame-shot-")
		os.WriteFile(keep+"/browser.png", shot, 0o644)
		if n, err := os.ReadFile(nativeShot); err == nil {
			os.WriteFile(keep+"/native.png", n, 0o644)
		}
		t.Errorf("%d pixels differ by more than %d of 255 between the browser's and the native screenshot of tick %d, want at most %.2f%% of %d (both kept in %s)",
			over, shotChannel, until, 100*shotPixels, total, keep)
	}
}

func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// shipsX finds the duel's two ships on a screenshot of the page by their
// colours (player 1 light blue, player 2 orange) and returns the mean x
// of each colour's pixels, -1 for one that does not show.
func shipsX(t testing.TB, ctx context.Context) [2]float64 {
	t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	colors := [2][3]int{{77, 204, 255}, {255, 153, 51}}
	var sum, n [2]float64
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			for p, c := range colors {
				if absDiff(uint8(r>>8), uint8(c[0])) < 40 && absDiff(uint8(g>>8), uint8(c[1])) < 40 && absDiff(uint8(bl>>8), uint8(c[2])) < 40 {
					sum[p] += float64(x)
					n[p]++
				}
			}
		}
	}
	xs := [2]float64{-1, -1}
	for p := range xs {
		if n[p] > 0 {
			xs[p] = sum[p] / n[p]
		}
	}
	return xs
}

// TestDuelInBrowser plays the duel at one keyboard in the page: player 1's
// D moves the blue ship right and player 2's left arrow the orange one
// left, each seat read from its own keys.
func TestDuelInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the duel for the browser")
	}
	ctx := browser(t)
	s, err := testBuild(buildOptions{Dir: "../../examples/duel"})
	if err != nil {
		t.Fatal(err)
	}
	start(t, ctx, s, "", 30)
	before := shipsX(t, ctx)
	if before[0] < 0 || before[1] < 0 {
		t.Fatalf("the ships are not on the page's screenshot (x %v)", before)
	}
	// hold presses a key until the ship it moves has gone 40 pixels, or
	// gives up after 20 screenshots.
	hold := func(code string, vk int64, p int, dir float64, what string) {
		t.Helper()
		if err := chromedp.Do(ctx, key(input.DispatchKeyEventTypeKeyDown, code, vk)); err != nil {
			t.Fatal(err)
		}
		defer chromedp.Do(ctx, key(input.DispatchKeyEventTypeKeyUp, code, vk))
		for range 20 {
			if x := shipsX(t, ctx)[p]; (x-before[p])*dir > 40 {
				return
			}
			time.Sleep(250 * time.Millisecond)
		}
		t.Errorf("%s: the ship stayed near x %.0f", what, before[p])
	}
	hold("KeyD", 68, 0, 1, "player 1's D")
	hold("ArrowLeft", 37, 1, -1, "player 2's left arrow")
	after := shipsX(t, ctx)
	t.Logf("ships' x: %.0f, %.0f before; %.0f, %.0f after", before[0], before[1], after[0], after[1])
	if code := eval[any](t, ctx, `exitCode`); code != nil {
		t.Errorf("the duel exited with %v: %s", code, eval[string](t, ctx, `stderr`))
	}
}

// TestIsolateFromStaticServer: Breakout written by --out --isolate and
// served by a plain file server, which sets no COOP or COEP header, gets
// cross-origin isolated through the isolation worker (the page reloads
// itself once), and the game runs there; without --isolate the same
// server gives a page that is not isolated.
func TestIsolateFromStaticServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Breakout for the browser")
	}
	b, err := breakoutSite()
	if err != nil {
		t.Fatal(err)
	}
	for _, isolate := range []bool{false, true} {
		t.Run(fmt.Sprintf("isolate=%v", isolate), func(t *testing.T) {
			ctx := browser(t)
			page, err := renderPage(pageData{Title: "breakout", Name: "breakout", Wasm: wasmName, WasmSize: len(b.files[wasmName]), Isolate: isolate})
			if err != nil {
				t.Fatal(err)
			}
			s := &site{}
			s.put("index.html", page)
			s.put("wasm_exec.js", b.files["wasm_exec.js"])
			s.put(wasmName, b.files[wasmName])
			if isolate {
				s.put(isolateName, isolateJS)
			}
			dir := t.TempDir()
			if err := s.write(dir); err != nil {
				t.Fatal(err)
			}
			// Not serve: it adds the isolation headers this test must do
			// without.
			srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
			t.Cleanup(srv.Close)
			url := srv.URL + "/"
			if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
				t.Fatal(err)
			}
			// The page reloads itself once under the worker, which ends a
			// wait in progress: wait again, at most for that one reload.
			const presents = `globalThis.metronome !== undefined && metronome.presents >= 5`
			for reloads := 0; ; reloads++ {
				err := waitProgress(ctx, presents, stallLimit)
				if err == nil {
					break
				}
				if reloads > 0 || !strings.Contains(err.Error(), "navigated") && !strings.Contains(err.Error(), "context") {
					t.Fatalf("waiting for 5 presents (after %d reloads): %v", reloads, err)
				}
			}
			if got := eval[bool](t, ctx, `self.crossOriginIsolated`); got != isolate {
				t.Errorf("crossOriginIsolated %v, want %v", got, isolate)
			}
			if isolate {
				if got := eval[bool](t, ctx, `navigator.serviceWorker.controller !== null`); !got {
					t.Error("the page has no service worker in control, want the isolation worker")
				}
			}
		})
	}
}
