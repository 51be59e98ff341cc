//go:build !js

package main

import (
	"context"
	neturl "net/url"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/metronome-go/metronome/internal/lobbytest"
	"github.com/metronome-go/metronome/lobby/server"
)

var duelSite = sync.OnceValues(func() (*site, error) {
	return testBuild(buildOptions{Dir: "../../examples/duel"})
})

// startLobby runs a lobby on loopback and returns its ws:// URL.
func startLobby(t *testing.T) string { return lobbytest.Start(t, server.Options{}) }

// botArgs is the page query of a match played by a bot with no window
// (the simulation only) for ticks ticks.
func botArgs(seed, ticks string) string {
	q := ""
	for _, a := range []string{"--no-window", "--bot", seed, "--ticks", ticks, "--set", "audio.enabled=false", "--set", "net.join_timeout=5m"} {
		q += "&arg=" + neturl.QueryEscape(a)
	}
	return q
}

// pageEnd waits for the page's game to end and returns its confirmed
// line, failing the test when it exits with an error or prints none.
func pageEnd(t *testing.T, ctx context.Context, who string) string {
	t.Helper()
	waitFor(t, ctx, `exitCode !== null`, who+"'s game to end")
	if code := eval[int](t, ctx, `exitCode`); code != 0 {
		t.Fatalf("%s exited with %d:\n%s\n%s", who, code, eval[string](t, ctx, `stdout`), eval[string](t, ctx, `stderr`))
	}
	out := eval[string](t, ctx, `stdout`)
	line := confirmedLine.FindString(out)
	if line == "" {
		t.Fatalf("%s printed no confirmed line:\n%s", who, out)
	}
	return line
}

// Two headless Chromium pages meet by room code through a lobby on
// loopback: one makes the room (?lobby=URL&create) and shows its code,
// the other enters it by the code read off the first page
// (?lobby=URL&room=CODE); both play 60 s of the duel with bots (3600
// ticks) and end on the same confirmed tick and hash. No desktop process
// plays: a page holds the room's first seat.
func TestTwoPagesMeetByRoomCode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the duel for the browser and plays 60 s in two pages")
	}
	s, err := duelSite()
	if err != nil {
		t.Fatal(err)
	}
	lobby := startLobby(t)
	site := serve(t, s.handler())
	creator, joiner := browser(t), browser(t)
	const ticks = "3600"
	if err := chromedp.Do(creator, chromedp.Navigate(site+"?lobby="+neturl.QueryEscape(lobby)+"&create"+botArgs("1", ticks))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, creator, `document.getElementById("lobby")?.dataset.code !== undefined || exitCode !== null`, "the room code on the page")
	code := eval[string](t, creator, `document.getElementById("lobby")?.dataset.code ?? ""`)
	if code == "" {
		t.Fatalf("the page showed no room code; it exited: %s", eval[string](t, creator, `stderr`))
	}
	if shown := eval[string](t, creator, `document.getElementById("lobby").textContent`); !strings.Contains(shown, "Room "+code) {
		t.Errorf("the page shows %q, want the room code %s", shown, code)
	}
	if err := chromedp.Do(joiner, chromedp.Navigate(site+"?lobby="+neturl.QueryEscape(lobby)+"&room="+code+botArgs("2", ticks))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, joiner, `(document.getElementById("lobby")?.textContent ?? "").includes("match started") || exitCode !== null`, "the joiner's match to start")
	a, b := pageEnd(t, creator, "the creating page"), pageEnd(t, joiner, "the joining page")
	if a != b {
		t.Fatalf("the pages end apart:\ncreator: %s\njoiner: %s", a, b)
	}
	for who, ctx := range map[string]context.Context{"creator": creator, "joiner": joiner} {
		if out := eval[string](t, ctx, `stdout`); !strings.Contains(out, "connected to seat") {
			t.Errorf("the %s's page printed no connection line:\n%s", who, out)
		}
	}
	t.Logf("both pages, room %s: %s", code, a)
}

// A page that cannot meet shows why: a room code no room has ends the
// game with the reason on the page, as the desktop prints it.
func TestPageShowsWhyItCannotMeet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the duel for the browser")
	}
	s, err := duelSite()
	if err != nil {
		t.Fatal(err)
	}
	lobby := startLobby(t)
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(serve(t, s.handler())+"?lobby="+neturl.QueryEscape(lobby)+"&room=KXR-4TQ"+botArgs("1", "60"))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `exitCode !== null`, "the game to give up")
	if code := eval[int](t, ctx, `exitCode`); code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	if msg := eval[string](t, ctx, `document.getElementById("message").textContent`); !strings.Contains(msg, "room unknown or expired") {
		t.Errorf("the page says %q, want the reason: room unknown or expired", msg)
	}
}
