package demo_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/timing"
)

// testConfig returns the default configuration with the given overrides.
func testConfig(sets ...string) (config.Config, error) {
	cfg := config.Default()
	// The demo's own config.toml caps presents at 60 a second; without a
	// cap a session presents as fast as rendering allows, which here would
	// be every 2 ms of virtual time.
	sets = append([]string{"runtime.frame_cap=60"}, sets...)
	for _, s := range sets {
		if err := cfg.Set(s); err != nil {
			return cfg, err
		}
	}
	return cfg, cfg.Validate("test")
}

// mustConfig is testConfig for a table built before the test runs.
func mustConfig(sets ...string) config.Config {
	cfg, err := testConfig(sets...)
	if err != nil {
		panic(err)
	}
	return cfg
}

// newSim builds the demo on a headless simulation whose injected sleeps
// advance the manual clock, configured by the given overrides.
func newSim(t *testing.T, opts demo.Options, sets ...string) (*demo.Game, *frameworktest.Sim) {
	t.Helper()
	return newSimWith(t, opts, frameworktest.Options{}, sets...)
}

// newSimWith is newSim with the harness's own options (Config and
// RenderCost are newSim's).
func newSimWith(t *testing.T, opts demo.Options, fo frameworktest.Options, sets ...string) (*demo.Game, *frameworktest.Sim) {
	t.Helper()
	cfg, err := testConfig(sets...)
	if err != nil {
		t.Fatal(err)
	}
	var sim *frameworktest.Sim
	opts.Sleep = func(d time.Duration) { sim.Clock.Advance(d) }
	g, err := demo.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	fo.Config, fo.RenderCost = &cfg, 2*time.Millisecond
	if sim, err = frameworktest.New(g.Framework(), fo); err != nil {
		t.Fatal(err)
	}
	return g, sim
}

// tap scripts a short press of b at offset.
func tap(sim *frameworktest.Sim, offset time.Duration, b input.Button) {
	sim.Input.Tap(sim.At(offset), b, 30*time.Millisecond)
}

func TestHeadlessRunDrawsSceneAndOverlay(t *testing.T) {
	g, sim := newSim(t, demo.Options{Sprites: 200, Seed: 3})
	if err := sim.RunTicks(150); err != nil {
		t.Fatal(err)
	}
	if got, want := g.Bunnies(), 200; got != want {
		t.Errorf("bunnies: got %d, want %d", got, want)
	}
	f := sim.LastFrame()
	if f == nil {
		t.Fatal("no frame was rendered")
	}
	var bunnies, glyphs, bars int
	for _, p := range f.Passes {
		for _, pk := range p.Packets {
			switch {
			case pk.Layer == 0:
				bunnies++
			case pk.Layer == 12:
				glyphs++
			case pk.Layer == 11 && pk.Texture == (render2d.TextureHandle{}):
				bars++
			}
		}
	}
	if bunnies != 200 {
		t.Errorf("bunny packets: got %d, want 200", bunnies)
	}
	if glyphs < 500 {
		t.Errorf("overlay glyph packets: got %d, want at least 500 (stats, panel and graph labels)", glyphs)
	}
	if bars < 100 {
		t.Errorf("graph bar packets: got %d, want at least 100 (120 frames of intervals)", bars)
	}
	r := g.Report()
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var decoded map[string]any
	if err := json.Unmarshal(buf.Bytes(), &decoded); err != nil {
		t.Fatalf("report is not valid JSON: %v", err)
	}
	if !r.Ledger.Balanced {
		t.Errorf("ledger: got imbalance %d ns, want balanced: %+v", r.Ledger.ImbalanceNS, r.Ledger)
	}
	if !strings.Contains(buf.String(), `"balanced": true`) {
		t.Errorf("JSON report lacks the balanced ledger:\n%s", buf.String()[:min(buf.Len(), 400)])
	}
	_ = timing.TelemetryWindow
}
