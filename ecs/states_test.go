package ecs_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/timing"
)

func TestTicksFor(t *testing.T) {
	const hz120 = time.Second / 120 // 8.333333 ms
	tests := []struct {
		name  string
		kind  timing.Kind
		delta time.Duration
		steps int
		d     time.Duration
		want  uint64
	}{
		// At 120 Hz the scheduler's step is 8333333 ns and deltas alternate
		// between 8333333 and 8333334 ns: a second is 120 ticks on either.
		{"fixed, a second at 120 Hz", timing.FixedUpdate, hz120, 1, time.Second, 120},
		{"fixed, a second at 120 Hz, the longer delta", timing.FixedUpdate, hz120 + 1, 1, time.Second, 120},
		{"fixed, just under a second at 120 Hz", timing.FixedUpdate, hz120, 1, time.Second - time.Microsecond, 120},
		{"fixed, just over a second at 120 Hz", timing.FixedUpdate, hz120 + 1, 1, time.Second + time.Microsecond, 121},
		{"fixed, half a second at 120 Hz", timing.FixedUpdate, hz120 + 1, 1, time.Second / 2, 60},
		{"fixed, whole steps", timing.FixedUpdate, 10 * time.Millisecond, 1, time.Second, 100},
		{"fixed, rounded up", timing.FixedUpdate, 10 * time.Millisecond, 1, 15 * time.Millisecond, 2},
		{"fixed, one step", timing.FixedUpdate, 10 * time.Millisecond, 1, 10 * time.Millisecond, 1},
		{"fixed, less than a step", timing.FixedUpdate, 10 * time.Millisecond, 1, time.Millisecond, 1},
		{"fixed, zero", timing.FixedUpdate, 10 * time.Millisecond, 1, 0, 1},
		{"fixed, negative", timing.FixedUpdate, 10 * time.Millisecond, 1, -time.Second, 1},
		{"merged catch-up of 3 steps: still the step", timing.CatchUpUpdate, 30 * time.Millisecond, 3, 100 * time.Millisecond, 10},
		{"variable: by this tick's delta", timing.VariableUpdate, 16 * time.Millisecond, 0, 100 * time.Millisecond, 7},
		{"variable, zero delta", timing.VariableUpdate, 0, 0, time.Second, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApp(t, ecs.Options{})
			var got uint64
			a.AddSystem(ecs.Update, ecs.System{Name: "convert", Run: func(ctx *ecs.Sys) { got = ctx.TicksFor(tt.d) }})
			tk := tick(1, 0)
			tk.Kind, tk.Delta, tk.Steps = tt.kind, tt.delta, tt.steps
			if tt.kind != timing.VariableUpdate {
				// What the scheduler reports: its step, rounded down.
				tk.Timing.Mode, tk.Timing.Step = timing.FixedMode, tt.delta/time.Duration(max(tt.steps, 1))
				if tt.delta == hz120+1 {
					tk.Timing.Step = hz120
				}
			}
			if err := a.Update(tk); err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("TicksFor(%v) with delta %v over %d steps: got %d, want %d", tt.d, tt.delta, tt.steps, got, tt.want)
			}
		})
	}
}

// TestAfterTime: in fixed mode a timer fires on the tick After(TicksFor(d))
// does; in variable mode, on the first tick that starts at or after its
// due game time, whatever the tick lengths.
func TestAfterTime(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name   string
		deltas []time.Duration // tick lengths, the first being the tick that schedules
		steps  int
		d      time.Duration
	}{
		{"fixed 10 ms, 35 ms", []time.Duration{10 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms}, 1, 35 * ms},
		{"fixed 10 ms, 40 ms", []time.Duration{10 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms}, 1, 40 * ms},
		{"variable, irregular", []time.Duration{16 * ms, 7 * ms, 33 * ms, 2 * ms, 50 * ms, 16 * ms, 16 * ms}, 0, 55 * ms},
		{"variable, due exactly at a tick start", []time.Duration{16 * ms, 7 * ms, 33 * ms, 2 * ms, 50 * ms}, 0, 56 * ms},
		{"fixed 10 ms, zero: the next tick", []time.Duration{10 * ms, 10 * ms, 10 * ms}, 1, 0},
		{"variable, zero: the next tick", []time.Duration{16 * ms, 7 * ms, 33 * ms}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApp(t, ecs.Options{})
			byTime, byTicks := uint64(0), uint64(0)
			var startGame []time.Duration // game time at the start of each tick
			a.AddSystem(ecs.PreUpdate, ecs.System{Name: "schedule", Run: func(ctx *ecs.Sys) {
				startGame = append(startGame, ctx.Time.Game-ctx.Time.Delta)
				if ctx.Time.Number != 1 {
					return
				}
				if _, err := ctx.AfterTime(tt.d, ecs.Event{Run: func(ctx *ecs.Sys, _ ecs.EventDelivery) { byTime = ctx.Time.Number }}); err != nil {
					ctx.Fail(err)
				}
				if _, err := ctx.Queue.After(ctx.TicksFor(tt.d), ecs.Event{Run: func(ctx *ecs.Sys, _ ecs.EventDelivery) { byTicks = ctx.Time.Number }}); err != nil {
					ctx.Fail(err)
				}
			}})
			for i, d := range tt.deltas {
				tk := tick(uint64(i+1), 0)
				tk.Delta, tk.Steps = d, tt.steps
				if tt.steps == 0 {
					tk.Kind = timing.VariableUpdate
				}
				if err := a.Update(tk); err != nil {
					t.Fatal(err)
				}
			}
			if byTime == 0 {
				t.Fatal("the timer never fired")
			}
			fired := startGame[byTime-1]
			if tt.d == 0 {
				if byTime != 2 {
					t.Errorf("AfterTime(0) fired on tick %d, want 2 (the next tick)", byTime)
				}
			} else if fired < tt.d || startGame[byTime-2] >= tt.d {
				t.Errorf("fired on tick %d, which starts at %v of game time; want the first tick starting at or after %v (starts: %v)", byTime, fired, tt.d, startGame)
			}
			if tt.steps == 1 && byTicks != byTime {
				t.Errorf("fixed mode: AfterTime fired on tick %d, After(TicksFor) on tick %d", byTime, byTicks)
			}
		})
	}
	if _, err := (&ecs.Sys{}).AfterTime(-time.Nanosecond, ecs.Event{}); err == nil || !strings.Contains(err.Error(), "allowed 0 (the next tick) or above") {
		t.Errorf("AfterTime(-1ns): got %v, want an error giving the allowed range", err)
	}
}

type screen int

const (
	menu screen = iota
	play
	paused
	over
)

func (s screen) String() string { return [...]string{"menu", "play", "paused", "over"}[s] }

// TestStatesAndPause plays menu → play → pause → play → game over, one
// command per tick, and checks which systems ran, the enter and exit
// systems, and that pause stops game time, the gameplay queue and the
// timers for gameplay systems while the menu systems go on.
func TestStatesAndPause(t *testing.T) {
	a := newApp(t, ecs.Options{})
	st := ecs.AddStates(a, menu).PauseIn(paused)
	var log []string
	note := func(format string, args ...any) { log = append(log, fmt.Sprintf(format, args...)) }
	for _, s := range []screen{menu, play, paused, over} {
		st.OnEnter(s, ecs.System{Name: "enter", Run: func(ctx *ecs.Sys) { note("enter %v", s) }})
		st.OnExit(s, ecs.System{Name: "exit", Run: func(ctx *ecs.Sys) { note("exit %v", s) }})
	}
	// The script: what the input asks for on each tick.
	script := map[uint64]screen{2: play, 5: paused, 9: play, 13: over, 14: over}
	moved, menus := 0, 0
	a.AddSystem(ecs.PreUpdate, ecs.System{Name: "input", Run: func(ctx *ecs.Sys) {
		if next, ok := script[ctx.Time.Number]; ok {
			st.Set(next)
			if st.Current() == next {
				note("tick %d: already %v", ctx.Time.Number, next)
			}
		}
	}})
	a.AddSystem(ecs.Update, ecs.System{Name: "serve", Gameplay: true, When: ecs.InState(st, play), Run: func(ctx *ecs.Sys) {
		moved++
		if moved == 1 {
			// Due after 5 ticks of play, and after 5 steps of game time.
			if _, err := ctx.Queue.After(5, ecs.Event{Run: func(ctx *ecs.Sys, _ ecs.EventDelivery) {
				note("tick %d: serve (queue, game time %v)", ctx.Time.Number, ctx.Time.Game)
			}}); err != nil {
				ctx.Fail(err)
			}
			if _, err := ctx.AfterTime(5*step, ecs.Event{Run: func(ctx *ecs.Sys, _ ecs.EventDelivery) {
				note("tick %d: serve (timer)", ctx.Time.Number)
			}}); err != nil {
				ctx.Fail(err)
			}
		}
	}})
	a.AddSystem(ecs.Update, ecs.System{Name: "menu", When: ecs.InState(st, menu, paused, over), Run: func(*ecs.Sys) { menus++ }})
	var games, elapsed []time.Duration
	a.AddSystem(ecs.PostUpdate, ecs.System{Name: "clock", Run: func(ctx *ecs.Sys) {
		games = append(games, ctx.Time.Game)
		elapsed = append(elapsed, ctx.Time.Elapsed)
		if ctx.Time.Paused != (st.Current() == paused) || a.Paused() != ctx.Time.Paused {
			t.Errorf("tick %d in %v: Time.Paused %v, App.Paused %v", ctx.Time.Number, st.Current(), ctx.Time.Paused, a.Paused())
		}
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	for n := uint64(1); n <= 16; n++ {
		if err := a.Update(tick(n, 0)); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		"enter menu",
		"exit menu", "enter play", // tick 3
		"exit play", "enter paused", // tick 6
		"exit paused", "enter play", // tick 10
		// Scheduled on tick 3, the first of play, whose start is 40 ms of
		// game time: the menu ticks 1 and 2 are not paused. Five ticks of
		// play on are 4, 5, then (paused 6 to 9) 10, 11 and 12, which starts
		// at 140 ms of game time.
		"tick 12: serve (timer)", "tick 12: serve (queue, game time 160ms)",
		"exit play", "enter over", // tick 14
		"tick 14: already over",
	}
	if got := strings.Join(log, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("log:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	// Play on ticks 3-5 and 10-13; menus on 1-2, 6-9 and 14-16.
	if moved != 7 || menus != 9 {
		t.Errorf("gameplay system ran %d times, menu system %d; want 7 and 9", moved, menus)
	}
	if got, want := games[15], 12*step; got != want {
		t.Errorf("game time after 16 ticks with 4 paused: got %v, want %v", got, want)
	}
	if got, want := elapsed[15], 16*step; got != want {
		t.Errorf("simulation time after 16 ticks: got %v, want %v", got, want)
	}
	if got := st.Transitions(); got != 4 {
		t.Errorf("transitions: got %d, want 4", got)
	}
}

func TestStatesTransitionAtTheStartOfTheNextTick(t *testing.T) {
	a := newApp(t, ecs.Options{})
	st := ecs.AddStates(a, menu)
	var seen []string
	a.AddSystem(ecs.Update, ecs.System{Name: "a", Run: func(ctx *ecs.Sys) {
		if ctx.Time.Number == 1 {
			st.Set(play)
			st.Set(over) // the last asked wins
		}
		if ctx.Time.Number == 2 {
			st.Set(play)
			st.Set(over) // back to the current state: nothing pending
		}
		seen = append(seen, "a:"+st.Current().String())
	}})
	a.AddSystem(ecs.Update, ecs.System{Name: "b", Run: func(ctx *ecs.Sys) {
		next, ok := st.Next()
		seen = append(seen, fmt.Sprintf("b:%v(next %v %v)", st.Current(), next, ok))
	}})
	for n := uint64(1); n <= 3; n++ {
		if err := a.Update(tick(n, 0)); err != nil {
			t.Fatal(err)
		}
	}
	want := "a:menu b:menu(next over true) a:over b:over(next over false) a:over b:over(next over false)"
	if got := strings.Join(seen, " "); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if ecs.GetResource[ecs.States[screen]](a.World()) != st {
		t.Error("the states are not a world resource")
	}
	defer func() {
		if recover() == nil {
			t.Error("a second AddStates of one type did not panic")
		}
	}()
	ecs.AddStates(a, play)
}

// TestSetPausedWithoutStates: SetPaused works from the next tick, and a
// cosmetic gameplay system catches up only the time of play.
func TestSetPausedWithoutStates(t *testing.T) {
	a := newApp(t, ecs.Options{})
	var deltas []time.Duration
	a.AddSystem(ecs.Update, ecs.System{Name: "pause", Run: func(ctx *ecs.Sys) {
		switch ctx.Time.Number {
		case 2:
			ctx.SetPaused(true)
		case 4:
			ctx.SetPaused(false)
		}
	}})
	a.AddSystem(ecs.Update, ecs.System{Name: "sparks", Gameplay: true, Cosmetic: true, Run: func(ctx *ecs.Sys) {
		deltas = append(deltas, ctx.RunDelta())
	}})
	for n := uint64(1); n <= 6; n++ {
		tc := tick(n, 0)
		tc.Coarse = n == 2 // a cosmetic skip just before the pause
		if err := a.Update(tc); err != nil {
			t.Fatal(err)
		}
	}
	// Ticks 1, 2 (coarse: skipped), paused 3, 4, then 5 (2's time and its
	// own), 6.
	want := []time.Duration{step, 2 * step, step}
	if fmt.Sprint(deltas) != fmt.Sprint(want) {
		t.Errorf("cosmetic gameplay deltas: got %v, want %v", deltas, want)
	}
	if st := a.Systems()[1]; st.Runs != 3 || st.Skipped != 3 {
		t.Errorf("stats: got %+v, want 3 runs and 3 skips", st)
	}
}

// An enter system's Queue.After(n) counts from the tick it runs in, like
// After(n) anywhere else in that tick: an event scheduled on entering at
// tick T is delivered on tick T+n, and one due on T itself is delivered
// after the enter system, in the new state.
func TestQueueAfterInEnterSystems(t *testing.T) {
	a := newApp(t, ecs.Options{})
	st := ecs.AddStates(a, menu)
	var got []string
	note := func(f string, args ...any) { got = append(got, fmt.Sprintf(f, args...)) }
	st.OnEnter(play, ecs.System{Name: "enter", Run: func(ctx *ecs.Sys) {
		note("enter at %d", ctx.Time.Number)
		if _, err := ctx.Queue.After(3, ecs.Event{Run: func(ctx *ecs.Sys, _ ecs.EventDelivery) {
			note("enter's event at %d", ctx.Time.Number)
		}}); err != nil {
			ctx.Fail(err)
		}
	}})
	a.AddSystem(ecs.Update, ecs.System{Name: "update", Run: func(ctx *ecs.Sys) {
		if ctx.Time.Number == 2 {
			st.Set(play) // entered at the start of tick 3
			if _, err := ctx.Queue.After(1, ecs.Event{Run: func(ctx *ecs.Sys, _ ecs.EventDelivery) {
				note("update's event at %d in %v", ctx.Time.Number, st.Current())
			}}); err != nil {
				ctx.Fail(err)
			}
		}
	}})
	for n := uint64(1); n <= 8; n++ {
		if err := a.Update(tick(n, 0)); err != nil {
			t.Fatal(err)
		}
	}
	want := "enter at 3; update's event at 3 in play; enter's event at 6"
	if s := strings.Join(got, "; "); s != want {
		t.Errorf("got %q, want %q", s, want)
	}
}
