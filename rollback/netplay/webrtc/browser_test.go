//go:build !js

package webrtc_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/metronome-go/metronome/internal/browsertest"
	"github.com/metronome-go/metronome/rollback/netplay/webrtc"
)

const pageHTML = `<!doctype html><script src="wasm_exec.js"></script><script>
const go = new Go();
WebAssembly.instantiateStreaming(fetch("page.wasm"), go.importObject).then((r) => go.run(r.instance));
</script>`

// pageDir builds testdata/page for the browser and returns a directory
// with it, Go's wasm_exec.js and a page that runs it.
func pageDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "page.wasm"), "./testdata/page")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./testdata/page: %v\n%s", err, out)
	}
	js, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"wasm_exec.js": js, "index.html": []byte(pageHTML)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// pageResult opens the page with query and waits for its window.result.
func pageResult(t *testing.T, ctx context.Context, url string) string {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	res, err := chromedp.Run(ctx, chromedp.Poll[string](`window.result`, chromedp.WithPollingTimeout(time.Minute)))
	if err != nil {
		t.Fatalf("the page set no result: %v", err)
	}
	return res
}

// A page in headless chromium joins a native host over the browser's own
// RTCPeerConnection and exchanges datagrams with it; a page whose token
// names another certificate refuses the host's answer, and the host
// hears why.
func TestAPageJoinsANativeHost(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a page and starts chromium")
	}
	ctx := browsertest.Start(t, 3*time.Minute)
	site := browsertest.ServeDir(t, pageDir(t))
	h := listen(t, webrtc.Config{Timeout: 30 * time.Second})
	stop := make(chan struct{})
	defer close(stop)
	go func() { // answer the page
		buf := make([]byte, 2048)
		for {
			n, from, err := h.ReadFrom(buf)
			if err != nil && !strings.Contains(err.Error(), "gone") {
				return
			}
			if bytes.Equal(buf[:n], []byte("from the page")) {
				h.WriteTo([]byte("to the page"), from)
			}
		}
	}()
	query := func(pin webrtc.Pin) string {
		return "index.html?join=" + h.SignalAddr().String() + "&pin=" + base64.RawURLEncoding.EncodeToString(pin.Bytes())
	}
	if res := pageResult(t, ctx, site+query(h.Pin())); res != "joined" {
		t.Fatalf("page: %s", res)
	}
	bad := h.Pin()
	bad.Fingerprint[0] ^= 1
	res := pageResult(t, ctx, site+query(bad))
	if !strings.Contains(res, "is not the token's") {
		t.Fatalf("page with another fingerprint: %s; want the answer refused", res)
	}
	hostRefused(t, h, 1)
}
