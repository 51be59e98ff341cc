package runtime_test

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// TestVisibilityPacing hides a window with a 20 ms frame cap twice (from
// 205 ms to 705 ms and from 855 ms to 1155 ms) and follows the platform
// cycles on the bubble's synthetic clock: telemetry reports the interval in
// force (the cap while visible, the 100 ms hidden interval while hidden),
// each visibility change drops the schedule (the first hidden cycle and the
// first frame after showing start at once, also the second time), and
// hidden cycles follow absolute targets 100 ms apart.
func TestVisibilityPacing(t *testing.T) {
	const (
		frameCap = 20 * time.Millisecond
		hiddenIv = runtime.DefaultHiddenInterval
		stopAt   = 1300 * time.Millisecond
	)
	phases := []struct{ hide, show time.Duration }{
		{205 * time.Millisecond, 705 * time.Millisecond},
		{855 * time.Millisecond, 1155 * time.Millisecond},
	}
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(mode, nil)
				r.opts.FrameCap = frameCap
				type cycle struct{ at, interval time.Duration }
				// Both are appended on the platform thread and read after Run.
				var cycles []cycle
				var renders []time.Duration
				since := func(now timing.Instant) time.Duration { return time.Duration(now - r.clock.At(0)) }
				r.onRender = func() { renders = append(renders, since(r.clock.Now())) }
				r.game.onPlatform = func(g *fakeGame, plat *runtime.Platform) error {
					rt := g.rt
					_, err := rt.Services().Attach(runtime.Maintenance, func(now timing.Instant) error {
						cycles = append(cycles, cycle{since(now), rt.Telemetry().PacingInterval})
						return nil
					})
					go func() {
						var at time.Duration
						for _, p := range phases {
							spend(p.hide - at)
							r.setHidden(true)
							spend(p.show - p.hide)
							r.setHidden(false)
							at = p.show
						}
						spend(stopAt - at)
						rt.Stop()
					}()
					return err
				}
				rt, err := r.run()
				if err != nil {
					t.Fatal(err)
				}
				tel := rt.Telemetry()
				if tel.PacingInterval != frameCap {
					t.Errorf("pacing interval after the session: got %v, want %v", tel.PacingInterval, frameCap)
				}
				// The first frame of the session and the first after each
				// showing anchor a new schedule; none waits out an old one.
				if tel.PaceBaseline != uint64(1+len(phases)) || tel.PaceRescheduled != 0 || tel.PaceLate != 0 {
					t.Errorf("pace outcomes: %d baselines, %d rescheduled, %d late; want %d, 0, 0", tel.PaceBaseline, tel.PaceRescheduled, tel.PaceLate, 1+len(phases))
				}
				// The hidden phases: runs of cycles that started with the
				// hidden interval in force.
				var runs [][2]int
				for i, c := range cycles {
					switch {
					case c.interval == hiddenIv && (i == 0 || cycles[i-1].interval != hiddenIv):
						runs = append(runs, [2]int{i, len(cycles)})
					case c.interval != hiddenIv && i > 0 && cycles[i-1].interval == hiddenIv:
						runs[len(runs)-1][1] = i
					case c.interval != hiddenIv && c.interval != frameCap:
						t.Errorf("cycle %d at %v: pacing interval %v, want %v or %v", i, c.at, c.interval, frameCap, hiddenIv)
					}
				}
				if len(runs) != len(phases) {
					t.Fatalf("%d runs of cycles with the hidden interval, want %d: %v", len(runs), len(phases), cycles)
				}
				for k, p := range phases {
					first, end := runs[k][0], runs[k][1]
					if first == 0 || end == len(cycles) {
						t.Fatalf("phase %d: hidden cycles %d to %d of %d, want visible ones around them", k, first, end, len(cycles))
					}
					hidden := cycles[first:end]
					// The cycle that noticed the change polled after hiding,
					// within maintenance; the first hidden cycle starts at the
					// same instant.
					noticed := cycles[first-1].at
					if noticed < p.hide || noticed > p.hide+r.opts.Maintenance {
						t.Errorf("phase %d: hiding noticed by the cycle at %v, want %v to %v", k, noticed, p.hide, p.hide+r.opts.Maintenance)
					}
					if hidden[0].at != noticed {
						t.Errorf("phase %d: first hidden cycle at %v, want at once (%v)", k, hidden[0].at, noticed)
					}
					for i := 1; i < len(hidden); i++ {
						gap := hidden[i].at - hidden[i-1].at
						// Concurrent mode: a frame published by the simulation
						// wakes the platform between targets.
						if gap > hiddenIv || mode == runtime.Sequential && gap != hiddenIv {
							t.Errorf("phase %d: hidden cycle %d at %v, %v after the previous; want %v", k, i, hidden[i].at, gap, hiddenIv)
						}
					}
					// The last hidden cycle polled after showing and saw the
					// window visible: its frame starts at once, and the cap's
					// new schedule counts from there.
					shown := hidden[len(hidden)-1].at
					if shown < p.show || shown > p.show+hiddenIv {
						t.Errorf("phase %d: showing noticed by the cycle at %v, want %v to %v", k, shown, p.show, p.show+hiddenIv)
					}
					for _, at := range renders {
						if at > noticed && at < shown {
							t.Errorf("phase %d: frame rendered at %v while hidden", k, at)
						}
					}
					i := slices.Index(renders, shown)
					if i < 0 || i+1 >= len(renders) {
						t.Fatalf("phase %d: no frame rendered at once (%v) after showing; renders %v", k, shown, renders)
					}
					if next := renders[i+1]; next != shown+frameCap {
						t.Errorf("phase %d: second frame after showing at %v, want %v (the cap's schedule anchored at %v)", k, next, shown+frameCap, shown)
					}
				}
			})
		})
	}
}
