//go:build !js

package main

import (
	"context"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/metronome-go/metronome/internal/coturntest"
	"github.com/metronome-go/metronome/internal/lobbytest"
	"github.com/metronome-go/metronome/lobby/server"
)

// A page and a native process of the duel meet by room code through a
// lobby that hands out credentials for a coturn on loopback, both with
// the ICE policy "relay": the page makes the room (?lobby=URL&create),
// the native process joins with the code read off the page (--lobby URL
// --room CODE). They play 10 s with bots to the same confirmed tick and
// hash, each says its path to the other is relayed, and coturn's log
// shows the sessions it carried.
func TestAPageAndANativeProcessMeetRelayed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the duel for the browser and natively, and runs coturn")
	}
	const secret = "webgame-relay-secret"
	turn := coturntest.Run(t, secret)
	s, err := duelSite()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "duel")
	build := exec.Command("go", "build", "-o", bin, "../../examples/duel")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("go build: %v", err)
	}
	lobby := lobbytest.Start(t, server.Options{TURNSecret: []byte(secret), TURNURLs: []string{"turn:" + turn.Addr}})
	ctx := browser(t)
	const ticks = "600"
	relay := "&arg=--set&arg=" + neturl.QueryEscape("net.ice_policy=relay")
	if err := chromedp.Do(ctx, chromedp.Navigate(serve(t, s.handler())+"?lobby="+neturl.QueryEscape(lobby)+"&create"+botArgs("1", ticks)+relay)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.getElementById("lobby")?.dataset.code !== undefined || exitCode !== null`, "the room code on the page")
	code := eval[string](t, ctx, `document.getElementById("lobby")?.dataset.code ?? ""`)
	if code == "" {
		t.Fatalf("the page showed no room code; it exited: %s", eval[string](t, ctx, `stderr`))
	}
	pctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	native := exec.CommandContext(pctx, bin, "--lobby", lobby, "--room", code, "--no-window", "--bot", "2", "--ticks", ticks,
		"--set", "audio.enabled=false", "--set", "net.join_timeout=5m", "--set", "net.ice_policy=relay")
	var nerr strings.Builder
	native.Stderr = &nerr
	type result struct {
		out []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := native.Output()
		done <- result{out, err}
	}()
	page := pageEnd(t, ctx, "the page")
	r := <-done
	if r.err != nil {
		t.Fatalf("native: %v\n%s%s", r.err, r.out, nerr.String())
	}
	if nat := confirmedLine.FindString(string(r.out)); nat != page {
		t.Fatalf("the page and the native process end apart:\npage: %s\nnative: %s", page, r.out)
	}
	pout := eval[string](t, ctx, `stdout`)
	for who, out := range map[string]string{"page": pout, "native process": string(r.out)} {
		if !strings.Contains(out, "room "+code+": connected to seat") || !strings.Contains(out, "(relayed, round trip") {
			t.Errorf("the %s does not say it is connected relayed in room %s:\n%s", who, code, out)
		}
	}
	// Each end allocated on coturn and bound a channel to the other's
	// relayed address, which ICE does only for a pair it checks and the
	// data then takes (coturn's verbose log; its byte counts come only
	// when a session closes).
	log := turn.Log()
	allocs, binds := strings.Count(log, "ALLOCATE processed, success"), strings.Count(log, "CHANNEL_BIND processed, success")
	if allocs < 2 || binds < 2 {
		t.Errorf("coturn logged %d allocations and %d channel binds, want one of each for each end:\n%s", allocs, binds, log)
	}
	t.Logf("page and native through coturn (%d allocations, %d channel binds), room %s: %s", allocs, binds, code, page)
}
