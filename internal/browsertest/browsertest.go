//go:build !js

// Package browsertest starts headless chromium for the tests that run
// Metronome in a web page (render2d/glrender's conformance suite,
// cmd/webgame's games) and serves their pages on loopback. It is test
// support: only _test files import it.
//
// [Start] finds Debian's chromium on PATH (scripts/setup.sh installs it)
// and starts it headless with WebGL2 drawn on the CPU by SwiftShader;
// [Serve] and [ServeDir] serve a page on 127.0.0.1, cross-origin isolated
// (COOP and COEP headers, which give performance.now() its finest
// resolution) and with .wasm files as application/wasm. Without chromium,
// or when it does not start, a test skips, except in CI (CI=true), where
// it fails.
//
//	ctx := browsertest.Start(t, 3*time.Minute)
//	url := browsertest.ServeDir(t, dir)
//	if err := chromedp.Do(ctx, chromedp.Navigate(url+"index.html")); err != nil {
//		t.Fatal(err)
//	}
package browsertest

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Unavailable skips the test because the browser cannot run, or fails it
// when CI=true, where the browser tests must run.
func Unavailable(tb testing.TB, format string, args ...any) {
	tb.Helper()
	if os.Getenv("CI") == "true" {
		tb.Fatalf("CI=true and "+format, args...)
	}
	tb.Skipf(format, args...)
}

// Start starts headless chromium, 960 x 540, with a fresh profile, and
// returns a context of its first tab that ends after timeout or with the
// test. extra options are added to the defaults (a flag given again
// replaces the default's value).
func Start(tb testing.TB, timeout time.Duration, extra ...chromedp.ExecAllocatorOption) context.Context {
	tb.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		Unavailable(tb, "no chromium on PATH (scripts/setup.sh installs it): %v", err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
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
		chromedp.UserDataDir(tb.TempDir()),
		chromedp.WindowSize(960, 540),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), append(opts, extra...)...)
	tb.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	tb.Cleanup(cancel2)
	if err := chromedp.Do(ctx); err != nil {
		Unavailable(tb, "chromium %s does not start: %v", chromium, err)
	}
	ctx, cancel3 := context.WithTimeout(ctx, timeout)
	tb.Cleanup(cancel3)
	return ctx
}

// Serve serves h on a loopback port until the test ends, with every
// response cross-origin isolated, and returns its URL, ending in "/".
func Serve(tb testing.TB, h http.Handler) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	srv := &http.Server{Handler: Isolated(h)}
	go srv.Serve(ln)
	tb.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/"
}

// ServeDir serves the files in dir as [Serve] does, .wasm files as
// application/wasm.
func ServeDir(tb testing.TB, dir string) string {
	tb.Helper()
	files := http.FileServer(http.Dir(dir))
	return Serve(tb, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if path.Ext(r.URL.Path) == ".wasm" {
			w.Header().Set("Content-Type", "application/wasm")
		}
		files.ServeHTTP(w, r)
	}))
}

// Isolated sets the headers that make a page cross-origin isolated
// (Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy:
// require-corp) on every response of h.
func Isolated(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cross-Origin-Opener-Policy", "same-origin")
		w.Header().Set("Cross-Origin-Embedder-Policy", "require-corp")
		h.ServeHTTP(w, r)
	})
}
