package runtime_test

import (
	"sync/atomic"
	"testing"

	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// hookGame waits in its simulation hooks for platform work, as a game that
// uploads its assets from InitSimulation does, and folds what it read into
// its state.
type hookGame struct {
	runtime.Base
	rt  *runtime.GameRuntime
	sim *runtime.Simulation
	// wait makes InitSimulation submit work and wait for it (concurrent
	// mode only: in sequential mode nothing drains during the hook).
	wait bool
	// late is submitted by the last update and settled by the platform's
	// next cycle, which then stops the session before another update.
	// It crosses from the simulation to the platform, so it is atomic.
	late    atomic.Pointer[runtime.Future[int]]
	stopAt  uint64
	sum     uint64
	initErr error
	deinit  error
}

func (g *hookGame) InitPlatform(plat *runtime.Platform) error {
	rt := g.rt
	_, err := rt.Services().Attach(runtime.Maintenance, func(timing.Instant) error {
		if late := g.late.Load(); late != nil {
			select {
			case <-late.Done():
				rt.Stop() // settled in this cycle's batch; no update has seen it
			default:
			}
		}
		return nil
	})
	return err
}

func (g *hookGame) InitSimulation(sim *runtime.Simulation) error {
	g.sim = sim
	if !g.wait {
		return nil
	}
	f := runtime.Submit(sim.Dispatcher, func() (int, error) { return 7, nil })
	<-f.Done()
	v, err := f.Result()
	g.initErr = err
	g.sum += uint64(v)
	return nil
}

func (g *hookGame) Update(t *runtime.TickContext) error {
	g.sum = g.sum*31 + uint64(t.Delta)
	if t.Number == g.stopAt && g.late.Load() == nil {
		g.late.Store(runtime.Submit(g.sim.Dispatcher, func() (int, error) { return 1000, nil }))
	}
	return nil
}

func (g *hookGame) DeinitSimulation() error {
	if g.late.Load() == nil {
		return nil
	}
	v, err := g.late.Load().Result()
	g.deinit = err
	g.sum += uint64(v)
	return nil
}

func (g *hookGame) hash(c *recording.Checkpoint) error {
	c.Hash = g.sum
	return nil
}

// TestSimulationHooksSeeSettledResults: InitSimulation waits for platform
// work and DeinitSimulation reads a result the platform settled after the
// last update; both read the settled result (Future: "during Init hooks and
// the shutdown, as soon as they are settled"), in both modes, and a replay
// of the session sees the same (issue 22, item 4: concurrent hooks saw
// Done close and then ErrPending).
func TestSimulationHooksSeeSettledResults(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			g := &hookGame{wait: mode == runtime.Concurrent, stopAt: 20}
			clock := runtimetest.NewClock()
			ctx, _ := runtimetest.NewAdapters(clock)
			rec := recordRun(t, recorded{g, g.hash, func(rt *runtime.GameRuntime) { g.rt = rt }}, clock, ctx, mode, 5)
			if g.initErr != nil {
				t.Errorf("InitSimulation: Result after Done: %v", g.initErr)
			}
			if g.deinit != nil {
				t.Errorf("DeinitSimulation: Result of work settled after the last update: %v", g.deinit)
			}
			if n := g.rt.Stats().Updates; n != g.stopAt+1 {
				t.Errorf("%d updates, want %d (the platform stops the session in the cycle that settles the late work)", n, g.stopAt+1)
			}

			// The replay runs the same hooks and must read the same.
			rg := &hookGame{wait: g.wait, stopAt: g.stopAt}
			if err := replayRun(t, rec, recorded{rg, rg.hash, func(rt *runtime.GameRuntime) { rg.rt = rt }}, mode, nil); err != nil {
				t.Fatalf("replay: %v", err)
			}
			if rg.initErr != nil || rg.deinit != nil {
				t.Errorf("replay: InitSimulation read %v, DeinitSimulation read %v; want both results", rg.initErr, rg.deinit)
			}
			if rg.sum != g.sum {
				t.Errorf("replayed state %d, recorded %d", rg.sum, g.sum)
			}
		})
	}
}
