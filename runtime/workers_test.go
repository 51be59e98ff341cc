package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/option"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/runtime/work"
)

func TestExecutionOptionsValidate(t *testing.T) {
	pool, err := work.NewPool(2)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	tests := []struct {
		name string
		exec work.Options
		want []string // fields named in the error; none for a valid value
	}{
		{"defaults", work.Options{}, nil},
		{"capacity", work.Options{Workers: 8, SettleTimeout: time.Second}, nil},
		{"pool", work.Options{Pool: pool}, nil},
		{"negative workers", work.Options{Workers: -1}, []string{"work: Options.Workers -1 is out of range; allowed: 0 (GOMAXPROCS) to 1024"}},
		{"too many workers", work.Options{Workers: work.MaxWorkers + 1}, []string{"work: Options.Workers 1025 is out of range"}},
		{"workers and pool", work.Options{Workers: 2, Pool: pool}, []string{"work: Options.Workers 2 is set together with Options.Pool; allowed: 0 when a pool is supplied"}},
		{"both wrong", work.Options{Workers: -3, SettleTimeout: 2 * time.Minute}, []string{"work: Options.Workers -3", "work: Options.SettleTimeout 2m0s is out of range; allowed: 0 (no limit) to 1m0s"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := runtime.DefaultOptions()
			o.Execution = tc.exec
			err := o.Validate()
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("Validate: got %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate: got nil, want errors naming %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Validate: got %q, want it to contain %q", err, w)
				}
			}
			var fe *option.Error
			if !errors.As(err, &fe) {
				t.Errorf("Validate: got %T, want an *option.Error inside", err)
			}
		})
	}
	if _, err := work.NewPool(-1); err == nil || !strings.Contains(err.Error(), "workers -1 is out of range") {
		t.Errorf("NewWorkerPool(-1): got %v, want an out-of-range error", err)
	}
}

// TestGoDeliversOnTheSimulation: Go's result reaches the simulation
// through the mailbox, before an update, and a panic reaches deliver as a
// PanicError without failing the session; GoPlatform's upload runs on the
// platform and completes its future.
func TestGoDeliversOnTheSimulation(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(mode, nil)
				var g *work.Group
				var results, uploads []string // simulation owner only: the race detector checks it
				r.game.onSim = func(fg *fakeGame, sim *runtime.Simulation) error {
					g = sim.Workers.Group("level")
					if err := work.Go(g, func(ctx context.Context) (int, error) {
						time.Sleep(30 * time.Millisecond) // a decode of 30 ms
						return 42, nil
					}, func(v int, err error) {
						results = append(results, fmt.Sprint(v, err))
						r.j.add("deliver")
					}); err != nil {
						return err
					}
					return work.GoPlatform(g, func(context.Context) ([]byte, error) {
						return []byte("pixels"), nil
					}, func(b []byte) (string, error) {
						r.j.add("upload")
						return "texture of " + string(b), nil
					}, func(tex string, err error) {
						uploads = append(uploads, fmt.Sprint(tex, " ", err))
					})
				}
				r.game.onUpdate = func(fg *fakeGame, tick *runtime.TickContext) {
					switch fg.updates.Load() {
					case 10:
						doomed := fg.sim.Workers.Group("doomed")
						_ = work.Go(doomed, func(context.Context) (int, error) { panic("bad level") },
							func(v int, err error) {
								var pe *work.PanicError
								results = append(results, fmt.Sprint(v, errors.As(err, &pe) && pe.Value == "bad level"))
							})
						_ = work.GoPlatform(g, func(context.Context) (string, error) {
							return "", errors.New("no such file")
						}, func(s string) (string, error) {
							r.j.add("upload after an error")
							return s, nil
						}, func(s string, err error) {
							uploads = append(uploads, fmt.Sprintf("%q %v", s, err))
						})
					case 12:
						_ = work.GoPlatform(g, func(context.Context) (int, error) { return 1, nil },
							func(int) (int, error) { panic("GL error") },
							func(_ int, err error) {
								var pe *work.PanicError
								uploads = append(uploads, fmt.Sprint("upload panic ", errors.As(err, &pe) && pe.Value == "GL error"))
							})
					case 20:
						_ = tick.RequestStop()
					}
				}
				rt, err := r.run()
				if err != nil {
					t.Fatalf("Run: got %v, want nil (a panicking job fails its group, not the session)", err)
				}
				if want := []string{"42 <nil>", "0 true"}; !slices.Equal(results, want) {
					t.Errorf("delivered: got %v, want %v", results, want)
				}
				if want := []string{"texture of pixels <nil>", `"" no such file`, "upload panic true"}; !slices.Equal(uploads, want) {
					t.Errorf("GoPlatform delivered: got %q, want %q", uploads, want)
				}
				if err := g.Err(); err != nil {
					t.Errorf("group Err: got %v, want nil (the panic was in another group)", err)
				}
				ev := without(r.j.list(), "PollEvents", "Render", "Present")
				if slices.Contains(ev, "upload after an error") {
					t.Error("upload ran for a job that failed")
				}
				// The 30 ms decode lands between two updates: the mailbox
				// drain before an update runs it.
				i := slices.Index(ev, "deliver")
				if i <= 0 || i+1 >= len(ev) || ev[i+1] != "Update" {
					t.Errorf("deliver at %d in %v: want it right before an update", i, ev)
				}
				if rt.Stats().Dispatched == 0 {
					t.Error("no dispatcher work ran: the upload must run on the platform")
				}
			})
		})
	}
}

// TestNoSession: Go and GoPlatform need a session's group.
func TestNoSession(t *testing.T) {
	pool, _ := work.NewPool(1)
	defer pool.Close()
	g := pool.Group("app")
	if err := work.Go(g, func(context.Context) (int, error) { return 1, nil }, nil); !errors.Is(err, work.ErrNoSession) {
		t.Errorf("Go on an application group: got %v, want ErrNoSession", err)
	}
	err := work.GoPlatform(g, func(context.Context) (int, error) { return 1, nil }, func(int) (int, error) { return 1, nil }, nil)
	if !errors.Is(err, work.ErrNoSession) {
		t.Errorf("GoPlatform on an application group: got %v, want ErrNoSession", err)
	}
}

// TestWorkersShutdownOrder journals every step of the shutdown with jobs in
// flight: acceptance closes and contexts are done at the stop, the
// simulation joins, Quiesce runs, the accepted jobs settle (one of them
// needing platform work, which the platform keeps running), and the owned
// pool has joined before DeinitPlatform.
func TestWorkersShutdownOrder(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(mode, nil)
				r.game.stopAfter = 5
				var g *work.Group
				var ws *work.Session
				var stopCause error
				sawStop := make(chan struct{})
				r.game.onSim = func(fg *fakeGame, sim *runtime.Simulation) error {
					ws = sim.Workers
					g = ws.Group("jobs")
					return nil
				}
				r.game.onUpdate = func(fg *fakeGame, _ *runtime.TickContext) {
					if fg.updates.Load() != 5 {
						return
					}
					// A slow job that ignores its context.
					_ = g.Submit(work.JobFunc(func(context.Context) {
						time.Sleep(50 * time.Millisecond)
						r.j.add("slow job done")
					}))
					// A job that sees the stop.
					_ = g.Submit(work.JobFunc(func(ctx context.Context) {
						<-ctx.Done()
						stopCause = context.Cause(ctx)
						close(sawStop)
					}))
					// A job that needs platform work after the simulation
					// has joined.
					_ = g.Submit(work.JobFunc(func(context.Context) {
						time.Sleep(20 * time.Millisecond)
						f := fg.sim.Dispatcher.Do(func() error { r.j.add("platform work for a job"); return nil })
						<-f.Done()
						r.j.add("job after platform work")
					}))
				}
				r.game.onQuiesce = func(*fakeGame) {
					<-sawStop // done at the stop: the job does not wait for its own end
					r.j.add("context done: " + stopCause.Error())
					if err := g.Submit(work.JobFunc(func(context.Context) {})); errors.Is(err, work.ErrClosed) {
						r.j.add("refused")
					}
					if ws.Group("late").Submit(work.JobFunc(func(context.Context) {})) != nil {
						r.j.add("late group refused")
					}
				}
				r.game.onDeinit = func(*fakeGame) {
					r.j.add(fmt.Sprintf("deinit: %d active, %d goroutines", ws.Active(), ws.Pool().Running()))
				}
				if _, err := r.run(); err != nil {
					t.Fatal(err)
				}
				got := without(r.j.list(), append(loopEvents, "presenter.Init", "InitPlatform", "InitSimulation")...)
				want := []string{
					"DeinitSimulation",
					"Quiesce",
					"context done: " + work.ErrClosed.Error(),
					"refused",
					"late group refused",
					"platform work for a job",
					"job after platform work",
					"slow job done",
					"DeinitPlatform",
					"deinit: 0 active, 0 goroutines",
					"renderer.Close", "presenter.Close", "display.Close",
				}
				if !slices.Equal(got, want) {
					t.Errorf("shutdown:\ngot  %q\nwant %q", got, want)
				}
			})
		})
	}
}

// TestJobWaitsOnPlatformDuringJoin: in concurrent mode DeinitSimulation
// waits for a job that waits for platform work; the platform keeps running
// dispatcher batches while it joins the simulation, so nothing strands.
func TestJobWaitsOnPlatformDuringJoin(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(runtime.Concurrent, nil)
		r.game.stopAfter = 3
		var g *work.Group
		r.game.onSim = func(fg *fakeGame, sim *runtime.Simulation) error {
			g = sim.Workers.Group("save")
			return nil
		}
		r.game.onUpdate = func(fg *fakeGame, _ *runtime.TickContext) {
			if fg.updates.Load() != 3 {
				return
			}
			_ = g.Submit(work.JobFunc(func(context.Context) {
				time.Sleep(5 * time.Millisecond) // the simulation is joining by now
				f := fg.sim.Dispatcher.Do(func() error { r.j.add("platform work"); return nil })
				<-f.Done()
				r.j.add("job done")
			}))
		}
		// DeinitSimulation waits for the group: a blocking wait on the
		// simulation goroutine, which the platform must not strand.
		waitGame := &waitingDeinit{fakeGame: r.game, wait: func() error { return g.Wait() }}
		rt, err := runtime.New(waitGame, r.ctx, r.opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := rt.Run(); err != nil {
			t.Fatal(err)
		}
		got := without(r.j.list(), append(loopEvents, "presenter.Init", "InitPlatform", "InitSimulation")...)
		want := []string{"platform work", "job done", "DeinitSimulation", "after join", "Quiesce", "DeinitPlatform", "renderer.Close", "presenter.Close", "display.Close"}
		if !slices.Equal(got, want) {
			t.Errorf("shutdown:\ngot  %q\nwant %q", got, want)
		}
	})
}

// waitingDeinit is a fakeGame whose DeinitSimulation first waits.
type waitingDeinit struct {
	*fakeGame
	wait func() error
}

func (w *waitingDeinit) DeinitSimulation() error {
	if err := w.wait(); err != nil {
		return err
	}
	return w.fakeGame.DeinitSimulation()
}

func (w *waitingDeinit) Quiesce() error {
	w.j.add("after join")
	return w.fakeGame.Quiesce()
}

// TestInjectedPool: a session borrows an application pool; at shutdown it
// settles only its own groups, and the pool and its other groups stay open
// and usable after the session.
func TestInjectedPool(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				pool, _ := work.NewPool(2)
				defer pool.Close()
				app := pool.Group("app")
				release := make(chan struct{})
				var appCtxDone atomic.Bool
				_ = app.Submit(work.JobFunc(func(ctx context.Context) {
					<-release // runs across the whole session
					appCtxDone.Store(ctx.Err() != nil)
				}))
				r := newRig(mode, nil)
				r.opts.Execution.Pool = pool
				r.game.stopAfter = 4
				var sess *work.Group
				var sessDone atomic.Bool
				r.game.onSim = func(fg *fakeGame, sim *runtime.Simulation) error {
					if sim.Workers.Pool() != pool {
						t.Error("Workers().Pool(): want the injected pool")
					}
					sess = sim.Workers.Group("session")
					return sess.Submit(work.JobFunc(func(context.Context) {
						time.Sleep(40 * time.Millisecond)
						sessDone.Store(true)
					}))
				}
				r.game.onDeinit = func(*fakeGame) {
					if !sessDone.Load() {
						t.Error("DeinitPlatform ran before the session's job settled")
					}
				}
				if _, err := r.run(); err != nil {
					t.Fatal(err)
				}
				if err := sess.Submit(work.JobFunc(func(context.Context) {})); !errors.Is(err, work.ErrClosed) {
					t.Errorf("session group after the session: got %v, want ErrClosed", err)
				}
				if app.Idle() {
					t.Error("the application's long job was settled by the session: want it still running")
				}
				ran := false
				if err := app.Submit(work.JobFunc(func(context.Context) { ran = true })); err != nil {
					t.Fatalf("application group after the session: %v", err)
				}
				fresh := pool.Group("after")
				if err := fresh.Submit(work.JobFunc(func(context.Context) {})); err != nil {
					t.Fatalf("new application group after the session: %v", err)
				}
				close(release)
				if err := app.Wait(); err != nil || !ran {
					t.Errorf("application group: ran=%v err=%v, want its job run", ran, err)
				}
				if appCtxDone.Load() {
					t.Error("the session's stop made an application job's context done")
				}
				if err := fresh.Wait(); err != nil {
					t.Error(err)
				}
			})
		})
	}
}

// TestSettleTimeout: a job that never finishes fails the session after
// SettleTimeout and cleanup goes on.
func TestSettleTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(runtime.Sequential, nil)
		r.opts.Execution.SettleTimeout = 25 * time.Millisecond
		r.game.stopAfter = 2
		stuck := make(chan struct{})
		r.game.onSim = func(fg *fakeGame, sim *runtime.Simulation) error {
			return sim.Workers.Group("stuck").Submit(work.JobFunc(func(context.Context) { <-stuck }))
		}
		var quiesced, deinit time.Duration
		r.game.onQuiesce = func(*fakeGame) { quiesced = time.Duration(r.clock.Now()) }
		r.game.onDeinit = func(*fakeGame) { deinit = time.Duration(r.clock.Now()) }
		_, err := r.run()
		close(stuck)
		var pe *runtime.PhaseError
		if !errors.Is(err, work.ErrSettleTimeout) || !errors.As(err, &pe) || pe.Phase != runtime.PhaseSettleWorkers {
			t.Fatalf("Run: got %v, want ErrSettleTimeout in phase %q", err, runtime.PhaseSettleWorkers)
		}
		if !strings.Contains(err.Error(), "1 still running after 25ms") {
			t.Errorf("Run: got %q, want it to say how many jobs and how long", err)
		}
		if !slices.Contains(r.j.list(), "display.Close") {
			t.Error("cleanup stopped at the timeout: want it to go on")
		}
		if waited := deinit - quiesced; waited < 25*time.Millisecond || waited > 26*time.Millisecond {
			t.Errorf("settle waited %v, want the timeout of 25ms (observed in 1 ms waits)", waited)
		}
	})
}

// TestSettleOnVirtualTime: the settle waits work on a manual clock in both
// modes, also after the concurrent simulation's goroutine (and its waiter)
// is gone: the last job's completion and dispatcher submissions end them.
func TestSettleOnVirtualTime(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			clock := runtimetest.NewClock()
			g := &leanGame{stopAfter: 3}
			ctx, fakes := runtimetest.NewAdapters(clock)
			fakes.Discard()
			rt, err := runtime.New(g, ctx, runtimetest.Options(clock, mode))
			if err != nil {
				t.Fatal(err)
			}
			var steps atomic.Int64
			g.onUpdate = func(n int) {
				if n != 3 {
					return
				}
				sim := g.sim
				_ = sim.Workers.Group("virtual").Submit(work.JobFunc(func(context.Context) {
					for range 5 { // five round trips to the platform
						<-sim.Dispatcher.Do(func() error { steps.Add(1); return nil }).Done()
					}
				}))
			}
			done := make(chan error, 1)
			go func() { done <- rt.Run() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(time.Minute):
				t.Fatal("shutdown did not settle a job on virtual time")
			}
			if got := steps.Load(); got != 5 {
				t.Errorf("platform round trips: got %d, want 5", got)
			}
		})
	}
}

// loadGame generates its level on a worker and receives it on the
// simulation owner, through the mailbox, while its updates go on.
type loadGame struct {
	runtime.Base
	level []int
}

func (g *loadGame) InitSimulation(sim *runtime.Simulation) error {
	return work.Go(sim.Workers.Group("level"), func(ctx context.Context) ([]int, error) {
		level := make([]int, 64) // on a worker: no simulation state here
		for i := range level {
			if ctx.Err() != nil {
				return nil, context.Cause(ctx) // the session is stopping
			}
			level[i] = i * i
		}
		return level, nil
	}, func(level []int, err error) {
		if err != nil {
			fmt.Println("load failed:", err)
			return
		}
		g.level = level // on the simulation owner, before an update
	})
}

func (g *loadGame) Update(tick *runtime.TickContext) error {
	if g.level == nil {
		return nil // still loading: a loading screen would draw progress
	}
	fmt.Println("level of", len(g.level), "cells, last", g.level[63])
	return tick.RequestStop()
}

func Example_workers() {
	rt, err := runtime.New(&loadGame{}, exampleContext(), exampleOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rt.Run())
	// Output:
	// level of 64 cells, last 3969
	// <nil>
}
