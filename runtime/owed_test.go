package runtime_test

import (
	"errors"
	"testing"
	"time"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// ower reports resimulation, a held tick and advantage in TickContext.Owed
// on tick 10, then stops at tick 20.
type ower struct {
	runtime.Base
	owed  runtime.Owed
	stats timing.Stats
}

func (g *ower) Update(t *runtime.TickContext) error {
	if t.Owed != (runtime.Owed{}) {
		return errors.New("Owed is not zero when Update starts")
	}
	if t.Number == 10 {
		t.Owed = g.owed
	}
	if t.Number == 19 {
		g.stats = t.Timing
		return t.RequestStop()
	}
	return nil
}

func TestOwedReachesTheScheduler(t *testing.T) {
	clock := runtimetest.NewClock()
	ctx, _ := runtimetest.NewAdapters(clock)
	opts := runtimetest.Options(clock, runtime.Sequential)
	opts.Timing.Mode, opts.Timing.Recovery, opts.Timing.Rollback = timing.FixedMode, timing.RepayDebt, true
	g := &ower{owed: runtime.Owed{Resimulated: 3, ResimulationTime: 2 * time.Millisecond, Held: opts.Timing.FixedStep, Advantage: -5 * time.Millisecond}}
	rt, err := runtime.New(g, ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Run(); err != nil {
		t.Fatal(err)
	}
	if got, want := g.stats.Resimulated, uint64(3); got != want {
		t.Errorf("Resimulated = %d, want %d", got, want)
	}
	if got, want := g.stats.Ledger.Resimulation, 2*time.Millisecond; got != want {
		t.Errorf("Ledger.Resimulation = %v, want %v", got, want)
	}
	if got, want := g.stats.Ledger.Advantage, -5*time.Millisecond; got != want {
		t.Errorf("Ledger.Advantage = %v, want %v", got, want)
	}
}

// Outside fixed RepayDebt the scheduler refuses the debt, and the session
// fails instead of losing it.
func TestOwedRefusedFailsTheSession(t *testing.T) {
	clock := runtimetest.NewClock()
	ctx, _ := runtimetest.NewAdapters(clock)
	opts := runtimetest.Options(clock, runtime.Sequential)
	g := &ower{owed: runtime.Owed{Resimulated: 1}}
	rt, err := runtime.New(g, ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Run(); err == nil {
		t.Fatal("Run succeeded with debt the scheduler refuses")
	}
}
