//go:build !js

package glrender_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/metronome-go/metronome/internal/browsertest"
)

// conformancePage runs the js/wasm test binary glrender.test.wasm with
// wasm_exec.js, keeping what it prints and its exit code for the test to
// read.
const conformancePage = `<!doctype html>
<html><head><meta charset="utf-8"><script src="wasm_exec.js"></script></head>
<body><script>
window.testOutput = [];
const log = console.log;
console.log = (...a) => { window.testOutput.push(a.join(" ")); log(...a); };
const go = new Go();
go.argv = ["glrender.test", "-test.v", "-test.run", "^(TestConformance|TestNewTakesThePagesContext)$"];
go.exit = (code) => { window.testExit = code; };
WebAssembly.instantiateStreaming(fetch("glrender.test.wasm"), go.importObject)
	.then((r) => go.run(r.instance))
	.catch((e) => { window.testOutput.push("loading the test: " + e); window.testExit = -1; });
</script></body></html>
`

// TestConformanceInBrowser builds this package's tests for js/wasm, serves
// them on loopback with a page that runs them, and has headless chromium
// run TestConformance (conformance_js_test.go): the render2d/rendertest
// suite on the WebGL2 build of the renderer, and TestNewTakesThePagesContext
// (new_js_test.go). Without chromium it skips,
// except in CI (CI=true), where it fails. (cmd/webgame's tests drive
// chromium the same way; this is the smallest harness that runs a test
// binary rather than a game; internal/browsertest starts chromium and
// serves the page for both.)
func TestConformanceInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the tests for js/wasm and starts chromium")
	}
	// First, so that a machine without chromium skips before building.
	ctx := browsertest.Start(t, 8*time.Minute)
	dir := t.TempDir()
	build := exec.Command("go", "test", "-c", "-o", filepath.Join(dir, "glrender.test.wasm"), ".")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the tests for js/wasm: %v\n%s", err, out)
	}
	wasmExec, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"wasm_exec.js": wasmExec, "index.html": []byte(conformancePage)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	url := browsertest.ServeDir(t, dir)
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"index.html")); err != nil {
		t.Fatal(err)
	}
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`window.testExit !== undefined`,
		chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(4*time.Minute)))
	output, oerr := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.testOutput`))
	if oerr != nil {
		t.Fatalf("reading the test's output: %v", oerr)
	}
	text := strings.Join(output, "\n")
	if err != nil {
		t.Fatalf("waiting for the browser's test to end: %v; it printed:\n%s", err, text)
	}
	code, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.testExit`))
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || !strings.Contains(text, "--- PASS: TestConformance") || !strings.Contains(text, "--- PASS: TestNewTakesThePagesContext") {
		t.Fatalf("the conformance suite failed in the browser (exit code %d):\n%s", code, text)
	}
	// Headless chromium without a GPU draws WebGL with SwiftShader, for
	// which New chooses the batched path.
	if !strings.Contains(text, "SwiftShader") || !strings.Contains(text, "draw path batched") {
		t.Errorf("the browser's device is not SwiftShader on the batched draw path, as headless chromium without a GPU should be:\n%s", text)
	}
	t.Logf("in headless chromium:\n%s", text)
}
