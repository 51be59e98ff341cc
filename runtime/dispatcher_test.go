package runtime_test

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/inputtest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/work"
	"github.com/metronome-go/metronome/timing"
)

func TestDispatcherBatchesInOrder(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(mode, nil)
				r.game.stopAfter = 20
				var mu sync.Mutex
				var order []string
				cycleOf := map[string]uint64{}
				note := func(rt *runtime.GameRuntime, name string) {
					mu.Lock()
					order = append(order, name)
					cycleOf[name] = rt.Stats().Cycles
					mu.Unlock()
				}
				var futures []*runtime.Future[int]
				var nested *runtime.Future[struct{}]
				var panicked *runtime.Future[struct{}]
				allQueued := make(chan struct{})
				r.game.onUpdate = func(g *fakeGame, tick *runtime.TickContext) {
					if g.updates.Load() != 3 {
						return
					}
					rt := g.rt
					d := g.sim.Dispatcher
					for i := range 3 {
						futures = append(futures, runtime.Submit(d, func() (int, error) {
							note(rt, string(rune('a'+i)))
							if i == 0 {
								// Submitted while the batch runs: belongs
								// to the next batch. In concurrent mode the
								// platform may start a batch before the
								// update has submitted b and c; waiting for
								// them keeps the submission order a, b, c,
								// nested in both modes.
								<-allQueued
								nested = d.Do(func() error { note(rt, "nested"); return nil })
							}
							return i * 10, nil
						}))
					}
					panicked = d.Do(func() error { panic("boom") })
					close(allQueued)
					if futures[0].Ready() {
						t.Error("future ready before the platform ran it")
					}
					if _, err := futures[0].Result(); !errors.Is(err, runtime.ErrPending) {
						t.Errorf("Result before running: got %v, want ErrPending", err)
					}
				}
				if _, err := r.run(); err != nil {
					t.Fatalf("Run: got %v, want nil (a panic in dispatched work fails only its future)", err)
				}
				if want := []string{"a", "b", "c", "nested"}; !slices.Equal(order, want) {
					t.Fatalf("run order: got %v, want %v", order, want)
				}
				if cycleOf["nested"] <= cycleOf["a"] {
					t.Errorf("nested work ran in cycle %d, its parent in cycle %d: want a later batch", cycleOf["nested"], cycleOf["a"])
				}
				for i, f := range futures {
					v, err := f.Result()
					if err != nil || v != i*10 {
						t.Errorf("future %d: got %d %v, want %d nil", i, v, err, i*10)
					}
				}
				if _, err := nested.Result(); err != nil {
					t.Errorf("nested future: %v", err)
				}
				var pe *work.PanicError
				if _, err := panicked.Result(); !errors.As(err, &pe) || pe.Value != "boom" {
					t.Errorf("panicking work: got %v, want a PanicError with the value", err)
				}
			})
		})
	}
}

func TestDispatcherShutdown(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(mode, nil)
				r.game.stopAfter = 2
				var settled, canceled, late *runtime.Future[struct{}]
				r.game.onQuiesce = func(g *fakeGame) {
					d := g.sim.Dispatcher
					settled = d.Do(func() error {
						g.j.add("settled")
						canceled = d.Do(func() error { g.j.add("canceled ran"); return nil })
						return nil
					})
				}
				r.game.onDeinit = func(g *fakeGame) {
					late = g.sim.Dispatcher.Do(func() error { return nil })
					if err := g.sim.Mailbox.Post(func() {}); !errors.Is(err, work.ErrClosed) {
						t.Errorf("Post after the simulation stopped: got %v, want ErrClosed", err)
					}
				}
				if _, err := r.run(); err != nil {
					t.Fatal(err)
				}
				if _, err := settled.Result(); err != nil {
					t.Errorf("work accepted before shutdown: got %v, want it settled", err)
				}
				if _, err := canceled.Result(); !errors.Is(err, runtime.ErrCanceled) {
					t.Errorf("work still queued at shutdown: got %v, want ErrCanceled", err)
				}
				if _, err := late.Result(); !errors.Is(err, work.ErrClosed) {
					t.Errorf("work submitted after shutdown: got %v, want ErrClosed", err)
				}
				events := without(r.j.list(), loopEvents...)
				want := []string{"Quiesce", "settled", "DeinitPlatform"}
				i := slices.Index(events, "Quiesce")
				if i < 0 || !slices.Equal(events[i:i+3], want) || slices.Contains(events, "canceled ran") {
					t.Errorf("shutdown events %v: want %v in order and the canceled work never run", events, want)
				}
			})
		})
	}
}

// TestDispatcherDrainsWithFullBacklog floods a one-poll backlog while a slow
// update runs: platform work still runs within a maintenance period.
func TestDispatcherDrainsWithFullBacklog(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		script := inputtest.NewScript()
		r := newRig(runtime.Concurrent, nil).withInput(script)
		r.opts.Polling.Capacity = 1
		r.opts.Polling.Spacing = time.Millisecond
		r.game.updateCost = 200 * time.Millisecond
		start := r.clock.Now()
		for i := range 400 {
			at := start + timing.Instant(time.Duration(i)*time.Millisecond)
			script.Cursor(at, float64(i), 0)
		}
		var latency []time.Duration
		r.game.onSim = func(g *fakeGame, sim *runtime.Simulation) error {
			rt := g.rt
			go func() {
				for range 10 {
					spend(37 * time.Millisecond)
					t0 := r.clock.Now()
					f := sim.Dispatcher.Do(func() error { return nil })
					<-f.Done()
					latency = append(latency, time.Duration(r.clock.Now()-t0))
				}
				rt.Stop()
			}()
			return nil
		}
		rt, err := r.run()
		if err != nil {
			t.Fatal(err)
		}
		if c := rt.Report().Input.Coalesced; c == 0 {
			t.Fatalf("coalesced polls: got 0, want a full backlog during the slow updates")
		}
		for i, l := range latency {
			if l > 0 {
				t.Errorf("request %d waited %v: want it run at once (the wake interrupts the platform's wait)", i, l)
			}
		}
		if len(latency) != 10 {
			t.Errorf("completed requests: got %d, want 10", len(latency))
		}
	})
}

func TestMailboxDrainsBeforeEachUpdate(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(mode, nil)
				r.opts.Timing.Mode = timing.FixedMode
				r.opts.Timing.MaxFixedUpdates = 4
				r.game.stopAfter = 12
				ranAt := map[string]int64{}
				r.game.onUpdate = func(g *fakeGame, tick *runtime.TickContext) {
					n := g.updates.Load()
					mb := g.sim.Mailbox
					switch n {
					case 2:
						_ = mb.Post(func() {
							ranAt["a"] = g.updates.Load()
							// Posted during a drain: runs before a later update.
							_ = mb.Post(func() { ranAt["b"] = g.updates.Load() })
						})
					case 5:
						spend(50 * time.Millisecond) // the next batch has three updates
						_ = mb.Post(func() {
							ranAt["c"] = g.updates.Load()
							_ = mb.Post(func() { ranAt["d"] = g.updates.Load() })
						})
					}
				}
				if _, err := r.run(); err != nil {
					t.Fatal(err)
				}
				want := map[string]int64{"a": 2, "b": 3, "c": 5, "d": 6}
				for k, v := range want {
					if ranAt[k] != v {
						t.Errorf("mailbox item %s ran after %d updates, want %d", k, ranAt[k], v)
					}
				}
				recs := r.game.records()
				if len(recs) < 8 || !(recs[5].number+1 == recs[6].number && !recs[5].final) {
					t.Errorf("ticks 5 and 6 should be in the same batch: %+v", recs[5:7])
				}
			})
		})
	}
}

func TestMailboxPanicFailsSession(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(runtime.Sequential, nil)
		r.game.onUpdate = func(g *fakeGame, tick *runtime.TickContext) {
			if g.updates.Load() == 2 {
				_ = g.sim.Mailbox.Post(func() { panic(errInjected) })
			}
		}
		_, err := r.run()
		var pe *runtime.PhaseError
		if !errors.As(err, &pe) || pe.Phase != runtime.PhaseMailbox || !errors.Is(err, errInjected) {
			t.Fatalf("Run: got %v, want the mailbox panic in phase mailbox", err)
		}
		if n := r.game.updates.Load(); n != 2 {
			t.Errorf("updates: got %d, want 2 (the third never starts)", n)
		}
	})
}

func TestTickContextByHand(t *testing.T) {
	var in input.Tick
	tick := runtime.TickContext{Update: timing.Update{Delta: 20 * time.Millisecond, Start: 100, End: 100 + timing.Instant(500*time.Millisecond)}, Input: &in}
	if got := tick.DeltaSeconds(); got != 0.02 {
		t.Errorf("DeltaSeconds: got %v, want 0.02", got)
	}
	if got := tick.Span(); got != 500*time.Millisecond {
		t.Errorf("Span: got %v, want 500ms", got)
	}
	if !tick.RunCosmetic() {
		t.Error("RunCosmetic on a zero tick: got false, want true (the zero tick is an ordinary one)")
	}
	if err := tick.RequestStop(); !errors.Is(err, runtime.ErrNoStopSource) {
		t.Errorf("RequestStop without a source: got %v, want ErrNoStopSource", err)
	}
	tick.Stop = runtime.NewStopSignal()
	if tick.StopRequested() {
		t.Error("StopRequested before a request")
	}
	if err := tick.RequestStop(); err != nil || !tick.StopRequested() {
		t.Errorf("RequestStop: got %v, requested %v; want nil, true", err, tick.StopRequested())
	}
	select {
	case <-tick.Stop.Done():
	default:
		t.Error("Done not closed after a request")
	}
}
