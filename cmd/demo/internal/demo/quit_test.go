package demo_test

import (
	"errors"
	"testing"
	"time"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
)

// quitEvent is one scripted thing the player does at a time.
type quitEvent struct {
	at     time.Duration
	close  bool         // the window's close button
	button input.Button // else a key tap
}

// TestCloseConfirm: the window's close button and the quit action go
// through the shutdown policy: with nothing unsaved the session ends at
// once; with unsaved bunnies the confirm comes up, a second close or Esc
// ends the session, and any other key keeps it going.
func TestCloseConfirm(t *testing.T) {
	tests := []struct {
		name   string
		events []quitEvent
		// wantEnded is the reason that ended the session, "" when it runs
		// on after every event.
		wantEnded runtime.ShutdownReason
		wantAsk   bool // the confirm is up at the end
		want      runtime.ShutdownStats
	}{
		{"close, nothing unsaved", []quitEvent{{at: 300, close: true}},
			runtime.ReasonWindowClose, false, runtime.ShutdownStats{Requests: 1, Accepted: 1}},
		{"Esc, nothing unsaved", []quitEvent{{at: 300, button: input.KeyEscape}},
			runtime.ReasonQuit, false, runtime.ShutdownStats{Requests: 1, Accepted: 1}},
		{"close with unsaved bunnies asks", []quitEvent{{at: 100, button: input.KeyEqual}, {at: 300, close: true}},
			"", true, runtime.ShutdownStats{Requests: 1, Deferred: 1}},
		{"second close quits", []quitEvent{{at: 100, button: input.KeyEqual}, {at: 300, close: true}, {at: 700, close: true}},
			runtime.ReasonWindowClose, false, runtime.ShutdownStats{Requests: 2, Deferred: 1, Accepted: 1}},
		{"Esc then Esc quits", []quitEvent{{at: 100, button: input.KeyEqual}, {at: 300, button: input.KeyEscape}, {at: 700, button: input.KeyEscape}},
			runtime.ReasonQuit, false, runtime.ShutdownStats{Requests: 2, Deferred: 1, Accepted: 1}},
		{"close then Esc quits", []quitEvent{{at: 100, button: input.KeyEqual}, {at: 300, close: true}, {at: 700, button: input.KeyEscape}},
			runtime.ReasonQuit, false, runtime.ShutdownStats{Requests: 2, Deferred: 1, Accepted: 1}},
		{"another key stays", []quitEvent{{at: 100, button: input.KeyEqual}, {at: 300, close: true}, {at: 700, button: input.KeyW}},
			"", false, runtime.ShutdownStats{Requests: 1, Deferred: 1, Refused: 1}},
		{"asks again after staying", []quitEvent{{at: 100, button: input.KeyEqual}, {at: 300, close: true}, {at: 700, button: input.KeyW}, {at: 1100, close: true}},
			"", true, runtime.ShutdownStats{Requests: 2, Deferred: 2, Refused: 1}},
		{"saved state quits at once", []quitEvent{{at: 100, button: input.KeyEqual}, {at: 300, button: input.KeyF5}, {at: 600, close: true}},
			runtime.ReasonWindowClose, false, runtime.ShutdownStats{Requests: 1, Accepted: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, sim := newSim(t, demo.Options{Sprites: 20, Seed: 5})
			for _, e := range tt.events {
				at := e.at * time.Millisecond
				if e.close {
					sim.Display.RequestClose(sim.At(at))
				} else {
					tap(sim, at, e.button)
				}
			}
			err := sim.Step(90) // 1.5 s at 60 Hz
			ep := sim.Runtime.Shutdown()
			ended, hasEnded := ep.Ended()
			if tt.wantEnded != "" {
				if !errors.Is(err, frameworktest.ErrEnded) {
					t.Fatalf("Step: got %v, want the session ended", err)
				}
				if !hasEnded || ended.Reason != tt.wantEnded {
					t.Errorf("ended by %q (%v), want %q", ended.Reason, hasEnded, tt.wantEnded)
				}
			} else {
				if err != nil {
					t.Fatalf("Step: got %v, want the session running", err)
				}
				if hasEnded {
					t.Errorf("ended by %q, want the session running", ended.Reason)
				}
				if got := g.Confirming(); got != tt.wantAsk {
					t.Errorf("confirm up: got %v, want %v", got, tt.wantAsk)
				}
				if _, open := ep.Deferred(); open != tt.wantAsk {
					t.Errorf("deferred request: got %v, want %v", open, tt.wantAsk)
				}
				if err := sim.Close(); err != nil {
					t.Fatal(err)
				}
			}
			if got := ep.Stats(); got != tt.want {
				t.Errorf("shutdown stats: got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestConfirmDrawn: the confirm is drawn while it is up, above everything.
func TestConfirmDrawn(t *testing.T) {
	g, sim := newSim(t, demo.Options{Sprites: 20, Seed: 5})
	defer sim.Close()
	tap(sim, 100*time.Millisecond, input.KeyEqual)
	sim.Display.RequestClose(sim.At(300 * time.Millisecond))
	if err := sim.Step(12); err != nil {
		t.Fatal(err)
	}
	if n, _ := countLayer(sim.LastFrame(), 31); n != 0 || g.Confirming() {
		t.Fatalf("before the close: %d confirm glyphs (up %v), want none", n, g.Confirming())
	}
	if err := sim.Step(30); err != nil {
		t.Fatal(err)
	}
	if n, _ := countLayer(sim.LastFrame(), 31); n < 20 || !g.Confirming() {
		t.Errorf("after the close: %d confirm glyphs (up %v), want the question", n, g.Confirming())
	}
	if !g.Unsaved() {
		t.Error("Unsaved: got false after adding bunnies")
	}
}

// TestStopBypassesConfirm: the runtime's Stop ends the session at once
// with unsaved bunnies and the confirm up: it never goes through the
// policy.
func TestStopBypassesConfirm(t *testing.T) {
	g, sim := newSim(t, demo.Options{Sprites: 20, Seed: 5})
	tap(sim, 100*time.Millisecond, input.KeyEqual)
	sim.Display.RequestClose(sim.At(300 * time.Millisecond))
	if err := sim.Step(40); err != nil {
		t.Fatal(err)
	}
	if !g.Confirming() {
		t.Fatal("the confirm is not up")
	}
	sim.Runtime.Stop()
	if err := sim.Step(5); !errors.Is(err, frameworktest.ErrEnded) {
		t.Fatalf("Step after Stop: got %v, want the session ended", err)
	}
	ep := sim.Runtime.Shutdown()
	if r, ok := ep.Ended(); ok {
		t.Errorf("ended by the request %q, want by Stop", r.Reason)
	}
	if got, want := ep.Stats(), (runtime.ShutdownStats{Requests: 1, Deferred: 1}); got != want {
		t.Errorf("shutdown stats: got %+v, want %+v", got, want)
	}
}
