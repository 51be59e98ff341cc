//go:build !js

package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// TestOpenInRewind plays Breakout's attract mode in the page for 300
// ticks with --record, clicks Open in Rewind, and reads the ball at tick
// 250 and the first tick where it falls in the inspector's tab, which
// runs the game's inspect build over the recording the page handed it:
// the answers equal the native --replay FILE --inspect server's for the
// same recording.
func TestOpenInRewind(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Breakout for the browser twice and natively")
	}
	ctx := browser(t)
	bo := buildOptions{Dir: "../../examples/breakout", Tags: hookTag, Rewind: true}
	s, err := build(context.Background(), bo, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	rw := newRewind(context.Background(), bo, os.Stderr)
	r, err := rw.get() // built here, so no page waits on the build
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: the game's %d bytes (%d gzip), the inspect build's %d (%d gzip)", wasmName,
		len(s.files[wasmName]), len(s.gz[wasmName]), len(r.files[wasmName]), len(r.gz[wasmName]))
	exe, err := nativeBreakout()
	if err != nil {
		t.Fatal(err)
	}

	url := serve(t, rewindHandler(s.handler(), rw))
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"?arg=--record&arg=session.rec&arg=--ticks=300&arg=--set&arg=game.demo=true")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `exitCode !== null`, "the game to stop after 300 ticks")
	if code := eval[int](t, ctx, `exitCode`); code != 0 {
		t.Fatalf("the recording session exited with %d: %s", code, eval[string](t, ctx, `stderr`))
	}
	waitFor(t, ctx, `document.querySelector("button[data-rewind]") !== null`, "the Open in Rewind button")
	rec, err := base64.StdEncoding.DecodeString(eval[string](t, ctx, `metronomePage.file("session.rec") ?? ""`))
	if err != nil || len(rec) == 0 {
		t.Fatalf("metronomePage.file(\"session.rec\"): %d bytes, %v", len(rec), err)
	}
	file := filepath.Join(t.TempDir(), "session.rec")
	if err := os.WriteFile(file, rec, 0o644); err != nil {
		t.Fatal(err)
	}

	opened := chromedp.WaitNewTarget(ctx, func(i *target.Info) bool { return strings.Contains(i.URL, "/rewind/") })
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[data-rewind]`))); err != nil {
		t.Fatal(err)
	}
	clicked := time.Now()
	tab, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(<-opened))
	defer cancel()
	inspectorReady(t, tab)
	t.Logf("the Rewind tab showed the recording %v after the click", time.Since(clicked).Round(time.Millisecond))

	native := nativeInspector(t, exe, file)
	var list struct{ Entities []struct{ ID, Gen uint32 } }
	if err := json.Unmarshal(apiGet(t, native+"api/entities?tick=250&component=Ball"), &list); err != nil || len(list.Entities) != 1 {
		t.Fatalf("native /api/entities, the ball at tick 250: %v, %+v", err, list)
	}
	e := list.Entities[0]
	// An entity at one tick, and a question the tab answers by replaying
	// the handed recording again from its in-memory file.
	for _, path := range []string{
		fmt.Sprintf("/api/entity?tick=250&id=%d&gen=%d", e.ID, e.Gen),
		"/api/where?expr=" + neturl.QueryEscape("Ball.Vel.Y > 0"),
	} {
		var want, got any
		if err := json.Unmarshal(apiGet(t, native+path[1:]), &want); err != nil {
			t.Fatal(err)
		}
		page, err := chromedp.Run(tab, chromedp.Evaluate[string](fmt.Sprintf(`request(%q).then((r) => r.text())`, path), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(page), &got); err != nil {
			t.Fatalf("%s in the Rewind tab: %v: %s", path, err, page)
		}
		if w, g := fmt.Sprint(want), fmt.Sprint(got); w != g {
			t.Errorf("%s: the Rewind tab answers %s, the native inspector %s", path, g, w)
		}
		t.Logf("%s: %.200s", path, fmt.Sprint(got))
	}
}

// inspectorReady waits until the inspector's page in tab has loaded the
// session, for as long as its message line or state changes.
func inspectorReady(t *testing.T, tab context.Context) {
	t.Helper()
	const seen = `document.getElementById("msg")?.textContent + " " + JSON.stringify(globalThis.inspector ?? null)`
	for last := ""; ; {
		if ok, err := chromedp.Run(tab, chromedp.Evaluate[bool](`Boolean(globalThis.inspector && inspector.ready)`)); err != nil {
			t.Fatal(err)
		} else if ok {
			return
		}
		now, err := chromedp.Run(tab, chromedp.Evaluate[string](seen))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(now, "without serving the inspector") {
			t.Fatalf("the Rewind tab: %s", now)
		}
		if now == last {
			t.Fatalf("the Rewind tab made no progress for %v: %s", stallLimit, now)
		}
		last = now
		poll := fmt.Sprintf(`Boolean(globalThis.inspector && inspector.ready) || (%s) !== %q`, seen, now)
		_, _ = chromedp.Run(tab, chromedp.Poll[bool](poll, chromedp.WithPollingTimeout(stallLimit)))
	}
}

// nativeInspector runs exe --replay file --inspect on a free loopback
// port and returns the URL it prints; the test stops it at the end.
func nativeInspector(t *testing.T, exe, file string) string {
	t.Helper()
	cmd := exec.Command(exe, "--replay", file, "--inspect", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	open := regexp.MustCompile(`open (http://\S+)`)
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if m := open.FindStringSubmatch(sc.Text()); m != nil {
			go io.Copy(io.Discard, out)
			return strings.TrimSuffix(m[1], "/") + "/"
		}
	}
	t.Fatalf("the native inspector printed no address (%v)", sc.Err())
	return ""
}

// apiGet returns the body of a 200 answer to url.
func apiGet(t *testing.T, url string) []byte {
	t.Helper()
	r, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, err := io.ReadAll(r.Body)
	if err != nil || r.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v: %s", url, r.StatusCode, err, b)
	}
	return b
}

// TestRewindServesItsBuildError: under /rewind/ the server answers with
// what stopped the inspector's build, and the game's page goes on.
func TestRewindServesItsBuildError(t *testing.T) {
	game := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "the game") })
	h := rewindHandler(game, newRewind(context.Background(), buildOptions{Dir: filepath.Join(t.TempDir(), "nothere")}, io.Discard))
	for _, c := range []struct {
		path string
		code int
		body string
	}{
		{"/", 200, "the game"},
		{"/rewind/", 500, "nothere is not a directory"},
		{"/rewind/game.wasm", 500, "nothere is not a directory"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", c.path, nil))
		if rec.Code != c.code || !strings.Contains(rec.Body.String(), c.body) {
			t.Errorf("GET %s: %d %q, want %d with %q", c.path, rec.Code, rec.Body.String(), c.code, c.body)
		}
	}
}

// TestPageOffersRewindWhenBuilt: the game's page offers Open in Rewind
// only when the site has the inspector's page under rewind/.
func TestPageOffersRewindWhenBuilt(t *testing.T) {
	for _, rewind := range []bool{false, true} {
		page, err := renderPage(pageData{Title: "t", Name: "n", Wasm: wasmName, Rewind: rewind})
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("if ( %v  && name === recorded()", rewind); !strings.Contains(string(page), want) {
			t.Errorf("rewind %v: the page has no %q", rewind, want)
		}
	}
}

// TestOutWritesRewind: --out DIR --rewind writes the inspector's page and
// the game's inspect build under DIR/rewind/, and the game's page offers
// Open in Rewind; without --rewind neither.
func TestOutWritesRewind(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Breakout for the browser three times")
	}
	for _, rewind := range []bool{false, true} {
		dir := t.TempDir()
		args := []string{"--out", dir, "../../examples/breakout"}
		if rewind {
			args = append([]string{"--rewind"}, args...)
		}
		var stderr strings.Builder
		if code := run(args, io.Discard, &stderr); code != 0 {
			t.Fatalf("webgame %v: %d: %s", args, code, stderr.String())
		}
		page, err := os.ReadFile(filepath.Join(dir, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("if ( %v  && name === recorded()", rewind); !strings.Contains(string(page), want) {
			t.Errorf("--rewind %v: index.html has no %q", rewind, want)
		}
		inspector, err := os.ReadFile(filepath.Join(dir, rewindDir, "index.html"))
		if !rewind {
			if !os.IsNotExist(err) {
				t.Errorf("without --rewind: rewind/index.html: %v, want none", err)
			}
			continue
		}
		if err != nil || !strings.Contains(string(inspector), "<title>Metronome inspector</title>") {
			t.Errorf("--rewind: rewind/index.html is not the inspector's page (%v)", err)
		}
		for _, name := range []string{wasmName, wasmName + ".gz", "wasm_exec.js"} {
			if _, err := os.Stat(filepath.Join(dir, rewindDir, name)); err != nil {
				t.Errorf("--rewind: %v", err)
			}
		}
		game, _ := os.ReadFile(filepath.Join(dir, wasmName))
		inspect, _ := os.ReadFile(filepath.Join(dir, rewindDir, wasmName))
		if len(inspect) <= len(game) {
			t.Errorf("--rewind: rewind/%s has %d bytes, the game's %d: want the larger inspect build", wasmName, len(inspect), len(game))
		}
	}
}
