package runtime_test

import (
	"fmt"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// windowTick is what one update saw, in milliseconds from the start.
type windowTick struct {
	number            uint64
	start, end        float64 // the update's span
	inStart, inEnd    float64 // its input interval
	held              float64 // how long the held key was down in it
	debt              int64   // debt in whole steps
	hidden, minimized bool
	focused           bool
}

func (w windowTick) String() string {
	return fmt.Sprintf("tick %d [%g, %g) input [%g, %g) held %g debt %d hidden %v minimized %v focused %v",
		w.number, w.start, w.end, w.inStart, w.inEnd, w.held, w.debt, w.hidden, w.minimized, w.focused)
}

// windowSession runs 10 ms fixed steps on virtual time through a script
// of window changes, with a key held from 100 ms to 700 ms, and returns
// every tick.
func windowSession(t *testing.T, mode runtime.Mode, recovery timing.Recovery, delivery input.Delivery, focus runtime.FocusPolicy, script func(d *runtimetest.Display, at func(time.Duration) timing.Instant)) []windowTick {
	t.Helper()
	clock := runtimetest.NewClock()
	ctx, fakes := runtimetest.NewAdapters(clock)
	script(fakes.Display, clock.At)
	fakes.Input.Press(clock.At(100*time.Millisecond), input.KeyH)
	fakes.Input.Release(clock.At(700*time.Millisecond), input.KeyH)
	opts := runtimetest.Options(clock, mode)
	opts.Timing.Mode = timing.FixedMode
	opts.Timing.FixedStep = 10 * time.Millisecond
	opts.Timing.Recovery = recovery
	opts.Timing.MaxFixedUpdates = 4
	opts.Polling.Delivery = delivery
	opts.FocusPolicy = focus
	opts.Actions = input.NewActions()
	held, err := opts.Actions.RegisterNames("held", "H")
	if err != nil {
		t.Fatal(err)
	}
	ms := func(at timing.Instant) float64 { return float64(at-clock.At(0)) / float64(time.Millisecond) }
	var ticks []windowTick
	g := &funcGame{update: func(tk *runtime.TickContext) error {
		ticks = append(ticks, windowTick{
			number: tk.Number, start: ms(tk.Start), end: ms(tk.End),
			inStart: ms(tk.Input.Start()), inEnd: ms(tk.Input.End()),
			held: float64(tk.Input.Held(held)) / float64(time.Millisecond),
			debt: tk.Timing.Debt, hidden: tk.Window.Hidden, minimized: tk.Window.Minimized,
			focused: tk.Window.Focused,
		})
		if tk.End >= clock.At(time.Second) {
			return tk.RequestStop()
		}
		return nil
	}}
	rt, err := runtime.New(g, ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Run(); err != nil {
		t.Fatal(err)
	}
	return ticks
}

// funcGame is a game whose Update is a function.
type funcGame struct {
	runtime.Base
	update func(*runtime.TickContext) error
}

func (g *funcGame) Update(t *runtime.TickContext) error { return g.update(t) }

// TestSameTicksThroughWindowChanges hides, shows, minimises, restores and
// unfocuses the window on virtual time, dropping lag or repaying debt (up to
// four updates a batch), under each delivery policy and focus policy, and
// runs each case in both modes with one and two
// processors: every run gives the same ticks, input intervals, debt and
// window facts (issue 22, item 5: with the window hidden from 150 ms to
// 260 ms, sequential mode ran updates at 252 and 352 ms, concurrent mode at
// 250 and 350 ms, and concurrent ticks reported Hidden for four ticks after
// the window was shown).
func TestSameTicksThroughWindowChanges(t *testing.T) {
	scripts := []struct {
		name   string
		script func(d *runtimetest.Display, at func(time.Duration) timing.Instant)
	}{
		{"hide", func(d *runtimetest.Display, at func(time.Duration) timing.Instant) {
			d.Hide(at(150 * time.Millisecond)).Show(at(260 * time.Millisecond))
		}},
		{"hide twice, minimise, focus", func(d *runtimetest.Display, at func(time.Duration) timing.Instant) {
			d.Hide(at(150 * time.Millisecond)).Show(at(260 * time.Millisecond))
			d.Minimize(at(333*time.Millisecond), true).Minimize(at(478*time.Millisecond), false)
			d.Focus(at(505*time.Millisecond), false).Focus(at(655*time.Millisecond), true)
			d.Hide(at(701 * time.Millisecond)).Show(at(904 * time.Millisecond))
		}},
	}
	for _, sc := range scripts {
		for _, c := range []struct {
			recovery timing.Recovery
			delivery input.Delivery
			focus    runtime.FocusPolicy
		}{
			{timing.DropExcessLag, input.Backlog, runtime.FocusRun},
			{timing.DropExcessLag, input.Timestamped, runtime.FocusRun},
			{timing.RepayDebt, input.Backlog, runtime.FocusRun},
			{timing.RepayDebt, input.Timestamped, runtime.FocusRun},
			{timing.RepayDebt, input.Timestamped, runtime.FocusThrottle},
			{timing.DropExcessLag, input.Backlog, runtime.FocusPause},
			{timing.RepayDebt, input.Timestamped, runtime.FocusPause},
		} {
			{
				t.Run(fmt.Sprintf("%s/%v/%v/%v", sc.name, c.recovery, c.delivery, c.focus), func(t *testing.T) {
					var want []windowTick
					for _, mode := range modes {
						for _, procs := range []int{1, 2} {
							prev := goruntime.GOMAXPROCS(procs)
							got := windowSession(t, mode, c.recovery, c.delivery, c.focus, sc.script)
							goruntime.GOMAXPROCS(prev)
							if want == nil {
								want = got
								continue
							}
							for i := range min(len(got), len(want)) {
								if got[i] != want[i] {
									t.Fatalf("%v, GOMAXPROCS %d: %v\nwant (sequential, 1): %v", mode, procs, got[i], want[i])
								}
							}
							if len(got) != len(want) {
								t.Fatalf("%v, GOMAXPROCS %d: %d ticks, want %d", mode, procs, len(got), len(want))
							}
						}
					}
					if len(want) == 0 {
						t.Fatal("no ticks")
					}
				})
			}
		}
	}
}
