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
)

// A page and a native process of the duel meet by quick match
// (?lobby=URL&quick=2, --lobby URL --quick 2) and play 10 s with bots to
// the same confirmed tick and hash.
func TestAPageAndANativeProcessQuickMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the duel for the browser and natively")
	}
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
	lobby := startLobby(t)
	ctx := browser(t)
	const ticks = "600"
	if err := chromedp.Do(ctx, chromedp.Navigate(serve(t, s.handler())+"?lobby="+neturl.QueryEscape(lobby)+"&quick=2"+botArgs("1", ticks))); err != nil {
		t.Fatal(err)
	}
	pctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	native := exec.CommandContext(pctx, bin, "--lobby", lobby, "--quick", "2", "--no-window", "--bot", "2", "--ticks", ticks,
		"--set", "audio.enabled=false", "--set", "net.join_timeout=5m")
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
	nat := confirmedLine.FindString(string(r.out))
	if nat != page {
		t.Fatalf("the page and the native process end apart:\npage: %s\nnative: %s", page, r.out)
	}
	if !strings.Contains(string(r.out), "quick match: waiting") {
		t.Errorf("the native process did not say it waited in quick match:\n%s", r.out)
	}
	t.Logf("page and native: %s", page)
}
