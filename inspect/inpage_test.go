//go:build !js

package inspect_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/inspect/internal/pagegame"
	"github.com/metronome-go/metronome/internal/browsertest"
)

// The inspector served by a game in the page (inspect.ServeInPage), in
// headless chromium: the page loads pagegame's session built for the
// browser, with no server but for the files, and answers /api/entity at
// two ticks exactly as the same session built natively does, and draws
// its frame.
func TestServeInPageAnswersAsNative(t *testing.T) {
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "game.wasm"), "./internal/pagegame/wasm")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the page's game: %v\n%s", err, out)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(string(bytes.TrimSpace(goroot)), "lib", "wasm", "wasm_exec.js"), filepath.Join(dir, "wasm_exec.js"))
	copyFile(t, filepath.Join("page", "index.html"), filepath.Join(dir, "index.html"))

	rep, err := pagegame.Replay()
	if err != nil {
		t.Fatal(err)
	}
	native, err := inspect.NewHandler(rep, inspect.ServerOptions{Name: "pagegame"})
	if err != nil {
		t.Fatal(err)
	}
	var list entityList
	get(t, native, "/api/entities?tick=0", 200, &list)
	if len(list.Entities) != 1 {
		t.Fatalf("entities: %+v, want the walker", list.Entities)
	}
	e := list.Entities[0]

	url := browsertest.ServeDir(t, dir)
	ctx := browsertest.Start(t, 5*time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"index.html?wasm=game.wasm")); err != nil {
		t.Fatal(err)
	}
	var last string
	stalled := time.Now()
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`Boolean(globalThis.inspector && inspector.ready && inspector.frameTick === 0)`))
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		seen, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("msg").textContent + " " + JSON.stringify(globalThis.inspector)`))
		if err != nil {
			t.Fatal(err)
		}
		if seen != last {
			last, stalled = seen, time.Now()
		} else if time.Since(stalled) > time.Minute {
			t.Fatalf("the page made no progress for a minute: %s", seen)
		}
		_, _ = chromedp.Run(ctx, chromedp.Poll[bool](`Boolean(globalThis.inspector && inspector.ready)`, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(time.Second)))
	}
	for _, tick := range []int{123, 299} {
		path := fmt.Sprintf("/api/entity?tick=%d&id=%d&gen=%d", tick, e.ID, e.Gen)
		rec := httptest.NewRecorder()
		native.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		var want, got any
		if err := json.Unmarshal(rec.Body.Bytes(), &want); err != nil {
			t.Fatal(err)
		}
		page, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`request(%q).then((r) => r.text())`, path), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(page), &got); err != nil {
			t.Fatalf("%s in the page: %v: %s", path, err, page)
		}
		if w, g := fmt.Sprint(want), fmt.Sprint(got); w != g || rec.Code != 200 {
			t.Errorf("%s: the page answers %s, natively (%d) %s", path, g, rec.Code, w)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
