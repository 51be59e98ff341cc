package demo_test

import (
	"math"
	"testing"
	"time"

	"github.com/metronome-go/metronome/cmd/demo/internal/demo"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/timing"
)

// TestJudderAfterStall is issue 22's demo check: the demo in its own
// configuration (the repository's config.toml: 60 Hz fixed ticks, four
// updates a cycle, repay-debt, a 60 fps cap) with a stall injected as the
// panel's keys do. While pacing repays the debt presents keep the cap's
// rate, and within a few seconds of the debt reading zero the timing
// report's judder is back at most 0.02, as before the stall, and the
// presents' alpha is that of a simulation in step with real time.
func TestJudderAfterStall(t *testing.T) {
	for _, tt := range []struct {
		key   int
		caps  []string
		delay time.Duration // after the debt reads zero
	}{
		{1, nil, 3 * time.Second},
		{2, nil, 3 * time.Second},
		{1, []string{"runtime.frame_cap=144"}, 3 * time.Second},
	} {
		t.Run(time.Duration(demo.Stalls[tt.key-1]).String()+" stall/"+capName(tt.caps), func(t *testing.T) {
			cfg, err := config.Build(config.Layers{File: "config.toml", Sets: append([]string{"audio.enabled=false"}, tt.caps...)})
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Timing.Recovery != timing.RepayDebt {
				t.Fatalf("the demo's configuration has recovery %v, want repay-debt", cfg.Timing.Recovery)
			}
			var sim *frameworktest.Sim
			g, err := demo.New(demo.Options{Sprites: 10, Seed: 4, Sleep: func(d time.Duration) { sim.Clock.Advance(d) }})
			if err != nil {
				t.Fatal(err)
			}
			if sim, err = frameworktest.New(g.Framework(), frameworktest.Options{Config: &cfg, RenderCost: 2 * time.Millisecond}); err != nil {
				t.Fatal(err)
			}
			defer sim.Close()
			if err := sim.Step(180); err != nil {
				t.Fatal(err)
			}
			before := g.Report().Presentation
			if before.Judder > 0.02 {
				t.Fatalf("judder %.3f before the stall, want at most 0.02", before.Judder)
			}
			if err := g.Inject(tt.key); err != nil {
				t.Fatal(err)
			}
			maxDebt := int64(0)
			for range 8 { // the stalled update and the batches after it
				if err := sim.Step(1); err != nil {
					t.Fatal(err)
				}
				maxDebt = max(maxDebt, g.Report().Timing.Debt)
			}
			if maxDebt < 2 {
				t.Fatalf("debt at most %d steps after a %v stall, want it owed", maxDebt, demo.Stalls[tt.key-1])
			}
			stallEnd := sim.Clock.Now()
			for g.Report().Timing.Debt > 0 {
				if time.Duration(sim.Clock.Now()-stallEnd) > 60*time.Second {
					t.Fatalf("debt %d steps a minute after the stall", g.Report().Timing.Debt)
				}
				if err := sim.Step(60); err != nil {
					t.Fatal(err)
				}
				// The report's rate covers the latest 120 presents: once
				// the stall is out of them, it is the cap's.
				if p := g.Report().Presentation; time.Duration(sim.Clock.Now()-stallEnd) > 2500*time.Millisecond && math.Abs(p.PresentsPerSecond-before.PresentsPerSecond) > 3 {
					t.Errorf("repaying: %.1f presents/s, want the cap's %.1f", p.PresentsPerSecond, before.PresentsPerSecond)
				}
			}
			repaid := sim.Clock.Now()
			for time.Duration(sim.Clock.Now()-repaid) < tt.delay {
				if err := sim.Step(30); err != nil {
					t.Fatal(err)
				}
			}
			r := g.Report()
			t.Logf("debt repaid %v after the stall; %v later: judder %.4f (before %.4f), alpha %.2f, %.1f presents/s, rate %v",
				time.Duration(repaid-stallEnd), tt.delay, r.Presentation.Judder, before.Judder, r.Presentation.Alpha, r.Presentation.PresentsPerSecond, r.Timing.Rate)
			if r.Presentation.Judder > 0.02 {
				t.Errorf("judder %.4f %v after the debt read zero, want at most 0.02", r.Presentation.Judder, tt.delay)
			}
			if math.Abs(r.Presentation.PresentsPerSecond-before.PresentsPerSecond) > 3 {
				t.Errorf("%.1f presents/s, want the cap's %.1f", r.Presentation.PresentsPerSecond, before.PresentsPerSecond)
			}
			// A simulation left a step behind real time shows every frame
			// at alpha 1 (its motion done before the present), even where
			// a 60 fps cap on 60 Hz ticks hides the judder.
			if r.Presentation.Alpha >= 0.99 {
				t.Errorf("alpha %.2f at the latest present, want the simulation back in step (below 1)", r.Presentation.Alpha)
			}
		})
	}
}

func capName(sets []string) string {
	if len(sets) == 0 {
		return "config.toml"
	}
	return sets[0]
}
