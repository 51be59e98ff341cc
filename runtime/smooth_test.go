package runtime_test

import (
	"fmt"
	"math"
	"testing"
	"time"

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
}

func (g *glider) Update(t *runtime.TickContext) error {
	g.prevX = g.x
	g.x += g.speed * t.DeltaSeconds()
	return nil
}

func (g *glider) PrepareFrame(w *render2d.FrameWriter) error {
	p := render2d.Sprite(render2d.TextureHandle{}, render2d.Rect{}, render2d.Vec2{X: float32(g.x)}, render2d.Vec2{X: 4, Y: 4})
	if g.interpolate {
		p.Prev = render2d.Placement{Position: render2d.Vec2{X: float32(g.prevX)}, Scale: p.Transform.Scale, Tint: p.Tint, Set: true}
	} else {
		w.Frame().Span.Step = 0 // nothing moves between placements
	}
	w.BeginPass(render2d.PassDesc{}).Draw(p)
	return nil
}

// runFor runs g on ctx for d of opts.Clock's time and returns the instant
// it started at.
func runFor(t *testing.T, g runtime.Game, ctx *runtime.Context, opts runtime.Options, d time.Duration) timing.Instant {
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
	clock := runtimetest.NewClock()
	ctx, fakes := runtimetest.NewContext(clock)
	opts := runtimetest.Options(clock, mode)
	opts.Timing.Mode = timing.FixedMode
	opts.Timing.Rate = timing.Rate{Num: int64(tickHz), Den: 1}
	opts.Timing.MaxFixedUpdates = 4
	opts.FrameCap = time.Second / time.Duration(presentHz)
	start := runFor(t, &glider{speed: 100, interpolate: interpolate}, ctx, opts, 3*time.Second)
	// What the display shows at each refresh of a presentHz display: the
	// latest present at or before it (a refresh without a present shows
	// the previous image again). Refreshes fall half a period after the
	// cap's targets, so that no refresh coincides with a tick to the
	// nanosecond.
	frames := fakes.Renderer.Frames
	var xs []float64
	shown, next := -1, 0
	for k := presentHz; k < 3*presentHz; k++ {
		refresh := start + timing.Instant((2*int64(k)+1)*int64(time.Second)/int64(2*presentHz))
		for next < len(frames) && frames[next].Present.At <= refresh {
			shown, next = next, next+1
		}
		if shown < 0 {
			continue
		}
		f := &frames[shown]
		p := f.Passes[0].Packets[0].Resolved(f.Present.Alpha)
		xs = append(xs, float64(p.Transform.Position.X))
	}
	presents := 0
	for _, f := range frames {
		if f.Present.At-start >= timing.Instant(time.Second) {
			presents++
		}
	}
	var sum, sq float64
	n := float64(len(xs) - 1)
	for i := 1; i < len(xs); i++ {
		d := xs[i] - xs[i-1]
		sum += d
		sq += d * d
	}
	mean := sum / n
	return math.Sqrt(max(sq/n-mean*mean, 0)) / mean, float64(presents) / 2
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
				ctx, fakes := runtimetest.NewContext(clock)
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
