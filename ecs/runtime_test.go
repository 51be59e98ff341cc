package ecs_test

import (
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime/runtimetest"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// TestAppUnderRuntime runs an ECS game through the real runtime loop on the
// fake clock of a synctest bubble, with fixed 20 ms steps and frames that
// take 7 ms or, now and then, 45 ms (and once 300 ms) to render, in both run
// modes and under each recovery policy. Every frame carries a marker
// packet, written by an Extract system, with the simulated time it was
// prepared at and that of the frame prepared before it. The platform draws
// each frame again at every present; at each one, the mover must be drawn
// (resolved at that present's alpha) exactly between where it was at the
// previous frame and where it is, and the alpha must be the one the
// frame's span gives for the present's instant. Cosmetic systems must run
// on exactly the ticks the policy allows.
func TestAppUnderRuntime(t *testing.T) {
	const (
		frames = 40
		speedX = 50 // world units per second
	)
	repay := func(o *timing.Options) {
		o.Recovery = timing.RepayDebt
		o.MaxFixedUpdates = 8
	}
	tests := []struct {
		name       string
		mode       runtime.Mode
		setup      func(*timing.Options)
		wantQuiet  bool // catch-up bursts mark ticks quiet
		wantCoarse bool // some loud ticks skip cosmetic work
		slowSim    bool // the simulation, not the renderer, is slow
	}{
		{"drop excess lag", runtime.Sequential, func(o *timing.Options) { o.MaxFixedUpdates = 4 }, false, false, false},
		{"repay debt", runtime.Sequential, repay, true, false, false},
		{"repay debt, coarse cosmetic", runtime.Sequential, func(o *timing.Options) {
			repay(o)
			o.Debt.CoarseCosmetic = true
		}, true, true, false},
		{"repay debt, variable step", runtime.Sequential, func(o *timing.Options) {
			repay(o)
			o.Debt.VariableStep = true
		}, true, false, false},
		// In concurrent mode a slow renderer does not hold the simulation
		// back; a slow update does.
		{"concurrent, drop excess lag", runtime.Concurrent, func(o *timing.Options) { o.MaxFixedUpdates = 4 }, false, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				// Work that takes 7 ms, or 45 ms now and then, or 300 ms once.
				cost := func(i int) time.Duration {
					switch {
					case i == 10:
						return 300 * time.Millisecond
					case i%9 == 4:
						return 45 * time.Millisecond
					}
					return 7 * time.Millisecond
				}
				renderCost := cost
				if tt.slowSim {
					renderCost = func(int) time.Duration { return 7 * time.Millisecond }
				}

				app := newApp(t, ecs.Options{Seed: 9})
				app.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
					spawnSprite(ctx.Commands, 0, 120, 0, speed{X: speedX}, red)
					spawnSprite(ctx.Commands, 500, 120, -1, speed{}, blue) // off screen: culled
					spawnSprite(ctx.Commands, 160, 60, -1, speed{}, green) // a lower layer: drawn first
				}})
				app.AddSystem(ecs.Update, moveSystem())
				if tt.slowSim {
					n := 0
					app.AddSystem(ecs.Update, ecs.System{Name: "heavy", Run: func(*ecs.Sys) {
						time.Sleep(cost(n)) // simulated work in the bubble
						n++
					}})
				}
				prepared := 0
				var lastElapsed time.Duration
				prevElapsed := float32(-1) // no frame before the first
				app.AddSystem(ecs.Extract, ecs.System{Name: "marker", Run: func(ctx *ecs.Sys) {
					tm := ctx.Time
					pw := ctx.Frame.BeginPass(render2d.PassDesc{})
					elapsed := float32(tm.Elapsed.Seconds())
					fixed := float32(0)
					if tm.Kind == timing.FixedUpdate {
						fixed = 1
					}
					pw.Draw(render2d.DrawPacket2D{Size: geom.Vec2{X: 1, Y: 1}, Transform: render2d.Transform{Scale: geom.Vec2{X: 1, Y: 1}},
						Params: [render2d.ParamCount]float32{elapsed, prevElapsed, fixed}})
					prevElapsed = elapsed
					prepared++
					lastElapsed = tm.Elapsed
					if prepared == frames {
						ctx.RequestStop()
					}
				}})
				var kinds [timing.NumKinds]int
				wantCosmetic, quiet := 0, 0
				app.AddSystem(ecs.PostUpdate, ecs.System{Name: "kinds", Run: func(ctx *ecs.Sys) {
					kinds[ctx.Time.Kind]++
					if ctx.Time.RunCosmetic() {
						wantCosmetic++
					}
					if ctx.Time.Quiet {
						quiet++
					}
					if ctx.Time.Number > 20*frames { // a failsafe, so a broken loop cannot hang the test
						ctx.RequestStop()
					}
				}})
				cosmetic := 0
				var cosmeticTime time.Duration
				app.AddSystem(ecs.Update, ecs.System{Name: "sparkle", Cosmetic: true, Run: func(ctx *ecs.Sys) {
					cosmetic++
					cosmeticTime += ctx.RunDelta()
				}})

				opts := runtime.DefaultOptions()
				opts.Mode = tt.mode
				opts.Timing.Mode = timing.FixedMode
				opts.Timing.FixedStep = 20 * time.Millisecond
				tt.setup(&opts.Timing)
				clock := runtimetest.NewBubbleClock()
				opts.Clock = clock
				// Some frames take (bubble) time to render, so the scheduler
				// has to catch up and the frames land between steps.
				ctx, fakes := runtimetest.NewAdapters(clock)
				ctx.Input = nil
				size := input.Size{Width: 320, Height: 240}
				fakes.Display.Set(func(s *runtime.WindowState) { s.Size, s.Framebuffer = size, size })
				rec, pres := fakes.Renderer, fakes.Presenter
				rec.Hook = func(m string) error {
					if m == "Render" {
						time.Sleep(renderCost(len(rec.Frames)))
					}
					return nil
				}
				rt, err := runtime.New(app, ctx, opts)
				if err != nil {
					t.Fatal(err)
				}
				if err := rt.Run(); err != nil {
					t.Fatalf("Run: %v", err)
				}

				// Concurrent mode may skip or supersede frames; sequential mode
				// renders every one it prepares, some more than once.
				shown := map[uint64]bool{}
				for _, f := range rec.Frames {
					shown[f.Sequence] = true
				}
				if n := len(shown); n < frames/4 || (tt.mode == runtime.Sequential && n != frames) {
					t.Fatalf("frames rendered: got %d of %d prepared", n, frames)
				}
				if kinds[timing.VariableUpdate] != 0 {
					t.Errorf("update kinds: got %v, want no variable updates", kinds)
				}
				if cosmetic != wantCosmetic {
					t.Errorf("cosmetic runs: got %d, want %d (ticks marked cosmetic and not quiet)", cosmetic, wantCosmetic)
				}
				updates := kinds[timing.FixedUpdate] + kinds[timing.CatchUpUpdate]
				if got := quiet > 0; got != tt.wantQuiet {
					t.Errorf("quiet ticks: got %d, want some: %v", quiet, tt.wantQuiet)
				}
				if got := cosmetic < updates-quiet; got != tt.wantCoarse {
					t.Errorf("cosmetic runs %d of %d loud ticks; want fewer: %v", cosmetic, updates-quiet, tt.wantCoarse)
				}
				if cosmeticTime > lastElapsed || (!tt.wantCoarse && cosmeticTime != lastElapsed) {
					t.Errorf("simulated time seen by the cosmetic system: got %v of %v", cosmeticTime, lastElapsed)
				}
				sawAlpha, sawPrev := false, false
				for i, f := range rec.Frames {
					if len(f.Passes) != 2 || len(f.Passes[0].Packets) != 2 || len(f.Passes[1].Packets) != 1 {
						t.Fatalf("present %d: want a world pass with two sprites and a marker pass after it, got %d passes", i, len(f.Passes))
					}
					if ps := f.Passes[0].Packets; ps[0].Tint != green || ps[1].Tint != red {
						t.Fatalf("present %d: world pass tints %v, %v; want the layer -1 sprite, then the mover", i, ps[0].Tint, ps[1].Tint)
					}
					alpha := f.Present.Alpha
					if want := f.Span.AlphaAt(f.Present.At); alpha != want {
						t.Errorf("present %d at %v: alpha %v, want %v from the span %+v", i, f.Present.At, alpha, want, f.Span)
					}
					m := f.Passes[1].Packets[0].Params
					elapsed, prev, fixed := float64(m[0]), float64(m[1]), m[2] == 1
					// A frame after a fixed step moves over that step; after a
					// merged catch-up step, which ends at the present, it does
					// not move, and neither does the first, whose mover was
					// just spawned (a frame in which nothing moves is
					// presented once: step 0).
					// Under RepayDebt's pacing the step is shown over the
					// real time the pace gives it: 20 ms at 0.9 to 1.25.
					wantStep := map[bool]time.Duration{true: 20 * time.Millisecond}[fixed && prev >= 0]
					lo, hi := wantStep, wantStep
					if opts.Timing.Recovery == timing.RepayDebt && opts.Timing.Debt.Pacing {
						lo, hi = time.Duration(float64(wantStep)/opts.Timing.Debt.MaxSpeedUp), time.Duration(float64(wantStep)/opts.Timing.Debt.MaxSlowDown)
					}
					if f.Span.Step < lo || f.Span.Step > hi {
						t.Errorf("present %d: span step %v, want %v to %v (fixed update: %v, previous frame at %v)", i, f.Span.Step, lo, hi, fixed, prev)
					}
					mover := f.Passes[0].Packets[1]
					// The mover is at 50 * simulated time; the previous frame
					// prepared saw it at 50 * that frame's time.
					if got, want := float64(mover.Transform.Position.X), speedX*elapsed; math.Abs(got-want) > 1e-3 {
						t.Errorf("present %d: current x=%v, want %.4f (at %.3fs)", i, got, want, elapsed)
					}
					want := speedX * elapsed
					if prev >= 0 {
						if !mover.Prev.Set || math.Abs(float64(mover.Prev.Position.X)-speedX*prev) > 1e-3 {
							t.Errorf("present %d: previous placement %+v, want x=%.4f (the frame at %.3fs)", i, mover.Prev, speedX*prev, prev)
						}
						want = speedX * (prev + (elapsed-prev)*float64(alpha))
						sawPrev = true
					} else if mover.Prev.Set {
						t.Errorf("present %d: the first frame has a previous placement %+v", i, mover.Prev)
					}
					if got := float64(mover.Resolved(alpha).Transform.Position.X); math.Abs(got-want) > 1e-3 {
						t.Errorf("present %d (at %.3fs, previous frame at %.3fs, alpha %.3f): drawn at x=%v, want %.4f", i, elapsed, prev, alpha, got, want)
					}
					if alpha > 0 && alpha < 1 {
						sawAlpha = true
					}
				}
				if !sawAlpha || !sawPrev {
					t.Errorf("a present strictly between placements: %v, a frame with a previous placement: %v; the test did not exercise interpolation", sawAlpha, sawPrev)
				}
				if pres.Presents() != len(rec.Frames) {
					t.Errorf("presents: got %d, want one per render (%d)", pres.Presents(), len(rec.Frames))
				}
				t.Logf("updates by kind %v, quiet %d, cosmetic runs %d (%v of %v simulated), frames %d",
					kinds, quiet, cosmetic, cosmeticTime, lastElapsed, len(rec.Frames))
			})
		})
	}
}
