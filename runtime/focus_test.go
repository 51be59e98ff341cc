package runtime_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// windowGame records, for every update, when it ran and the window its
// tick carried, and stops at stopAt. onUpdate runs in each update.
type windowGame struct {
	runtime.Base
	clock    *runtimetest.Clock
	stopAt   time.Duration
	onUpdate func(g *windowGame, t *runtime.TickContext)

	rt      *runtime.GameRuntime
	mu      sync.Mutex
	updates []windowUpdate
}

type windowUpdate struct {
	at     time.Duration // since runtimetest.Start
	delta  time.Duration
	window input.Window
}

func (g *windowGame) InitSimulation(sim *runtime.Simulation) error {
	return nil
}

func (g *windowGame) Update(t *runtime.TickContext) error {
	at := time.Duration(g.clock.Now() - runtimetest.Start)
	g.mu.Lock()
	g.updates = append(g.updates, windowUpdate{at: at, delta: t.Delta, window: t.Window})
	g.mu.Unlock()
	if g.onUpdate != nil {
		g.onUpdate(g, t)
	}
	if at >= g.stopAt {
		return t.RequestStop()
	}
	return nil
}

func (g *windowGame) list() []windowUpdate {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]windowUpdate(nil), g.updates...)
}

// between returns the updates that ran in [from, to).
func between(us []windowUpdate, from, to time.Duration) []windowUpdate {
	var out []windowUpdate
	for _, u := range us {
		if u.at >= from && u.at < to {
			out = append(out, u)
		}
	}
	return out
}

// focusRun runs a session of 10 ms fixed steps (DropExcessLag, one update
// per batch) whose window loses focus at 200 ms and gets it back at 700 ms,
// until 1 s, under policy. It returns the game, the runtime, the presents
// and the pacing interval the telemetry reported at 450 ms.
func focusRun(t *testing.T, mode runtime.Mode, policy runtime.FocusPolicy) (*windowGame, *runtime.GameRuntime, []time.Duration, time.Duration) {
	t.Helper()
	clock := runtimetest.NewClock()
	ctx, fakes := runtimetest.NewAdapters(clock)
	fakes.Display.Focus(clock.At(200*time.Millisecond), false).Focus(clock.At(700*time.Millisecond), true)
	opts := runtimetest.Options(clock, mode)
	opts.Timing.Mode = timing.FixedMode
	opts.Timing.FixedStep = 10 * time.Millisecond
	opts.FocusPolicy = policy
	g := &windowGame{clock: clock, stopAt: time.Second}
	rt, err := runtime.New(g, ctx, opts)
	g.rt = rt
	if err != nil {
		t.Fatal(err)
	}
	var pacing time.Duration
	if _, err := rt.Services().Attach(runtime.Maintenance, func(now timing.Instant) error {
		if pacing == 0 && now >= clock.At(450*time.Millisecond) {
			pacing = rt.Telemetry().PacingInterval
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := rt.Run(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	var presents []time.Duration
	for _, at := range fakes.Presenter.Instants() {
		presents = append(presents, time.Duration(at-runtimetest.Start))
	}
	return g, rt, presents, pacing
}

// TestFocusPolicies: focus loss under each policy, on virtual time, with
// the ledger balanced.
func TestFocusPolicies(t *testing.T) {
	const (
		lost = 200 * time.Millisecond
		back = 700 * time.Millisecond
	)
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			t.Run("run", func(t *testing.T) {
				g, rt, _, pacing := focusRun(t, mode, runtime.FocusRun)
				away := between(g.list(), lost+time.Millisecond, back)
				if len(away) < 45 {
					t.Errorf("%d updates while unfocused, want about 50 (the policy keeps running)", len(away))
				}
				for _, u := range away {
					if u.window.Focused {
						t.Fatalf("update at %v while unfocused saw a focused window", u.at)
					}
				}
				l := rt.TimingStats().Ledger
				if !l.Balanced() || l.Suspended != 0 || l.Dropped() != 0 {
					t.Errorf("ledger %+v: want balanced, nothing suspended or dropped", l)
				}
				if pacing != 0 {
					t.Errorf("pacing interval while unfocused: %v, want 0 (no cap)", pacing)
				}
			})
			t.Run("pause", func(t *testing.T) {
				g, rt, presents, _ := focusRun(t, mode, runtime.FocusPause)
				us := g.list()
				if away := between(us, lost+time.Millisecond, back); len(away) != 0 {
					t.Errorf("%d updates while paused (first at %v), want none", len(away), away[0].at)
				}
				after := between(us, back, time.Hour)
				if len(after) < 25 {
					t.Fatalf("%d updates after focus came back, want about 30", len(after))
				}
				if u := after[0]; !u.window.Focused || u.delta != 10*time.Millisecond || u.at > back+10*time.Millisecond {
					t.Errorf("first update after the pause %+v: want a focused window, one 10ms step, within a step of %v", u, back)
				}
				l := rt.TimingStats().Ledger
				// Suspended from the poll that saw the focus go to the
				// cycle that saw it back: one poll spacing (4 ms) of slack.
				if !l.Balanced() || l.Dropped() != 0 || l.Suspended < back-lost || l.Suspended > back-lost+4*time.Millisecond {
					t.Errorf("ledger %+v: want balanced, nothing dropped, %v suspended (to within 4ms)", l, back-lost)
				}
				// Updates simulated everything but the pause.
				if want := l.Real - l.Suspended - l.Pending(); l.Simulated != want {
					t.Errorf("simulated %v, want %v", l.Simulated, want)
				}
				if s := rt.TimingStats(); s.Suspended != l.Suspended {
					t.Errorf("Stats.Suspended %v, ledger %v", s.Suspended, l.Suspended)
				}
				// The last frame was shown; nothing new to present meanwhile.
				for _, p := range presents {
					if p > lost+time.Millisecond && p < back {
						t.Errorf("present at %v while paused", p)
						break
					}
				}
			})
			t.Run("throttle", func(t *testing.T) {
				g, rt, presents, pacing := focusRun(t, mode, runtime.FocusThrottle)
				away := between(g.list(), lost+50*time.Millisecond, back)
				if n := len(away); n < 3 || n > 6 {
					t.Errorf("%d updates in 450ms while throttled, want about 4 (10 Hz)", n)
				}
				var shown int
				for _, p := range presents {
					if p >= lost+50*time.Millisecond && p < back {
						shown++
					}
				}
				if shown < 3 || shown > 6 {
					t.Errorf("%d presents in 450ms while throttled, want about 4: it keeps presenting at 10 Hz", shown)
				}
				if pacing != runtime.DefaultHiddenInterval {
					t.Errorf("pacing interval while throttled: %v, want %v", pacing, runtime.DefaultHiddenInterval)
				}
				if after := between(g.list(), back+20*time.Millisecond, time.Hour); len(after) < 25 {
					t.Errorf("%d updates after focus came back, want about 28", len(after))
				}
				if l := rt.TimingStats().Ledger; !l.Balanced() || l.Suspended != 0 {
					t.Errorf("ledger %+v: want balanced, nothing suspended", l)
				}
			})
		})
	}
}

// TestSetFocusPolicy switches to FocusPause while the window is already
// unfocused, and back to FocusRun: the pause follows at the next poll.
func TestSetFocusPolicy(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			clock := runtimetest.NewClock()
			ctx, fakes := runtimetest.NewAdapters(clock)
			fakes.Display.Focus(clock.At(100*time.Millisecond), false)
			g := &windowGame{clock: clock, stopAt: 800 * time.Millisecond}
			opts := runtimetest.Options(clock, mode)
			rt, err := runtime.New(g, ctx, opts)
			g.rt = rt
			if err != nil {
				t.Fatal(err)
			}
			var set, unset bool
			if _, err := rt.Services().Attach(runtime.Maintenance, func(now timing.Instant) error {
				switch {
				case !set && now >= clock.At(300*time.Millisecond):
					set = true
					return rt.SetFocusPolicy(runtime.FocusPause)
				case !unset && now >= clock.At(600*time.Millisecond):
					unset = true
					return rt.SetFocusPolicy(runtime.FocusRun)
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if err := rt.Run(); err != nil {
				t.Fatal(err)
			}
			us := g.list()
			if n := len(between(us, 100*time.Millisecond, 300*time.Millisecond)); n < 10 {
				t.Errorf("%d updates unfocused under FocusRun, want about 12", n)
			}
			if n := len(between(us, 305*time.Millisecond, 600*time.Millisecond)); n != 0 {
				t.Errorf("%d updates after SetFocusPolicy(FocusPause), want none", n)
			}
			if n := len(between(us, 610*time.Millisecond, time.Hour)); n < 10 {
				t.Errorf("%d updates after SetFocusPolicy(FocusRun), want about 12", n)
			}
			if l := rt.TimingStats().Ledger; !l.Balanced() || l.Suspended < 295*time.Millisecond || l.Suspended > 305*time.Millisecond {
				t.Errorf("ledger %+v: want balanced, about 300ms suspended", l)
			}
			if got := rt.Options().FocusPolicy; got != runtime.FocusRun {
				t.Errorf("Options().FocusPolicy = %v, want run", got)
			}
			if err := rt.SetFocusPolicy(runtime.FocusPolicy(7)); err == nil || !strings.Contains(err.Error(), "not valid") {
				t.Errorf("SetFocusPolicy(7): %v, want an error naming the valid policies", err)
			}
		})
	}
}

func TestFocusPolicyText(t *testing.T) {
	for _, p := range []runtime.FocusPolicy{runtime.FocusRun, runtime.FocusPause, runtime.FocusThrottle} {
		b, err := p.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back runtime.FocusPolicy
		if err := back.UnmarshalText([]byte(strings.ToUpper(string(b)))); err != nil || back != p {
			t.Errorf("%v: round trip gave %v, %v", p, back, err)
		}
	}
	var p runtime.FocusPolicy
	if err := p.UnmarshalText([]byte("sleep")); err == nil || !strings.Contains(err.Error(), `"run", "pause", "throttle"`) {
		t.Errorf("UnmarshalText(sleep): %v, want the valid words", err)
	}
	if _, err := runtime.FocusPolicy(3).MarshalText(); err == nil {
		t.Error("FocusPolicy(3).MarshalText: no error")
	}
	o := runtime.DefaultOptions()
	o.FocusPolicy = 3
	err := o.Validate()
	if err == nil || !strings.Contains(err.Error(), "Options.FocusPolicy") || !strings.Contains(err.Error(), "0 run, 1 pause, 2 throttle") {
		t.Errorf("Validate with FocusPolicy 3: %v, want the field and its range", err)
	}
}

// noFullscreen hides the fake display's SetFullscreen.
type noFullscreen struct{ runtime.Display }

// TestWindowFacts: content scale, minimising and fullscreen reach the
// ticks with the polls that saw them; a minimised window slows down and
// presents nothing; SetFullscreen reaches the display on the platform
// thread.
func TestWindowFacts(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			clock := runtimetest.NewClock()
			ctx, fakes := runtimetest.NewAdapters(clock)
			fakes.Display.ContentScale(clock.At(100*time.Millisecond), input.Scale{X: 2, Y: 2}).
				Minimize(clock.At(300*time.Millisecond), true).Minimize(clock.At(600*time.Millisecond), false)
			var future *runtime.Future[struct{}]
			var result error
			g := &windowGame{clock: clock, stopAt: 900 * time.Millisecond}
			g.onUpdate = func(g *windowGame, t *runtime.TickContext) {
				at := time.Duration(clock.Now() - runtimetest.Start)
				if future == nil && at >= 150*time.Millisecond {
					future = g.rt.SetFullscreen(true)
				}
				if future != nil && future.Ready() && result == nil {
					_, result = future.Result()
					if result == nil {
						result = errors.New("ok")
					}
				}
			}
			rt, err := runtime.New(g, ctx, runtimetest.Options(clock, mode))
			g.rt = rt
			if err != nil {
				t.Fatal(err)
			}
			if err := rt.Run(); err != nil {
				t.Fatal(err)
			}
			if result == nil || result.Error() != "ok" {
				t.Errorf("SetFullscreen future: %v, want a nil error", result)
			}
			if got := fakes.Display.FullscreenCalls(); len(got) != 1 || !got[0] {
				t.Errorf("display SetFullscreen calls %v, want [true]", got)
			}
			us := g.list()
			for _, u := range us {
				switch {
				case u.at < 100*time.Millisecond && u.window.Scale != (input.Scale{X: 1, Y: 1}):
					t.Fatalf("update at %v: scale %v, want 1x1", u.at, u.window.Scale)
				case u.at >= 105*time.Millisecond && u.window.Scale != (input.Scale{X: 2, Y: 2}):
					t.Fatalf("update at %v: scale %v, want 2x2", u.at, u.window.Scale)
				case u.at >= 310*time.Millisecond && u.at < 600*time.Millisecond && !u.window.Minimized:
					t.Fatalf("update at %v: not minimised", u.at)
				case u.at >= 610*time.Millisecond && (u.window.Minimized || !u.window.Fullscreen):
					t.Fatalf("update at %v: window %+v, want restored and fullscreen", u.at, u.window)
				}
			}
			if n := len(between(us, 310*time.Millisecond, 600*time.Millisecond)); n > 4 {
				t.Errorf("%d updates in 290ms while minimised, want at most about 3 (10 Hz)", n)
			}
			for _, at := range fakes.Presenter.Instants() {
				if d := time.Duration(at - runtimetest.Start); d > 305*time.Millisecond && d < 600*time.Millisecond {
					t.Errorf("present at %v while minimised", d)
					break
				}
			}
		})
	}
}

func TestSetFullscreenUnsupported(t *testing.T) {
	clock := runtimetest.NewClock()
	ctx, _ := runtimetest.NewAdapters(clock)
	ctx.Display = noFullscreen{ctx.Display}
	var got error = errors.New("never ready")
	g := &windowGame{clock: clock, stopAt: 100 * time.Millisecond}
	var future *runtime.Future[struct{}]
	g.onUpdate = func(g *windowGame, t *runtime.TickContext) {
		if future == nil {
			future = g.rt.SetFullscreen(true)
		} else if future.Ready() {
			_, got = future.Result()
		}
	}
	rt, err := runtime.New(g, ctx, runtimetest.Options(clock, runtime.Sequential))
	g.rt = rt
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Run(); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(got, runtime.ErrNoFullscreen) {
		t.Errorf("SetFullscreen on a display without it: %v, want ErrNoFullscreen", got)
	}
}

// ExampleFocusPolicy pauses a game while its window is unfocused: the
// time away is suspended, not simulated and not dropped.
func ExampleFocusPolicy() {
	clock := runtimetest.NewClock()
	ctx, fakes := runtimetest.NewAdapters(clock)
	fakes.Display.Focus(clock.At(100*time.Millisecond), false).Focus(clock.At(1100*time.Millisecond), true)
	opts := runtimetest.Options(clock, runtime.Sequential)
	opts.Timing.Mode = timing.FixedMode
	opts.Timing.FixedStep = 10 * time.Millisecond
	opts.FocusPolicy = runtime.FocusPause
	g := &windowGame{clock: clock, stopAt: 1200 * time.Millisecond}
	rt, err := runtime.New(g, ctx, opts)
	g.rt = rt
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rt.Run())
	l := rt.TimingStats().Ledger
	fmt.Println("updates:", len(g.list()))
	fmt.Println("suspended:", l.Suspended, "dropped:", l.Dropped(), "balanced:", l.Balanced())
	// Output:
	// <nil>
	// updates: 20
	// suspended: 1s dropped: 0s balanced: true
}
