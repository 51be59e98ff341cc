package framework_test

import (
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/timing"
)

type identitySettings struct {
	Rounds int           `range:"1,9"`
	Speed  float64       `range:"0,10"`
	Rules  identityRules // the table [game.rules]
}

type identityRules struct {
	Gravity float64 `range:"0,100"`
}

// The identity hashes what decides the simulation, and nothing else: two
// peers whose windows or patience differ play together, two whose step,
// input delay or game rules differ are refused.
func TestConfigHashCoversTheSimulationOnly(t *testing.T) {
	hash := func(sets ...string) uint64 {
		t.Helper()
		g := netGame()
		s := &identitySettings{Rounds: 3, Speed: 2}
		g.Settings = s
		cfg, err := config.Build(config.Layers{Game: s, Sets: append([]string{"timing.mode=fixed"}, sets...)})
		if err != nil {
			t.Fatal(err)
		}
		if err := cfg.DecodeGame(s); err != nil {
			t.Fatal(err)
		}
		return framework.ConfigHash(g, cfg)
	}
	base := hash()
	for _, sets := range [][]string{
		{"window.width=1920", "window.height=1080"},
		{"net.timeout=30s", "net.join_timeout=10m"},
		{"audio.enabled=false", "timing.debt.max_speed_up=1.5"},
	} {
		if got := hash(sets...); got != base {
			t.Errorf("--set %q: hash %#x, want %#x as without (it does not decide the simulation)", sets, got, base)
		}
	}
	for _, sets := range [][]string{
		{"timing.step=20ms"},
		{"net.delay=3"},
		{"net.window=4"},
		{"net.hash_every=30"},
		{"game.rounds=5"},
		{"game.speed=2.5"},
		{"game.rules.gravity=9.8"},
	} {
		if got := hash(sets...); got == base {
			t.Errorf("--set %q: hash %#x, the same as without (it decides the simulation)", sets, got)
		}
	}
}

// A match's connection messages go to the writer the session's messages
// go to (MainStatus's stderr), not to the process's own stderr.
func TestNetEventsGoToTheSessionsWriter(t *testing.T) {
	var w strings.Builder
	for _, ev := range []netplay.Event{{Peer: 1, Kind: netplay.Disconnected}, {Peer: 1, Kind: netplay.Reconnected}} {
		if err := framework.NetEvent(&w, ev); err != nil {
			t.Fatalf("%v: %v", ev, err)
		}
	}
	if got := w.String(); !strings.Contains(got, "peer 1 disconnected") || !strings.Contains(got, "peer 1 reconnected") {
		t.Errorf("written: %q, want the disconnect and the reconnection of peer 1", got)
	}
	if err := framework.NetEvent(&w, netplay.Event{Peer: 1, Kind: netplay.Left}); err == nil || !strings.Contains(err.Error(), "peer 1") {
		t.Errorf("a peer that left: got %v, want the error ending the match, naming peer 1", err)
	}
}

// A disconnected player is waited for up to net.join_timeout, from when
// it was reported disconnected: one that comes back within it (its link,
// or a new run of it rejoining) resets the wait; one that does not ends
// the match, naming the peer and the setting.
func TestADisconnectedPeerIsWaitedForUpToTheJoinTimeout(t *testing.T) {
	var w strings.Builder
	clock := timing.NewManualClock(0)
	event, waited := framework.NetPatience(&w, clock, time.Minute)
	at := func(d time.Duration) { clock.Set(timing.Instant(d)) }
	if err := event(netplay.Event{Peer: 1, Kind: netplay.Disconnected}); err != nil {
		t.Fatal(err)
	}
	at(59 * time.Second)
	if err := waited(); err != nil {
		t.Fatalf("59 s after the disconnect: %v, want the match to wait", err)
	}
	if err := event(netplay.Event{Peer: 1, Kind: netplay.Reconnected}); err != nil {
		t.Fatal(err)
	}
	at(2 * time.Minute)
	if err := waited(); err != nil {
		t.Fatalf("after it came back: %v", err)
	}
	if err := event(netplay.Event{Peer: 1, Kind: netplay.Disconnected}); err != nil {
		t.Fatal(err)
	}
	at(3*time.Minute + time.Millisecond)
	err := waited()
	if err == nil || !strings.Contains(err.Error(), "peer 1") || !strings.Contains(err.Error(), "net.join_timeout") {
		t.Fatalf("a minute and a millisecond after the second disconnect: %v, want the match ended naming peer 1 and net.join_timeout", err)
	}
	if !strings.Contains(w.String(), "waits up to 1m0s (net.join_timeout)") {
		t.Errorf("the disconnect's message does not say how long the match waits: %q", w.String())
	}
}
