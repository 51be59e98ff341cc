package runtime_test

import (
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/inputtest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// stopAt stops the runtime after d of bubble time.
func stopAt(d time.Duration) func(g *fakeGame, plat *runtime.Platform) error {
	return func(g *fakeGame, plat *runtime.Platform) error {
		rt := g.rt
		go func() {
			spend(d)
			rt.Stop()
		}()
		return nil
	}
}

func TestSlowRendererSkipsPublication(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(runtime.Concurrent, nil)
		r.renderer.Cost = 50 * time.Millisecond
		r.game.onPlatform = stopAt(time.Second)
		rt, err := r.run()
		if err != nil {
			t.Fatal(err)
		}
		st := rt.Stats()
		// 1 s at 60 Hz: the simulation keeps its rate although each render
		// takes three update intervals.
		if st.Updates < 58 || st.Updates > 61 {
			t.Errorf("updates: got %d, want about 60", st.Updates)
		}
		if st.PublicationsSkipped == 0 {
			t.Errorf("publications skipped: got 0, want some (stats %+v)", st)
		}
		if st.FramesPresented < 18 || st.FramesPresented > 21 {
			t.Errorf("frames presented: got %d, want about 20", st.FramesPresented)
		}
		for i, rec := range r.game.records()[1:] {
			if rec.delta > 20*time.Millisecond {
				t.Errorf("tick %d delta %v: the simulation waited for a slot", i+1, rec.delta)
			}
		}
		seqs := r.sequences()
		for i := 1; i < len(seqs); i++ {
			if seqs[i] <= seqs[i-1] {
				t.Fatalf("rendered sequences %v: want strictly increasing (newest frame each time)", seqs)
			}
		}
	})
}

func TestSlowUpdateKeepsPlatformResponsive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(runtime.Concurrent, nil).withInput(inputtest.NewScript())
		r.game.updateCost = 50 * time.Millisecond
		r.game.onPlatform = stopAt(time.Second)
		rt, err := r.run()
		if err != nil {
			t.Fatal(err)
		}
		st := rt.Stats()
		// Polls keep their 4 ms spacing while every update takes 50 ms.
		if st.Polls < 240 {
			t.Errorf("polls: got %d, want about 250", st.Polls)
		}
		if st.Updates < 19 || st.Updates > 21 {
			t.Errorf("updates: got %d, want about 20", st.Updates)
		}
		if st.FramesPresented < st.FramesPrepared-1 {
			t.Errorf("presented %d of %d prepared frames: the platform fell behind a slow simulation", st.FramesPresented, st.FramesPrepared)
		}
	})
}

func TestSlowRendererSequential(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(runtime.Sequential, nil)
		r.renderer.Cost = 50 * time.Millisecond
		r.game.onPlatform = stopAt(time.Second)
		rt, err := r.run()
		if err != nil {
			t.Fatal(err)
		}
		st := rt.Stats()
		if st.PublicationsSkipped != 0 {
			t.Errorf("skipped publications: got %d, want 0 (one slot, recycled by each preparation)", st.PublicationsSkipped)
		}
		if st.Updates < 19 || st.Updates > 21 || st.FramesPresented != st.Updates {
			t.Errorf("updates %d, frames %d: want about 20 of each", st.Updates, st.FramesPresented)
		}
	})
}

func TestInputEdgesUnderRecoveryBatches(t *testing.T) {
	for _, delivery := range []input.Delivery{input.Backlog, input.Timestamped} {
		for _, mode := range modes {
			t.Run(mode.String()+"/"+delivery.String(), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					script := inputtest.NewScript()
					r := newRig(mode, nil).withInput(script)
					r.opts.Timing.Mode = timing.FixedMode
					r.opts.Timing.FixedStep = 20 * time.Millisecond
					r.opts.Timing.MaxFixedUpdates = 2
					r.opts.Timing.Recovery = timing.VariableCatchUp
					r.opts.Timing.RecoveryPrefix = 2
					r.opts.Timing.RecoveryCap = 100 * time.Millisecond
					r.opts.Polling.Delivery = delivery
					r.game.watch = input.KeySpace
					r.game.stopAfter = 20
					r.game.onUpdate = func(g *fakeGame, tick *runtime.TickContext) {
						if g.updates.Load() != 5 {
							return
						}
						now := r.clock.Now()
						for _, at := range []time.Duration{100, 200, 300} {
							script.Tap(now+timing.Instant(at*time.Millisecond), input.KeySpace, 30*time.Millisecond)
						}
						spend(500 * time.Millisecond) // a stall inside the update
					}
					rt, err := r.run()
					if err != nil {
						t.Fatal(err)
					}
					recs := r.game.records()
					presses, releases := 0, 0
					var dropped time.Duration
					catchUp := -1
					for i, rec := range recs {
						presses += rec.presses
						releases += rec.releases
						dropped += rec.dropped
						if rec.dropped != 0 && !rec.final {
							t.Errorf("tick %d drops %v but is not the final update of its batch", i, rec.dropped)
						}
						if rec.kind == timing.CatchUpUpdate && catchUp < 0 {
							catchUp = i
						}
					}
					if presses != 3 || releases != 3 {
						t.Errorf("presses %d releases %d over all ticks: want each tap exactly once (3 and 3)", presses, releases)
					}
					if catchUp != 7 {
						t.Fatalf("first catch-up update at tick %d, want 7 (two fixed steps after the stalled tick 4); ticks %+v", catchUp, recs[:9])
					}
					// Seed 000: 20 ms steps, prefix 2, cap 100 ms after a
					// 500 ms stall: 40 ms of fixed steps, one 100 ms update,
					// the rest dropped on that final update.
					for i, want := range []time.Duration{20 * time.Millisecond, 20 * time.Millisecond, 100 * time.Millisecond} {
						if got := recs[5+i].delta; got != want {
							t.Errorf("recovery tick %d delta: got %v, want %v", 5+i, got, want)
						}
					}
					if !recs[7].final || recs[7].dropped < 360*time.Millisecond {
						t.Errorf("catch-up update: final %v dropped %v, want final with at least 360ms dropped", recs[7].final, recs[7].dropped)
					}
					if delivery == input.Backlog {
						if recs[5].presses != 3 || recs[6].presses != 0 || recs[7].presses != 0 {
							t.Errorf("backlog presses in the recovery batch: got %d %d %d, want 3 0 0",
								recs[5].presses, recs[6].presses, recs[7].presses)
						}
					}
					if want := rt.TimingStats().Dropped; dropped != want {
						t.Errorf("sum of dropped over ticks %v, scheduler total %v: want equal", dropped, want)
					}
				})
			})
		}
	}
}

func TestMaintenanceWakesConsumeNothing(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				script := inputtest.NewScript()
				r := newRig(mode, nil).withInput(script)
				r.opts.Timing.Mode = timing.FixedMode
				r.opts.Timing.FixedStep = 100 * time.Millisecond
				r.opts.Polling.Spacing = 0
				r.game.watch = input.KeySpace
				r.game.stopAfter = 10
				start := r.clock.Now()
				for _, at := range []time.Duration{150, 450, 850} {
					script.Tap(start+timing.Instant(at*time.Millisecond), input.KeySpace, 20*time.Millisecond)
				}
				rt, err := r.run()
				if err != nil {
					t.Fatal(err)
				}
				recs := r.game.records()
				presses := 0
				var observed time.Duration
				for i, rec := range recs {
					if rec.delta != 100*time.Millisecond || rec.kind != timing.FixedUpdate {
						t.Errorf("tick %d: %v %v, want fixed 100ms", i, rec.kind, rec.delta)
					}
					presses += rec.presses
					observed += rec.observed
				}
				if presses != 3 {
					t.Errorf("presses: got %d, want 3", presses)
				}
				if observed < 990*time.Millisecond || observed > time.Second {
					t.Errorf("observed input time over ten 100 ms updates: got %v, want about 1s", observed)
				}
				if mode == runtime.Sequential {
					if w := rt.Stats().MaintenanceWakes; w < 50 {
						t.Errorf("maintenance wakes: got %d, want about 90 (10 ms apart between 100 ms updates)", w)
					}
				}
				if c := rt.Stats().Cycles; c < 90 {
					t.Errorf("platform cycles: got %d, want about 100", c)
				}
			})
		})
	}
}

func TestHiddenWindowSlowsToHiddenRate(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(mode, nil)
				r.setHidden(true)
				r.opts.Polling.Spacing = 0
				r.game.onPlatform = func(g *fakeGame, plat *runtime.Platform) error {
					rt := g.rt
					go func() {
						spend(time.Second)
						r.setHidden(false)
						spend(time.Second)
						rt.Stop()
					}()
					return nil
				}
				var hiddenStats runtime.Stats
				r.game.onUpdate = func(g *fakeGame, tick *runtime.TickContext) {
					// Stay clear of the instant the window shows: goroutines
					// woken at the same fake instant run in any order.
					if r.clock.Now() < r.clock.At(950*time.Millisecond) {
						hiddenStats = g.rt.Stats()
						hiddenStats.Updates = uint64(g.updates.Load()) // this one included
					}
				}
				rt, err := r.run()
				if err != nil {
					t.Fatal(err)
				}
				if hiddenStats.Updates < 9 || hiddenStats.Updates > 10 || hiddenStats.FramesPresented != 0 {
					t.Errorf("first 950 ms hidden: %d updates, %d frames presented; want 9 or 10 and 0", hiddenStats.Updates, hiddenStats.FramesPresented)
				}
				if mode == runtime.Sequential && (hiddenStats.Cycles < 9 || hiddenStats.Cycles > 11) {
					t.Errorf("first 950 ms hidden: %d platform cycles, want about 10", hiddenStats.Cycles)
				}
				st := rt.Stats()
				if visible := st.Updates - hiddenStats.Updates; visible < 55 || visible > 62 {
					t.Errorf("visible second: %d updates, want about 60", visible)
				}
				// Visibility is noticed at the next poll, up to one hidden
				// interval (100 ms, six frames) after the window shows.
				if st.FramesPresented < 52 || st.FramesPresented > 61 {
					t.Errorf("frames presented once visible: got %d, want 54 to 60", st.FramesPresented)
				}
			})
		})
	}
}

func TestFrameCapPacesPresentation(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(mode, nil)
				r.opts.FrameCap = 50 * time.Millisecond
				r.opts.FollowPresentation = false // variable timing at its own 1/60 s interval
				r.game.onPlatform = stopAt(time.Second)
				rt, err := r.run()
				if err != nil {
					t.Fatal(err)
				}
				st := rt.Stats()
				if st.FramesPresented < 19 || st.FramesPresented > 21 {
					t.Errorf("frames presented at a 50 ms cap: got %d, want about 20", st.FramesPresented)
				}
				if st.Updates < 58 {
					t.Errorf("updates: got %d, want about 60 (the cap limits frames, not updates)", st.Updates)
				}
				tel := rt.Telemetry()
				if tel.Frames != st.FramesPresented {
					t.Errorf("telemetry frames %d, presented %d: want equal", tel.Frames, st.FramesPresented)
				}
				if tel.PaceWaited+tel.PaceLate == 0 || tel.PacingInterval != 50*time.Millisecond {
					t.Errorf("telemetry pacing: %+v, want paced frames at 50ms", tel)
				}
				// The scheduler counts every update it handed out; a stop
				// ends the last batch early.
				ts := rt.TimingStats()
				if ticks := ts.Ticks[0] + ts.Ticks[1] + ts.Ticks[2]; ticks < st.Updates || ticks > st.Updates+3 {
					t.Errorf("scheduler ticks %d, updates %d", ticks, st.Updates)
				}
			})
		})
	}
}

func TestSetTimingOptionsWhileRunning(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(mode, nil)
				r.game.stopAfter = 20
				var setErr, badErr error
				r.game.onUpdate = func(g *fakeGame, tick *runtime.TickContext) {
					if g.updates.Load() != 10 {
						return
					}
					bad := timing.DefaultOptions()
					bad.FixedStep = 0
					badErr = g.rt.SetTimingOptions(bad)
					o := timing.DefaultOptions()
					o.Mode = timing.FixedMode
					o.FixedStep = 50 * time.Millisecond
					setErr = g.rt.SetTimingOptions(o)
				}
				rt, err := r.run()
				if err != nil {
					t.Fatal(err)
				}
				if setErr != nil || badErr == nil {
					t.Fatalf("SetTimingOptions: valid %v, invalid %v; want nil and an error", setErr, badErr)
				}
				for i, rec := range r.game.records() {
					switch {
					case i < 10 && rec.kind != timing.VariableUpdate:
						t.Errorf("tick %d: %v, want variable before the change", i, rec.kind)
					case i >= 10 && (rec.kind != timing.FixedUpdate || rec.delta != 50*time.Millisecond):
						t.Errorf("tick %d: %v %v, want fixed 50ms after the change", i, rec.kind, rec.delta)
					}
				}
				if got := rt.TimingOptions().FixedStep; got != 50*time.Millisecond {
					t.Errorf("TimingOptions().FixedStep: got %v, want 50ms", got)
				}
			})
		})
	}
}

func TestReportEncodes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(runtime.Concurrent, nil)
		r.game.stopAfter = 30
		plat := runtime.PlatformReport{Device: "SwiftShader", DrawPath: "batched", ClockResolution: 100 * time.Microsecond}
		r.ctx.Platform = plat
		rt, err := r.run()
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(rt.Report())
		if err != nil {
			t.Fatalf("encoding the report: %v", err)
		}
		var back struct {
			Mode    string `json:"mode"`
			State   string `json:"state"`
			Runtime struct {
				Updates uint64 `json:"updates"`
			} `json:"runtime"`
			Telemetry struct {
				Frames uint64 `json:"frames"`
			} `json:"telemetry"`
			Platform struct {
				Device     string `json:"device"`
				DrawPath   string `json:"draw_path"`
				Resolution int64  `json:"clock_resolution_ns"`
			} `json:"platform"`
		}
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if back.Mode != "concurrent" || back.State != "stopped" || back.Runtime.Updates != 30 || back.Telemetry.Frames == 0 {
			t.Errorf("decoded report %+v", back)
		}
		if p := back.Platform; p.Device != plat.Device || p.DrawPath != plat.DrawPath || p.Resolution != int64(plat.ClockResolution) {
			t.Errorf("decoded platform section %+v, want the adapters' %+v", p, plat)
		}
	})
}

// TestThroughput runs a game whose update takes 6 ms and whose render takes
// 10 ms, unpaced, for one second of bubble time: sequential mode presents a
// frame per 16 ms (the sum), concurrent mode one per 10 ms (the slower).
func TestThroughput(t *testing.T) {
	const update, render = 6 * time.Millisecond, 10 * time.Millisecond
	tests := []struct {
		mode   runtime.Mode
		period time.Duration
	}{
		{runtime.Sequential, update + render},
		{runtime.Concurrent, max(update, render)},
	}
	for _, tc := range tests {
		t.Run(tc.mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(tc.mode, nil)
				r.opts.Timing.Interval = 0 // unpaced: as fast as the costs allow
				r.game.updateCost = update
				r.renderer.Cost = render
				r.game.onPlatform = stopAt(time.Second)
				rt, err := r.run()
				if err != nil {
					t.Fatal(err)
				}
				frames := rt.Stats().FramesPresented
				want := uint64(time.Second / tc.period)
				if frames < want*9/10 || frames > want*11/10 {
					t.Errorf("frames in 1s: got %d, want about %d (one per %v)", frames, want, tc.period)
				}
				t.Logf("%v: %d frames/s, %d updates/s", tc.mode, frames, rt.Stats().Updates)
			})
		})
	}
}

func TestServices(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(mode, nil)
				r.game.stopAfter = 10
				var mu sync.Mutex
				maint, pre, preAtUpdate := 0, 0, []int64{}
				var preHandle *runtime.ServiceAttachment
				r.game.onPlatform = func(g *fakeGame, plat *runtime.Platform) error {
					rt := g.rt
					if _, err := rt.Services().Attach(runtime.ServicePhase(9), func(timing.Instant) error { return nil }); err == nil {
						t.Error("Attach with an unknown phase: got nil, want an error")
					}
					_, err := rt.Services().Attach(runtime.Maintenance, func(timing.Instant) error {
						mu.Lock()
						maint++
						mu.Unlock()
						return nil
					})
					return err
				}
				r.game.onSim = func(g *fakeGame, sim *runtime.Simulation) error {
					rt := g.rt
					var err error
					preHandle, err = rt.Services().Attach(runtime.PreUpdate, func(timing.Instant) error {
						pre++
						preAtUpdate = append(preAtUpdate, g.updates.Load())
						if pre == 5 {
							preHandle.Detach()
							preHandle.Detach()
						}
						return nil
					})
					return err
				}
				rt, err := r.run()
				if err != nil {
					t.Fatal(err)
				}
				if pre != 5 || preHandle.Attached() {
					t.Errorf("pre-update runs: got %d (attached %v), want 5 then detached", pre, preHandle.Attached())
				}
				for i, n := range preAtUpdate {
					if n != int64(i) {
						t.Errorf("pre-update run %d saw %d updates done, want %d (it runs before each update)", i, n, i)
					}
				}
				mu.Lock()
				defer mu.Unlock()
				if c := rt.Stats().Cycles; uint64(maint) != c {
					t.Errorf("maintenance runs: got %d, want one per cycle (%d)", maint, c)
				}
			})
		})
	}
}

func TestServiceFailureStopsSession(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(runtime.Concurrent, nil)
		r.game.onSim = func(g *fakeGame, sim *runtime.Simulation) error {
			rt := g.rt
			_, err := rt.Services().Attach(runtime.PreUpdate, func(timing.Instant) error {
				if g.updates.Load() == 3 {
					return errInjected
				}
				return nil
			})
			return err
		}
		_, err := r.run()
		var pe *runtime.PhaseError
		if !errors.As(err, &pe) || pe.Phase != runtime.PhaseService || !errors.Is(err, errInjected) {
			t.Fatalf("Run: got %v, want the service failure", err)
		}
		if n := r.game.updates.Load(); n != 3 {
			t.Errorf("updates: got %d, want 3", n)
		}
	})
}

func TestResizeRedrawsCurrentFrame(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(mode, nil)
				r.opts.Timing.Mode = timing.FixedMode
				r.opts.Timing.FixedStep = 100 * time.Millisecond
				r.game.onPlatform = func(g *fakeGame, plat *runtime.Platform) error {
					rt := g.rt
					go func() {
						spend(150 * time.Millisecond) // between two updates
						r.display.Set(func(s *runtime.WindowState) { s.Framebuffer = input.Size{Width: 800, Height: 600} })
						spend(40 * time.Millisecond)
						rt.Stop()
					}()
					return nil
				}
				if _, err := r.run(); err != nil {
					t.Fatal(err)
				}
				sizes := r.renderer.FramebufferSizes()
				fb := [2]int{sizes[len(sizes)-1].Width, sizes[len(sizes)-1].Height}
				if fb != [2]int{800, 600} {
					t.Errorf("renderer framebuffer size: got %v, want [800 600]", fb)
				}
				// One update at 100 ms, drawn once when published and again
				// at the new size; no update between the resize and the stop.
				if got, want := r.sequences(), []uint64{1, 1}; !slices.Equal(got, want) {
					t.Errorf("rendered sequences: got %v, want %v", got, want)
				}
			})
		})
	}
}
