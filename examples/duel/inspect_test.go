//go:build !js

package main

import (
	"errors"
	"io"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/inspect"
	"github.com/metronome-go/metronome/internal/browsertest"
	"github.com/metronome-go/metronome/recording"
)

// The inspector opens a match's recording: every confirmed tick is on
// its timeline, a seek anywhere (back and forth, each player's recorded
// input handed back to the tick run again) gives the world the match
// confirmed at each checkpoint, and the timeline's net figures are the
// peer's, about once a second, the last within that of its figures at
// the match's end.
func TestInspectorOpensAMatch(t *testing.T) {
	const d = 6 * time.Second
	paths, peers := recordMatch(t, d)
	p := peers[0]
	rep, err := framework.InspectReplay(newGame(), paths[0], inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ticks, checks := recordedChecks(t, paths[0])
	if rep.Ticks() != ticks || len(checks) < 5 {
		t.Fatalf("the inspector holds %d ticks and the recording %d with %d checkpoints", rep.Ticks(), ticks, len(checks))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, i := range append(rng.Perm(len(checks)), len(checks)-1, 0, 2) {
		c := checks[i]
		if err := rep.Seek(c.Tick); err != nil {
			t.Fatal(err)
		}
		h, err := rep.App().Hash()
		if err != nil {
			t.Fatal(err)
		}
		if h.Total != c.Hash {
			t.Fatalf("after a seek to tick %d the world hashes %016x, the match confirmed %016x", c.Tick, h.Total, c.Hash)
		}
	}

	spans := rep.Net(0, uint64(ticks))
	if len(spans) < int(d/time.Second)-2 {
		t.Fatalf("%d net spans over a %v match, want about one a second: %+v", len(spans), d, spans)
	}
	var most uint64
	for i, s := range spans {
		if i > 0 && (s.From != spans[i-1].To || s.BytesSent < spans[i-1].BytesSent) {
			t.Errorf("net span %d (%d to %d) after %d to %d: want the next ticks, figures that grow", i, s.From, s.To, spans[i-1].From, spans[i-1].To)
		}
		if i > 0 {
			most = max(most, s.BytesSent-spans[i-1].BytesSent)
		}
	}
	last, end := spans[len(spans)-1], p.Stats
	if last.Rollbacks == 0 || last.BytesReceived == 0 || last.Rollbacks > end.Rollbacks || last.BytesSent > end.BytesSent || last.Resyncs != end.Resyncs {
		t.Errorf("the last net figures %+v, the peer's at the end %+v", last.NetFigures, end)
	}
	// After its last figures the peer ran on to the match's last line
	// and lingered: a second or two of traffic.
	if end.BytesSent-last.BytesSent > 3*most {
		t.Errorf("the peer sent %d bytes after its last figures, more than three of its busiest seconds (%d each)", end.BytesSent-last.BytesSent, most)
	}
	t.Logf("%d ticks, %d net spans; last %+v; the peer's end: %d bytes sent, %d rollbacks", ticks, len(spans), last.NetFigures, end.BytesSent, end.Rollbacks)
}

// recordMatch plays a match of d over the simulated network with loss,
// each peer recording it, and returns the recordings' paths and the
// peers.
func recordMatch(t *testing.T, d time.Duration) ([]string, []*frameworktest.Peer) {
	t.Helper()
	dir := t.TempDir()
	paths := []string{dir + "/host.rec", dir + "/joiner.rec"}
	peers, err := frameworktest.Match(newGame, frameworktest.MatchOptions{
		Options: frameworktest.Options{Sets: []string{"runtime.frame_cap=60", "window.vsync=false", "net.delay=2", "net.hash_every=30"}},
		Net:     issueNet, For: d, Start: []time.Duration{0, lateStart},
		Records: paths,
		Script:  func(peer int, sim *frameworktest.Sim) { randomSeat(sim, 0, int(d/tick), uint64(40+peer)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths, peers
}

// The inspector's page on a match's recording, in headless chromium,
// draws the match's figures as a band of about a second each and names
// the tick's second's in the tick's line.
func TestInspectorPageShowsTheMatchFigures(t *testing.T) {
	paths, _ := recordMatch(t, 6*time.Second)
	rep, err := framework.InspectReplay(newGame(), paths[0], inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := inspect.NewHandler(rep, inspect.ServerOptions{Name: "host.rec"})
	if err != nil {
		t.Fatal(err)
	}
	url := browsertest.Serve(t, h)
	ctx := browsertest.Start(t, 5*time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"?tick=200")); err != nil {
		t.Fatal(err)
	}
	cond := `globalThis.inspector && inspector.ready && !inspector.busy && inspector.netDrawn && inspector.netDrawn.length >= 4 &&
		inspector.netDrawn.some(s => s.rollbacks > 0) && /net: rtt [0-9.]+ ms, sent [0-9]+ B, received [0-9]+ B, [0-9]+ rollbacks/.test(document.getElementById("tickinfo").textContent)`
	var last string
	stalled := time.Now()
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("Boolean("+cond+")"))
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			return
		}
		seen, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify([globalThis.inspector?.tick, globalThis.inspector?.netDrawn, document.getElementById("tickinfo")?.textContent, document.getElementById("msg")?.textContent])`))
		if err != nil {
			t.Fatal(err)
		}
		if seen != last {
			last, stalled = seen, time.Now()
		} else if time.Since(stalled) > time.Minute {
			t.Fatalf("the page made no progress for a minute without showing the match's figures: %s", seen)
		}
		_, _ = chromedp.Run(ctx, chromedp.Poll[bool]("Boolean("+cond+")", chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(time.Second)))
	}
}

// recordedChecks reads the recording at path and returns how many ticks
// it holds and its checkpoints.
func recordedChecks(t *testing.T, path string) (int, []recording.Checkpoint) {
	t.Helper()
	r, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var checks []recording.Checkpoint
	ticks := 0
	for {
		it, err := r.Next()
		if errors.Is(err, io.EOF) {
			return ticks, checks
		} else if err != nil {
			t.Fatal(err)
		}
		switch v := it.(type) {
		case *recording.Tick:
			ticks++
		case *recording.Checkpoint:
			checks = append(checks, recording.Checkpoint{Tick: v.Tick, Hash: v.Hash})
		}
	}
}
