package runtime_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/input/inputtest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/runtime/work"
	"github.com/metronome-go/metronome/timing"
)

var modes = []runtime.Mode{runtime.Sequential, runtime.Concurrent}

var (
	initEvents    = []string{"input.Init", "presenter.Init", "InitPlatform", "InitSimulation"}
	cleanupEvents = []string{"DeinitSimulation", "Quiesce", "DeinitPlatform", "input.Close", "renderer.Close", "presenter.Close", "display.Close"}
)

func TestHookOrder(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(mode, nil).withInput(inputtest.NewScript())
				r.game.stopAfter = 10
				_, err := r.run()
				if err != nil {
					t.Fatalf("Run: got %v, want nil", err)
				}
				events := r.j.list()
				got := without(events, loopEvents...)
				want := slices.Concat(initEvents, cleanupEvents)
				if !slices.Equal(got, want) {
					t.Errorf("hooks outside the loop:\ngot  %v\nwant %v", got, want)
				}
				if n := r.game.updates.Load(); n != 10 {
					t.Errorf("updates: got %d, want 10", n)
				}
				loop := without(events, append(slices.Clone(initEvents), append(cleanupEvents, "PollEvents")...)...)
				switch mode {
				case runtime.Sequential:
					// Variable updates run one per batch, each followed by
					// its frame, rendered and presented on the same thread;
					// the stopping update still presents its frame.
					want := strings.Repeat("Update PrepareFrame Render Present ", 10)
					if got := strings.Join(loop, " ") + " "; got != want {
						t.Errorf("sequential loop:\ngot  %s\nwant %s", got, want)
					}
				case runtime.Concurrent:
					seqs := r.sequences()
					if len(seqs) == 0 || !slices.IsSorted(seqs) {
						t.Errorf("rendered frame sequences %v: want a non-empty increasing list", seqs)
					}
					for i := 1; i < len(seqs); i++ {
						if seqs[i] <= seqs[i-1] {
							t.Errorf("frame %d rendered after frame %d: want each frame rendered once, newest first", seqs[i], seqs[i-1])
						}
					}
					if i, j := slices.Index(loop, "PrepareFrame"), slices.Index(loop, "Render"); i < 0 || j < i {
						t.Errorf("first PrepareFrame at %d, first Render at %d: want a frame prepared before any render", i, j)
					}
				}
			})
		})
	}
}

// hookFailures lists each game hook with the phase its failure reports and
// the cleanup that must follow it.
var hookFailures = []struct {
	hook    string
	phase   runtime.Phase
	updates bool     // the loop runs before the failure
	cleanup []string // events after the failing hook, in order
}{
	{"InitPlatform", runtime.PhaseInitPlatform, false, []string{"Quiesce", "DeinitPlatform", "input.Close", "renderer.Close", "presenter.Close", "display.Close"}},
	{"InitSimulation", runtime.PhaseInitSimulation, false, cleanupEvents},
	{"Update", runtime.PhaseUpdate, true, cleanupEvents},
	{"PrepareFrame", runtime.PhasePrepareFrame, true, cleanupEvents},
	{"DeinitSimulation", runtime.PhaseDeinitSimulation, true, cleanupEvents[1:]},
	{"Quiesce", runtime.PhaseQuiesce, true, cleanupEvents[2:]},
	{"DeinitPlatform", runtime.PhaseDeinitPlatform, true, cleanupEvents[3:]},
}

func TestFailureInEveryHook(t *testing.T) {
	for _, mode := range modes {
		for _, tc := range hookFailures {
			for _, panics := range []bool{false, true} {
				name := mode.String() + "/" + tc.hook + "/error"
				if panics {
					name = mode.String() + "/" + tc.hook + "/panic"
				}
				t.Run(name, func(t *testing.T) {
					synctest.Test(t, func(t *testing.T) {
						r := newRig(mode, faults{tc.hook: {err: errInjected, panics: panics}}).withInput(inputtest.NewScript())
						r.game.stopAfter = 3
						rt, err := r.run()
						if !errors.Is(err, errInjected) {
							t.Fatalf("Run: got %v, want the injected error", err)
						}
						var pe *runtime.PhaseError
						if !errors.As(err, &pe) || pe.Phase != tc.phase {
							t.Fatalf("Run: got %v, want a PhaseError in phase %q", err, tc.phase)
						}
						var pan *work.PanicError
						if got := errors.As(err, &pan); got != panics {
							t.Errorf("error %v is a PanicError: got %v, want %v", err, got, panics)
						}
						events := r.j.list()
						idx := slices.Index(events, tc.hook)
						if tc.hook == "Update" || tc.hook == "PrepareFrame" {
							idx = lastIndex(events, tc.hook)
						}
						tail := without(events[idx+1:], loopEvents...)
						if !slices.Equal(tail, tc.cleanup) {
							t.Errorf("after the failing %s:\ngot  %v\nwant %v", tc.hook, tail, tc.cleanup)
						}
						if ran := r.game.updates.Load() > 0; ran != tc.updates {
							t.Errorf("updates ran: got %v, want %v", ran, tc.updates)
						}
						state := rt.Lifecycle().State()
						outcome, _ := rt.Lifecycle().Outcome()
						if state != runtime.StateFailed || !errors.Is(outcome, errInjected) {
							t.Errorf("lifecycle: got %v %v, want failed with the injected error", state, outcome)
						}
					})
				})
			}
		}
	}
}

func lastIndex(s []string, v string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == v {
			return i
		}
	}
	return -1
}

func TestAdapterFailures(t *testing.T) {
	tests := []struct {
		fault string
		phase runtime.Phase
	}{
		{"input.Init", runtime.PhaseInitInput},
		{"presenter.Init", runtime.PhaseInitGraphics},
		{"Render", runtime.PhaseRender},
		{"Present", runtime.PhasePresent},
		{"input.Close", runtime.PhaseCloseInput},
		{"renderer.Close", runtime.PhaseCloseGraphics},
		{"display.Close", runtime.PhaseCloseGraphics},
	}
	for _, mode := range modes {
		for _, tc := range tests {
			t.Run(mode.String()+"/"+tc.fault, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					r := newRig(mode, faults{tc.fault: {err: errInjected}}).withInput(inputtest.NewScript())
					r.game.stopAfter = 3
					_, err := r.run()
					var pe *runtime.PhaseError
					if !errors.As(err, &pe) || pe.Phase != tc.phase || !errors.Is(err, errInjected) {
						t.Fatalf("Run: got %v, want the injected error in phase %q", err, tc.phase)
					}
					// Every adapter is closed whatever failed.
					events := r.j.list()
					for _, e := range []string{"input.Close", "renderer.Close", "presenter.Close", "display.Close"} {
						if !slices.Contains(events, e) {
							t.Errorf("events %v: missing %s", without(events, loopEvents...), e)
						}
					}
				})
			})
		}
	}
}

func TestFirstFailureKeptLaterJoined(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		errQuiesce := errors.New("quiesce failed")
		r := newRig(runtime.Sequential, faults{
			"Update":         {err: errInjected},
			"Quiesce":        {err: errQuiesce},
			"DeinitPlatform": {err: errInjected, panics: true},
		})
		_, err := r.run()
		multi, ok := err.(interface{ Unwrap() []error })
		if !ok {
			t.Fatalf("Run: got %v (%T), want a joined error", err, err)
		}
		var phases []runtime.Phase
		for _, e := range multi.Unwrap() {
			var pe *runtime.PhaseError
			if !errors.As(e, &pe) {
				t.Fatalf("joined error %v is not a PhaseError", e)
			}
			phases = append(phases, pe.Phase)
		}
		want := []runtime.Phase{runtime.PhaseUpdate, runtime.PhaseQuiesce, runtime.PhaseDeinitPlatform}
		if !slices.Equal(phases, want) {
			t.Errorf("phases: got %v, want %v", phases, want)
		}
		if !errors.Is(err, errQuiesce) {
			t.Errorf("Run: got %v, want it to wrap the quiesce failure", err)
		}
		if !strings.HasPrefix(err.Error(), "runtime: update: injected") {
			t.Errorf("message: got %q, want the first failure first", err.Error())
		}
	})
}

func TestStop(t *testing.T) {
	tests := []struct {
		name        string
		setup       func(r *rig)
		wantUpdates func(n int64) bool
		wantSim     bool // InitSimulation and DeinitSimulation ran
	}{
		{
			name:        "from update",
			setup:       func(r *rig) { r.game.stopAfter = 5 },
			wantUpdates: func(n int64) bool { return n == 5 },
			wantSim:     true,
		},
		{
			name: "repeated from update",
			setup: func(r *rig) {
				r.game.onUpdate = func(g *fakeGame, tick *runtime.TickContext) {
					if g.updates.Load() >= 2 {
						_ = tick.RequestStop()
						_ = tick.RequestStop()
						g.rt.Stop()
					}
				}
			},
			wantUpdates: func(n int64) bool { return n == 2 },
			wantSim:     true,
		},
		{
			name: "from another goroutine",
			setup: func(r *rig) {
				r.game.onPlatform = func(g *fakeGame, plat *runtime.Platform) error {
					rt := g.rt
					go func() {
						spend(500 * time.Millisecond)
						rt.Stop()
						rt.Stop()
					}()
					return nil
				}
			},
			// 500 ms at 60 Hz is 30 updates.
			wantUpdates: func(n int64) bool { return n >= 28 && n <= 31 },
			wantSim:     true,
		},
		{
			name: "during platform init",
			setup: func(r *rig) {
				r.game.onPlatform = func(g *fakeGame, plat *runtime.Platform) error { g.rt.Stop(); return nil }
			},
			wantUpdates: func(n int64) bool { return n == 0 },
			wantSim:     false,
		},
		{
			name: "during simulation init",
			setup: func(r *rig) {
				r.game.onSim = func(g *fakeGame, sim *runtime.Simulation) error { g.rt.Stop(); return nil }
			},
			wantUpdates: func(n int64) bool { return n == 0 },
			wantSim:     true,
		},
		{
			name:        "window close",
			setup:       func(r *rig) { r.display.CloseAfterPolls(20) },
			wantUpdates: func(n int64) bool { return n > 0 },
			wantSim:     true,
		},
	}
	for _, mode := range modes {
		for _, tc := range tests {
			t.Run(mode.String()+"/"+tc.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					r := newRig(mode, nil)
					tc.setup(r)
					rt, err := r.run()
					if err != nil {
						t.Fatalf("Run: got %v, want nil", err)
					}
					if n := r.game.updates.Load(); !tc.wantUpdates(n) {
						t.Errorf("updates: got %d", n)
					}
					events := r.j.list()
					for _, e := range []string{"InitSimulation", "DeinitSimulation"} {
						if got := slices.Contains(events, e); got != tc.wantSim {
							t.Errorf("%s ran: got %v, want %v", e, got, tc.wantSim)
						}
					}
					for _, e := range []string{"Quiesce", "DeinitPlatform", "display.Close"} {
						if !slices.Contains(events, e) {
							t.Errorf("%s did not run", e)
						}
					}
					if got := rt.Lifecycle().State(); got != runtime.StateStopped {
						t.Errorf("state: got %v, want stopped", got)
					}
				})
			})
		}
	}
}

func TestSecondRunAndContextReuse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(runtime.Sequential, nil)
		r.game.stopAfter = 1
		rt, err := r.run()
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		if err := rt.Run(); !errors.Is(err, runtime.ErrAlreadyRun) {
			t.Errorf("second Run: got %v, want ErrAlreadyRun", err)
		}
		if _, err := runtime.New(r.game, r.ctx, r.opts); !errors.Is(err, runtime.ErrAdaptersUsed) {
			t.Errorf("New on a used context: got %v, want ErrAdaptersUsed", err)
		}
		if err := r.ctx.Close(); !errors.Is(err, runtime.ErrAdaptersUsed) {
			t.Errorf("Close on a used context: got %v, want ErrAdaptersUsed", err)
		}
	})
}

func TestNewReportsEveryProblem(t *testing.T) {
	opts := runtime.DefaultOptions()
	opts.Mode = 7
	opts.FrameCap = -time.Millisecond
	opts.Maintenance = 0
	opts.Timing.Interval = -1
	_, err := runtime.New(nil, &runtime.Adapters{}, opts)
	if err == nil {
		t.Fatal("New: got nil, want errors")
	}
	for _, want := range []string{
		"game is nil", "Adapters.Display", "Adapters.Presenter", "Adapters.Renderer",
		"Options.Mode 7", "Options.FrameCap -1ms", "Options.Maintenance 0s", "Interval",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("New error %q: missing %q", err, want)
		}
	}
	// Timestamped delivery needs fixed steps.
	opts = runtime.DefaultOptions()
	opts.Polling.Delivery = 1
	if _, err := runtime.New(&fakeGame{}, &runtime.Adapters{Display: runtimetest.NewDisplay(timing.NewManualClock(0)), Presenter: runtimetest.NewPresenter(timing.NewManualClock(0)), Renderer: runtimetest.NewRenderer(timing.NewManualClock(0))}, opts); err == nil {
		t.Error("New with timestamped delivery and variable steps: got nil, want an error")
	}
}

func TestUnusedContextClose(t *testing.T) {
	r := newRig(runtime.Sequential, nil).withInput(inputtest.NewScript())
	j, ctx := r.j, r.ctx
	if err := ctx.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	want := []string{"input.Close", "renderer.Close", "presenter.Close", "display.Close"}
	if got := j.list(); !slices.Equal(got, want) {
		t.Errorf("close order: got %v, want %v", got, want)
	}
	if err := ctx.Close(); !errors.Is(err, runtime.ErrAdaptersUsed) {
		t.Errorf("second Close: got %v, want ErrAdaptersUsed", err)
	}
}

func TestLifecycleObservedFromAnotherGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(runtime.Concurrent, nil)
		r.game.stopAfter = 30
		rt, err := r.build()
		if err != nil {
			t.Fatal(err)
		}
		life := rt.Lifecycle()
		if got := life.State(); got != runtime.StateCreated {
			t.Errorf("before Run: got %v, want created", got)
		}
		seen := make(chan []runtime.State)
		go func() {
			var states []runtime.State
			for {
				s := life.State()
				if len(states) == 0 || states[len(states)-1] != s {
					states = append(states, s)
				}
				if s.Terminal() {
					break
				}
				spend(time.Millisecond)
			}
			<-life.Done()
			seen <- states
		}()
		runErr := rt.Run()
		states := <-seen
		if runErr != nil {
			t.Fatalf("Run: %v", runErr)
		}
		if !slices.Contains(states, runtime.StateRunning) || states[len(states)-1] != runtime.StateStopped {
			t.Errorf("observed states %v: want running then stopped", states)
		}
		if err, done := life.Outcome(); !done || err != nil {
			t.Errorf("Outcome: got %v %v, want nil true", err, done)
		}
	})
}

func TestTimingStartsAfterInit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(runtime.Sequential, nil)
		r.opts.Timing.Mode = timing.FixedMode
		r.game.onSim = func(g *fakeGame, sim *runtime.Simulation) error {
			spend(time.Second) // a slow init is not lag
			return nil
		}
		r.game.stopAfter = 3
		if _, err := r.run(); err != nil {
			t.Fatal(err)
		}
		for i, rec := range r.game.records() {
			if rec.kind != timing.FixedUpdate || rec.delta != timing.DefaultInterval || rec.dropped != 0 {
				t.Errorf("tick %d: got %v %v dropped %v, want a fixed step with nothing dropped", i, rec.kind, rec.delta, rec.dropped)
			}
		}
	})
}

// TestStopWakesWaits stops a session whose every wait is a second long:
// the stop must end the waits at once, not at their deadlines.
func TestStopWakesWaits(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(mode, nil)
				r.opts.Timing.Mode = timing.FixedMode
				r.opts.Timing.FixedStep = time.Second
				r.opts.Maintenance = time.Second
				r.opts.Polling.Spacing = time.Second
				r.game.onPlatform = stopAt(100 * time.Millisecond)
				start := r.clock.Now()
				if _, err := r.run(); err != nil {
					t.Fatal(err)
				}
				if got := time.Duration(r.clock.Now() - start); got != 100*time.Millisecond {
					t.Errorf("Run returned %v after start, want 100ms (when Stop was called)", got)
				}
			})
		})
	}
}
