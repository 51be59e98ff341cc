//go:build !js

package main

import (
	"context"
	"net/http"
	"os"
	"os/exec"
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
)

// The browser tests run Breakout in Debian's chromium, headless, driven
// through the DevTools protocol. Without chromium they skip, except in CI
// (CI=true), where a browser that cannot start fails the test.

var breakoutSite = sync.OnceValues(func() (*site, error) {
	return build(context.Background(), buildOptions{Dir: "../../examples/breakout"}, os.Stderr)
})

// browser starts headless chromium and returns its context.
func browser(t *testing.T, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and no chromium on PATH (scripts/setup.sh installs it): %v", err)
		}
		t.Skipf("no chromium on PATH (scripts/setup.sh installs it): %v", err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true), // the tests may run as root
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("use-angle", "swiftshader"), // WebGL2 on the CPU
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// A test page keeps its animation frames when headless.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(960, 540),
	}
	opts = append(opts, extra...)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	if err := chromedp.Do(ctx); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and chromium %s does not start: %v", path, err)
		}
		t.Skipf("chromium %s does not start: %v", path, err)
	}
	ctx, cancel3 := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancel3)
	return ctx
}

// serve serves h on a loopback port and returns its URL.
func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/"
}

// waitFor evaluates the expression until it is true.
func waitFor(t *testing.T, ctx context.Context, expr, what string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(90*time.Second))); err != nil {
		msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("message").textContent`))
		t.Fatalf("waiting for %s (%s): %v; the page says %q", what, expr, err, msg)
	}
}

// paddleX finds Breakout's paddle among the last frame's sprites (the one
// 104 x 16 units) and returns its x.
func paddleX(t *testing.T, ctx context.Context) float64 {
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
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
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
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `globalThis.metronome !== undefined && metronome.presents >= 30`, "30 presents")
	first, refresh := eval[float64](t, ctx, `metronome.firstPresentMs`), eval[float64](t, ctx, `metronome.refreshMs`)
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
		first, refresh, float64(p1-p0)/(t1-t0)*1000, res, x0, x1, float64(len(s.files[wasmName]))/1e6, float64(gzipSize(s.files[wasmName]))/1e6)
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
