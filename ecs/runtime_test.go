package ecs_test

import (
	"math"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// jumpClock is a manual clock whose waits return at once, having moved the
// clock to their target: a session runs as fast as the CPU allows while
// seeing exactly the times the test chose.
type jumpClock struct{ c *timing.ManualClock }

func (j jumpClock) Now() timing.Instant       { return j.c.Now() }
func (j jumpClock) NewWaiter() runtime.Waiter { return jumpWaiter(j) }

type jumpWaiter struct{ c *timing.ManualClock }

func (w jumpWaiter) WaitUntil(target timing.Instant) error {
	if target > w.c.Now() {
		w.c.Set(target)
	}
	return nil
}
func (w jumpWaiter) Wake() {}

// headless adapters: a window that never closes and a presenter that only
// counts.
type display struct{}

func (display) PollEvents() {}
func (display) State() runtime.WindowState {
	return runtime.WindowState{Window: runtime.Size{Width: 320, Height: 240}, Framebuffer: runtime.Size{Width: 320, Height: 240}, Focused: true}
}
func (display) Close() error { return nil }

type presenter struct{ presents int }

func (p *presenter) Init() error    { return nil }
func (p *presenter) Present() error { p.presents++; return nil }
func (p *presenter) Close() error   { return nil }

// slowRenderer makes some frames take real (manual) time to render, so the
// scheduler has to catch up and the frames land between steps.
type slowRenderer struct {
	*rendertest.Recorder
	clock *timing.ManualClock
	cost  func(frame int) time.Duration
	kept  []render2d.Frame
}

// Close keeps the recorded frames, which the recorder drops on Close.
func (r *slowRenderer) Close() error {
	r.kept = r.Frames
	return r.Recorder.Close()
}

func (r *slowRenderer) Render(f *render2d.Frame) error {
	r.clock.Advance(r.cost(len(r.Frames)))
	return r.Recorder.Render(f)
}

// TestAppUnderRuntime runs an ECS game through the real runtime loop,
// sequential mode, fixed 20 ms steps, on a manual clock, with frames that
// take 7 ms or, now and then, 45 ms (and once 300 ms) to render, under each
// recovery policy. Every recorded frame must show the mover exactly where
// interpolation puts it for that frame's simulated time and alpha, and
// cosmetic systems must run exactly on the ticks the policy allows.
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
		setup      func(*timing.Options)
		wantQuiet  bool // catch-up bursts mark ticks quiet
		wantCoarse bool // some loud ticks skip cosmetic work
	}{
		{"drop excess lag", func(o *timing.Options) { o.MaxFixedUpdates = 4 }, false, false},
		{"repay debt", repay, true, false},
		{"repay debt, coarse cosmetic", func(o *timing.Options) {
			repay(o)
			o.Debt.CoarseCosmetic = true
		}, true, true},
		{"repay debt, variable step", func(o *timing.Options) {
			repay(o)
			o.Debt.VariableStep = true
		}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := timing.NewManualClock(timing.Instant(time.Second))
			rec := &slowRenderer{Recorder: rendertest.NewRecorder(320, 240, 1024), clock: clock, cost: func(i int) time.Duration {
				switch {
				case i == 10:
					return 300 * time.Millisecond
				case i%9 == 4:
					return 45 * time.Millisecond
				}
				return 7 * time.Millisecond
			}}

			app := newApp(t, ecs.Options{Seed: 9})
			app.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Context) {
				spawnSprite(ctx.Commands, 0, 120, 0, speed{X: speedX}, red)
			}})
			app.AddSystem(ecs.Update, moveSystem())
			type seen struct {
				elapsed, last time.Duration
				alpha         float64
				fixed         bool
			}
			var prepared []seen
			app.AddSystem(ecs.Extract, ecs.System{Name: "note", Run: func(ctx *ecs.Context) {
				tm := ctx.Time
				prepared = append(prepared, seen{tm.Elapsed, tm.Delta, tm.Alpha, tm.Kind == timing.FixedUpdate})
				if len(prepared) == frames {
					ctx.RequestStop()
				}
			}})
			var kinds [timing.NumKinds]int
			wantCosmetic, quiet := 0, 0
			app.AddSystem(ecs.PostUpdate, ecs.System{Name: "kinds", Run: func(ctx *ecs.Context) {
				kinds[ctx.Time.Kind]++
				if ctx.Time.Cosmetic {
					wantCosmetic++
				}
				if ctx.Time.Quiet {
					quiet++
				}
				if ctx.Time.Tick > 20*frames { // a failsafe, so a broken loop cannot hang the test
					ctx.RequestStop()
				}
			}})
			cosmetic := 0
			var cosmeticTime time.Duration
			app.AddSystem(ecs.Update, ecs.System{Name: "sparkle", Cosmetic: true, Run: func(ctx *ecs.Context) {
				cosmetic++
				cosmeticTime += ctx.Delta()
			}})

			opts := runtime.DefaultOptions()
			opts.Timing.Mode = timing.FixedMode
			opts.Timing.FixedStep = 20 * time.Millisecond
			tt.setup(&opts.Timing)
			opts.Clock = jumpClock{clock}
			pres := &presenter{}
			rt, err := runtime.New(app, &runtime.Context{Display: display{}, Renderer: rec, Presenter: pres}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := rt.Run(); err != nil {
				t.Fatalf("Run: %v", err)
			}

			if len(rec.kept) != frames {
				t.Fatalf("recorded frames: got %d, want %d", len(rec.kept), frames)
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
			if total := prepared[len(prepared)-1].elapsed; cosmeticTime > total || (!tt.wantCoarse && cosmeticTime != total) {
				t.Errorf("simulated time seen by the cosmetic system: got %v of %v", cosmeticTime, total)
			}
			sawAlpha := false
			for i, f := range rec.kept {
				s := prepared[i]
				// The mover is at 50 * simulated time. After a fixed step the
				// frame shows it a fraction alpha of the way through that
				// step; after a merged catch-up step it shows the present.
				want := speedX * s.elapsed.Seconds()
				if s.fixed {
					want = speedX * (s.elapsed.Seconds() - (1-s.alpha)*s.last.Seconds())
				}
				if len(f.Passes) != 1 || len(f.Passes[0].Packets) != 1 {
					t.Fatalf("frame %d: got %d passes, want one pass with one packet", i, len(f.Passes))
				}
				got := f.Passes[0].Packets[0].Transform.Position.X
				if math.Abs(float64(got)-want) > 1e-3 {
					t.Errorf("frame %d (elapsed %v, alpha %.3f): drawn at x=%v, want %.4f", i, s.elapsed, s.alpha, got, want)
				}
				if s.alpha > 0 {
					sawAlpha = true
				}
			}
			if !sawAlpha {
				t.Error("no frame had a non-zero alpha; the test did not exercise interpolation")
			}
			if pres.presents != frames {
				t.Errorf("presents: got %d, want one per rendered frame (%d)", pres.presents, frames)
			}
			t.Logf("updates by kind %v, quiet %d, cosmetic runs %d (%v of %v simulated)",
				kinds, quiet, cosmetic, cosmeticTime, prepared[len(prepared)-1].elapsed)
		})
	}
}
