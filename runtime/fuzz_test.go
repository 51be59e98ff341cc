package runtime_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/inputtest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// FuzzLoopInvariants runs one virtual second of a session under random
// modes, timing options, costs, stalls and taps, and checks what must hold
// whatever the schedule: a clean exit, every tap delivered exactly once,
// frames rendered newest-first and never twice, dropped time reported once
// on final updates and never more than the scheduler's total, fixed updates of
// exactly one step, consecutive tick numbers, and no more observed input
// time than real time.
func FuzzLoopInvariants(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint8(16), uint8(1), uint8(2), uint8(3), uint8(4), uint8(0), uint16(0x1234))
	f.Add(uint8(1), uint8(1), uint8(20), uint8(2), uint8(30), uint8(9), uint8(0), uint8(1), uint16(0xbeef))
	f.Add(uint8(0), uint8(1), uint8(5), uint8(4), uint8(0), uint8(25), uint8(8), uint8(2), uint16(7))
	f.Add(uint8(1), uint8(0), uint8(8), uint8(1), uint8(12), uint8(0), uint8(1), uint8(3), uint16(0xffff))
	f.Fuzz(func(t *testing.T, mode, fixed, stepMS, maxFixed, updateMS, renderMS, spacingMS, recovery uint8, pattern uint16) {
		synctest.Test(t, func(t *testing.T) {
			script := inputtest.NewScript()
			r := newRig(runtime.Mode(mode%2), nil).withInput(script)
			step := time.Duration(1+stepMS%50) * time.Millisecond
			if fixed%2 == 1 {
				r.opts.Timing.Mode = timing.FixedMode
				r.opts.Timing.FixedStep = step
				r.opts.Timing.MaxFixedUpdates = 1 + int(maxFixed%4)
				if recovery%2 == 1 {
					r.opts.Timing.Recovery = timing.VariableCatchUp
					r.opts.Timing.RecoveryPrefix = int(recovery/2) % (r.opts.Timing.MaxFixedUpdates + 1)
				}
			} else {
				r.opts.Timing.Interval = step
			}
			r.opts.Polling.Spacing = time.Duration(spacingMS%9) * time.Millisecond
			r.renderer.Cost = time.Duration(renderMS%31) * time.Millisecond
			updateCost := time.Duration(updateMS%31) * time.Millisecond
			r.game.watch = input.KeySpace
			r.game.onUpdate = func(g *fakeGame, tick *runtime.TickContext) {
				cost := updateCost
				if pattern>>(g.updates.Load()%16)&1 == 1 && g.updates.Load()%7 == 3 {
					cost += 150 * time.Millisecond // an occasional stall
				}
				spend(cost)
			}
			r.game.onPlatform = stopAt(1200 * time.Millisecond)
			start := r.clock.Now()
			taps := 0
			for i := range 16 {
				if pattern>>i&1 == 1 {
					at := start + timing.Instant(time.Duration(20+i*45)*time.Millisecond)
					script.Tap(at, input.KeySpace, 5*time.Millisecond)
					taps++
				}
			}
			rt, err := r.run()
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			recs := r.game.records()
			presses, releases := 0, 0
			var dropped, observed time.Duration
			for i, rec := range recs {
				presses += rec.presses
				releases += rec.releases
				dropped += rec.dropped
				observed += rec.observed
				if rec.number != uint64(i) {
					t.Fatalf("tick %d numbered %d", i, rec.number)
				}
				if rec.dropped != 0 && !rec.final {
					t.Errorf("tick %d drops %v without being final", i, rec.dropped)
				}
				if rec.kind == timing.FixedUpdate && rec.delta != step {
					t.Errorf("tick %d: fixed delta %v, want %v", i, rec.delta, step)
				}
			}
			if presses != taps || releases != taps {
				t.Errorf("presses %d releases %d, want %d of each", presses, releases, taps)
			}
			// A batch cut short by the stop, or one without updates, has not
			// reported its drop yet: ticks may report less, never more.
			if total := rt.TimingStats().Dropped; dropped > total {
				t.Errorf("dropped over ticks %v exceeds the scheduler's total %v", dropped, total)
			}
			if elapsed := time.Duration(r.clock.Now() - start); observed > elapsed {
				t.Errorf("observed input time %v exceeds real time %v", observed, elapsed)
			}
			seqs := r.sequences()
			for i := 1; i < len(seqs); i++ {
				if seqs[i] <= seqs[i-1] {
					t.Fatalf("rendered sequences not strictly increasing: %v", seqs)
				}
			}
		})
	})
}
