package runtime_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/metronome-go/metronome/geom"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// glider moves one sprite at constant speed and draws it with its previous
// and current placement, as ECS extraction does.
type glider struct {
	runtime.Base
	speed       float64 // world units per simulated second
	x, prevX    float64
	interpolate bool
	updates     uint64
	counts      func(at time.Duration) // sees each update's span end since the start
}

func (g *glider) Update(t *runtime.TickContext) error {
	g.updates++
	if g.counts != nil {
		g.counts(time.Duration(t.End - runtimetest.Start))
	}
	g.prevX = g.x
	g.x += g.speed * t.DeltaSeconds()
	return nil
}

func (g *glider) PrepareFrame(w *render2d.FrameWriter) error {
	p := render2d.Sprite(render2d.TextureHandle{}, geom.Rect{}, geom.Vec2{X: float32(g.x)}, geom.Vec2{X: 4, Y: 4})
	if g.interpolate {
		p.Prev = render2d.Placement{Position: geom.Vec2{X: float32(g.prevX)}, Scale: p.Transform.Scale, Tint: p.Tint, Set: true}
	} else {
		w.Frame().Span.Step = 0 // nothing moves between placements
	}
	w.BeginPass(render2d.PassDesc{}).Draw(p)
	return nil
}

// runFor runs g on ctx for d of opts.Clock's time and returns the instant
// it started at.
func runFor(t *testing.T, g runtime.Game, ctx *runtime.Adapters, opts runtime.Options, d time.Duration) timing.Instant {
	t.Helper()
	rt, err := runtime.New(g, ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	start := opts.Clock.Now()
	if _, err := rt.Services().Attach(runtime.Maintenance, func(now timing.Instant) error {
		if now-start >= timing.Instant(d) {
			rt.Stop()
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := rt.Run(); err != nil {
		t.Fatal(err)
	}
	return start
}

// judder runs fixed ticks at tickHz and presents capped at presentHz on
// virtual time for 3 s and returns the coefficient of variation of the
// sprite's displacement from one refresh of a presentHz display to the
// next (after a settling second) and the presents per second.
func judder(t *testing.T, mode runtime.Mode, tickHz, presentHz int, interpolate bool) (cv, fps float64) {
	t.Helper()
	m := watch(t, motion{mode: mode, tickHz: tickHz, presentHz: presentHz, interpolate: interpolate, run: 3 * time.Second})
	return m.cv(time.Second, 3*time.Second), m.fps(time.Second, 3*time.Second)
}

// motion is a run of the glider watched on a display refreshing at
// presentHz (the frame cap): fixed ticks at tickHz (variable timing when
// tickHz is 0), an optional one-off stall of the simulation owner in the
// first update that starts at or after stallAt, for run of virtual time.
type motion struct {
	mode        runtime.Mode
	tickHz      int
	presentHz   int
	interpolate bool
	recovery    timing.Recovery
	limit       int // MaxFixedUpdates; 0 is 4
	stallAt     time.Duration
	stall       time.Duration
	run         time.Duration
	// options, when set, changes the options last.
	options func(*runtime.Options)
	// updates, when set, receives the number of updates run.
	updates *uint64
	// vsync, when set, makes the presenter a RefreshPresenter reporting
	// that refresh interval (it does not wait for it).
	vsync time.Duration
	// hide, when set, hides the window from hide[0] to hide[1].
	hide [2]time.Duration
	// counts, when set, sees every update's span end since the start.
	counts func(at time.Duration)
}

// refreshPresenter is the fake presenter with a vsync refresh to report.
type refreshPresenter struct {
	*runtimetest.Presenter
	refresh time.Duration
}

func (p refreshPresenter) RefreshInterval() time.Duration { return p.refresh }

// watched is what a display showed during a motion run.
type watched struct {
	presentHz int
	speed     float64
	// xs[k] is the sprite's position on screen at refresh k, which falls
	// half a refresh period after the cap's k-th target (so that no refresh
	// coincides with a tick to the nanosecond); NaN before the first
	// present.
	xs       []float64
	presents []time.Duration // since the start
}

// watch runs c and returns what the display showed: at each refresh, the
// latest present at or before it (a refresh without a present shows the
// previous image again).
func watch(t *testing.T, c motion) watched {
	t.Helper()
	clock := runtimetest.NewClock()
	ctx, fakes := runtimetest.NewAdapters(clock)
	opts := runtimetest.Options(clock, c.mode)
	if c.tickHz > 0 {
		opts.Timing.Mode = timing.FixedMode
		opts.Timing.Rate = timing.Rate{Num: int64(c.tickHz), Den: 1}
		opts.Timing.MaxFixedUpdates = 4
		if c.limit > 0 {
			opts.Timing.MaxFixedUpdates = c.limit
		}
		opts.Timing.Recovery = c.recovery
	}
	opts.FrameCap = time.Second / time.Duration(c.presentHz)
	if c.options != nil {
		c.options(&opts)
	}
	if c.vsync > 0 {
		ctx.Presenter = refreshPresenter{fakes.Presenter, c.vsync}
	}
	if c.hide[1] > 0 {
		fakes.Display.Hide(clock.At(c.hide[0])).Show(clock.At(c.hide[1]))
	}
	g := &glider{speed: 100, interpolate: c.interpolate, counts: c.counts}
	var game runtime.Game = g
	if c.stall > 0 {
		game = &stallingGlider{glider: g, clock: clock, at: runtimetest.Start.AddSaturating(c.stallAt), stall: c.stall}
	}
	start := runFor(t, game, ctx, opts, c.run)
	if c.updates != nil {
		*c.updates = g.updates
	}
	w := watched{presentHz: c.presentHz, speed: g.speed}
	frames := fakes.Renderer.Frames
	shown, next := -1, 0
	for k := 0; k < int(c.run.Seconds()*float64(c.presentHz)); k++ {
		refresh := start + timing.Instant((2*int64(k)+1)*int64(time.Second)/int64(2*c.presentHz))
		for next < len(frames) && frames[next].Present.At <= refresh {
			shown, next = next, next+1
		}
		if shown < 0 {
			w.xs = append(w.xs, math.NaN())
			continue
		}
		f := &frames[shown]
		p := f.Passes[0].Packets[0].Resolved(f.Present.Alpha)
		w.xs = append(w.xs, float64(p.Transform.Position.X))
	}
	for _, f := range frames {
		w.presents = append(w.presents, time.Duration(f.Present.At-start))
	}
	return w
}

// refresh returns the index of the first refresh at or after d.
func (w watched) refresh(d time.Duration) int {
	return int(math.Ceil(d.Seconds() * float64(w.presentHz)))
}

// steps returns the displacements from each refresh in [from, to) to the
// next.
func (w watched) steps(from, to time.Duration) []float64 {
	var ds []float64
	for k := max(w.refresh(from), 1); k < min(w.refresh(to), len(w.xs)); k++ {
		if d := w.xs[k] - w.xs[k-1]; !math.IsNaN(d) {
			ds = append(ds, d)
		}
	}
	return ds
}

// cv returns the coefficient of variation of the per-refresh displacement
// over [from, to).
func (w watched) cv(from, to time.Duration) float64 {
	ds := w.steps(from, to)
	var sum, sq float64
	for _, d := range ds {
		sum += d
		sq += d * d
	}
	n := float64(len(ds))
	mean := sum / n
	return math.Sqrt(max(sq/n-mean*mean, 0)) / mean
}

// fps returns the presents per second in [from, to).
func (w watched) fps(from, to time.Duration) float64 {
	n := 0
	for _, at := range w.presents {
		if at >= from && at < to {
			n++
		}
	}
	return float64(n) / (to - from).Seconds()
}

// stallingGlider is a glider whose first update starting at or after at
// keeps the simulation owner busy for stall.
type stallingGlider struct {
	*glider
	clock   *runtimetest.Clock
	at      timing.Instant
	stall   time.Duration
	stalled bool
}

func (g *stallingGlider) Update(t *runtime.TickContext) error {
	if !g.stalled && t.Start >= g.at {
		g.stalled = true
		g.clock.Spend(runtimetest.Simulation, g.stall)
	}
	return g.glider.Update(t)
}

// TestSmoothMotionAtAnyRefreshRate is issue 15's measure: one sprite at
// constant speed, fixed ticks at rate T and a display refreshing at rate P
// (the frame cap). With interpolation the displacement from refresh to
// refresh is even (its coefficient of variation at most 0.02) whatever the
// ratio; without it, it judders whenever P differs from T. Presents follow
// the cap, not the tick rate.
func TestSmoothMotionAtAnyRefreshRate(t *testing.T) {
	for _, mode := range modes {
		for _, r := range [][2]int{{60, 144}, {50, 60}, {60, 60}, {30, 165}, {120, 60}} {
			t.Run(fmt.Sprintf("%v/%dHz-ticks/%dHz-presents", mode, r[0], r[1]), func(t *testing.T) {
				on, fps := judder(t, mode, r[0], r[1], true)
				off, _ := judder(t, mode, r[0], r[1], false)
				t.Logf("CV of per-refresh displacement: interpolated %.4f, not interpolated %.4f; %.1f presents/s", on, off, fps)
				if on > 0.02 {
					t.Errorf("interpolated: CV %.4f, want at most 0.02", on)
				}
				if want := float64(min(r[1], 1000)); math.Abs(fps-want) > 3 {
					t.Errorf("presents per second: %.1f, want %v (the cap)", fps, want)
				}
			})
		}
	}
}

// TestUncappedPresentsAsFastAsAllowed: with no frame cap (and no vsync, as
// the fake presenter has none) an interpolated scene is presented as fast
// as the presents themselves allow, here 1 ms each, not at the poll
// cadence; a frame that does not change between ticks (step 0, no
// interpolation) is presented once, and so is an interpolated frame in
// which nothing moves (its packets' previous placements are their current
// ones), so a still scene costs no presents between updates.
func TestUncappedPresentsAsFastAsAllowed(t *testing.T) {
	cases := []struct {
		name     string
		game     glider
		min, max int // presents in the second
	}{
		{"interpolated, moving", glider{speed: 100, interpolate: true}, 900, 1000},
		{"not interpolated", glider{speed: 100}, 55, 61},
		{"interpolated, still", glider{interpolate: true}, 55, 61},
	}
	for _, mode := range modes {
		for _, c := range cases {
			t.Run(mode.String()+"/"+c.name, func(t *testing.T) {
				clock := runtimetest.NewClock()
				ctx, fakes := runtimetest.NewAdapters(clock)
				fakes.Presenter.Cost = time.Millisecond
				opts := runtimetest.Options(clock, mode)
				opts.Timing.Mode = timing.FixedMode
				opts.Timing.Rate = timing.Rate{Num: 60, Den: 1}
				opts.FrameCap = 0
				g := c.game
				runFor(t, &g, ctx, opts, time.Second)
				n := len(fakes.Renderer.Frames)
				t.Logf("%d presents in 1 s at 1 ms a present (poll spacing %v)", n, opts.Polling.Spacing)
				if n < c.min || n > c.max {
					t.Errorf("%d presents in a second, want %d to %d", n, c.min, c.max)
				}
			})
		}
	}
}

// TestSmoothAfterStall is issue 22's first measure: 60 Hz ticks presented
// on a 144 Hz cap, one stall of the simulation owner at 1 s, under every
// recovery policy. Presents keep the cap's rate throughout. Under
// RepayDebt, while pacing repays the debt, the sprite moves on screen at
// the pace (its step per refresh within MaxSlowDown to MaxSpeedUp of the
// normal one), and once the debt is repaid the motion is as even as before
// the stall; the other policies recover at once.
func TestSmoothAfterStall(t *testing.T) {
	const stallAt = time.Second
	cases := []struct {
		recovery timing.Recovery
		limit    int
		stall    time.Duration
		run      time.Duration
		calm     time.Duration // from here on the motion is even
	}{
		{timing.RepayDebt, 1, 60 * time.Millisecond, 9 * time.Second, 6 * time.Second},
		{timing.RepayDebt, 4, 100 * time.Millisecond, 9 * time.Second, 6 * time.Second},
		{timing.RepayDebt, 4, 500 * time.Millisecond, 12 * time.Second, 10 * time.Second},
		{timing.DropExcessLag, 1, 100 * time.Millisecond, 4 * time.Second, 2 * time.Second},
		{timing.DropExcessLag, 4, 100 * time.Millisecond, 4 * time.Second, 2 * time.Second},
		{timing.VariableCatchUp, 4, 100 * time.Millisecond, 4 * time.Second, 2 * time.Second},
	}
	for _, mode := range modes {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%v/%v/limit-%d/%v-stall", mode, c.recovery, c.limit, c.stall), func(t *testing.T) {
				w := watch(t, motion{mode: mode, tickHz: 60, presentHz: 144, interpolate: true,
					recovery: c.recovery, limit: c.limit, stallAt: stallAt, stall: c.stall, run: c.run})
				after := stallAt + c.stall + 100*time.Millisecond
				for s := after; s+time.Second <= c.run; s += time.Second {
					if fps := w.fps(s, s+time.Second); math.Abs(fps-144) > 3 {
						t.Errorf("%v to %v after the start: %.1f presents/s, want 144 (the cap)", s, s+time.Second, fps)
					}
				}
				if c.recovery == timing.RepayDebt {
					normal := w.speed / 144
					lo, hi := 0.9*normal, 1.25*normal
					for i, d := range w.steps(after, c.calm) {
						if d < lo*0.98 || d > hi*1.02 {
							t.Errorf("refresh %d after %v: the sprite moved %.4f, want %.4f to %.4f (the normal %.4f at the pace's 0.9 to 1.25)", i, after, d, lo, hi, normal)
							break
						}
					}
				}
				cv := w.cv(c.calm, c.run)
				t.Logf("%.1f presents/s from %v to %v; from %v on %.1f presents/s and a CV of per-refresh displacement of %.4f",
					w.fps(after, c.calm), after, c.calm, c.calm, w.fps(c.calm, c.run), cv)
				if cv > 0.02 {
					t.Errorf("CV %.4f from %v on, want at most 0.02", cv, c.calm)
				}
			})
		}
	}
}

// TestVariableFollowsPresentation is issue 22's second measure: variable
// timing presented on a cap updates once per present by default, so the
// sprite moves evenly at any cap; with FollowPresentation off the
// configured interval (1/60 s) applies and a 144 Hz cap judders.
func TestVariableFollowsPresentation(t *testing.T) {
	for _, mode := range modes {
		for _, hz := range []int{144, 60, 165, 30} {
			t.Run(fmt.Sprintf("%v/%dHz", mode, hz), func(t *testing.T) {
				var updates uint64
				w := watch(t, motion{mode: mode, presentHz: hz, run: 3 * time.Second, options: func(o *runtime.Options) {
					o.Timing.Interval = timing.DefaultInterval
				}, updates: &updates})
				cv, fps := w.cv(time.Second, 3*time.Second), w.fps(time.Second, 3*time.Second)
				t.Logf("CV of per-refresh displacement %.4f; %.1f presents/s, %d updates in 3 s", cv, fps, updates)
				if cv > 0.02 {
					t.Errorf("CV %.4f, want at most 0.02", cv)
				}
				if math.Abs(fps-float64(hz)) > 3 {
					t.Errorf("%.1f presents/s, want %d (the cap)", fps, hz)
				}
				if want := uint64(3 * hz); updates < want-3 || updates > want+3 {
					t.Errorf("%d updates in 3 s, want %d (one per present)", updates, want)
				}
			})
		}
		t.Run(mode.String()+"/144Hz-vsync", func(t *testing.T) {
			var updates uint64
			w := watch(t, motion{mode: mode, presentHz: 144, run: 3 * time.Second, options: func(o *runtime.Options) {
				o.FrameCap = 0 // the presenter waits for the refresh instead
			}, vsync: time.Second / 144, updates: &updates})
			cv, fps := w.cv(time.Second, 3*time.Second), w.fps(time.Second, 3*time.Second)
			t.Logf("CV of per-refresh displacement %.4f; %.1f presents/s, %d updates in 3 s", cv, fps, updates)
			if cv > 0.02 || math.Abs(fps-144) > 3 || updates < 429 || updates > 435 {
				t.Errorf("CV %.4f, %.1f presents/s, %d updates in 3 s; want at most 0.02, 144 and 432 (one per refresh)", cv, fps, updates)
			}
		})
		t.Run(mode.String()+"/144Hz-hidden", func(t *testing.T) {
			// Hidden from 1 s to 2 s: updates at the hidden rate, then at
			// the cap again.
			var updates uint64
			var during, after uint64
			watch(t, motion{mode: mode, presentHz: 144, run: 3 * time.Second, updates: &updates,
				hide: [2]time.Duration{time.Second, 2 * time.Second}, counts: func(at time.Duration) {
					switch {
					case at >= 1100*time.Millisecond && at < 2*time.Second:
						during++
					case at >= 2100*time.Millisecond:
						after++
					}
				}})
			t.Logf("%d updates while hidden (0.9 s), %d after (0.9 s)", during, after)
			if during < 8 || during > 10 {
				t.Errorf("%d updates in 0.9 s hidden, want 9 (the 10 Hz hidden rate)", during)
			}
			if after < 126 || after > 132 {
				t.Errorf("%d updates in 0.9 s shown again, want 130 (the cap)", after)
			}
		})
		t.Run(mode.String()+"/144Hz/interval-as-set", func(t *testing.T) {
			var updates uint64
			w := watch(t, motion{mode: mode, presentHz: 144, run: 3 * time.Second, options: func(o *runtime.Options) {
				o.FollowPresentation = false
			}, updates: &updates})
			cv := w.cv(time.Second, 3*time.Second)
			t.Logf("CV of per-refresh displacement %.4f; %.1f presents/s, %d updates in 3 s", cv, w.fps(time.Second, 3*time.Second), updates)
			if updates < 177 || updates > 183 {
				t.Errorf("%d updates in 3 s, want 180 (the 1/60 s interval as set)", updates)
			}
			if cv < 0.5 {
				t.Errorf("CV %.4f: a 60 Hz variable update on a 144 Hz display judders; want it measured as such", cv)
			}
		})
	}
}
