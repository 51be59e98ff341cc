package ecs

import (
	"errors"
	"fmt"
	"time"

	"github.com/metronome-go/metronome/schedule"
	"github.com/metronome-go/metronome/timing"
)

// Event is the payload of the App's gameplay queue ([Sys.Queue]) and
// timers ([Sys.Timers]): a delayed effect, a timer, a repeating spawn.
// Kind and Entity say what it is about; Run, when set, is called as the
// event is delivered. Prefer Kind, acted on by a system that reads
// [Sys.Events] and [Sys.TimerEvents] (the first PreUpdate system, to run
// where Run would): a closure lives in this process only, so a snapshot
// with a Run event pending cannot be encoded for a spectator, a rejoining
// player or a peer resynchronising ([Snapshot.AppendBinary] refuses it,
// naming the Kind), and a Run that keeps state in captured variables
// cannot be rolled back.
//
// The gameplay queue counts the App's ticks of play: [schedule.Queue.Now]
// is the number of unpaused ticks run so far (1 during the first),
// independent of the runtime's numbering in [timing.Update.Number] (as
// Time.Number), so schedule with After or Every, or At relative to Now;
// [Sys.TicksFor] turns seconds into ticks. The timers count game time
// in nanoseconds ([Sys.AfterTime]). Events are delivered at the start
// of each tick of play, before the [PreUpdate] systems: timers first, then
// the gameplay queue, each in (due, scheduling order). Their commands are
// applied right after each dispatch. Systems of the tick can also read
// every delivery of the tick with [Sys.Events] and
// [Sys.TimerEvents]. Neither queue moves while the game is paused.
type Event struct {
	Kind   int
	Entity Entity
	Value  float64
	Run    func(ctx *Sys, d EventDelivery)
}

// EventDelivery is one delivery of the gameplay queue.
type EventDelivery = schedule.Delivery[Event]

// DefaultQueueCapacity is the gameplay queue's capacity when
// [Options.QueueCapacity] is zero.
const DefaultQueueCapacity = 1024

// Events returns the gameplay events delivered at the start of this tick.
// The slice is reused next tick; copy what must outlive it.
func (c *Sys) Events() []EventDelivery { return c.app.delivered }

// advanceQueue moves the gameplay queue to the App's next tick of play and
// collects what is due; the tick dispatches it after the state changes.
func (a *App) advanceQueue() error {
	a.ticks++
	return a.queue.Advance(a.ticks, a.collect)
}

// dispatch runs the due events ds as the system entry e (their commands
// are attributed to it), stopping at the first failure, and applies their
// commands.
func (a *App) dispatch(e *systemEntry, ds []EventDelivery) {
	a.ctx.entry = e
	a.ctx.delta = a.time.Delta
	a.world.cmds.source = e.Name
	for i := range ds {
		if run := ds[i].Payload.Run; run != nil {
			e.runs++
			run(&a.ctx, ds[i])
			if a.failure != nil {
				break
			}
		}
	}
	a.leaked += uint64(a.world.Apply())
	if a.observer != nil {
		a.observe(e)
	}
	a.ctx.entry = nil
	a.world.cmds.source = ""
}

func (a *App) collect(d EventDelivery) { a.delivered = append(a.delivered, d) }

func (a *App) collectTimed(d EventDelivery) { a.timed = append(a.timed, d) }

// advanceTimers moves the timers to game time now (nanoseconds) and
// dispatches what is due.
func (a *App) advanceTimers(now uint64) error {
	if now <= a.timers.Now() {
		return nil // no game time has passed: a tick of zero delta
	}
	err := a.timers.Advance(now, a.collectTimed)
	if len(a.timed) == 0 {
		return err
	}
	a.dispatch(&a.timerEntry, a.timed)
	return err
}

// TimerEvents returns the timer events ([Sys.AfterTime]) delivered at
// the start of this tick; their Due and Tick are nanoseconds of game time.
// The slice is reused next tick.
func (c *Sys) TimerEvents() []EventDelivery { return c.app.timed }

// AfterTime schedules ev on the timers, to be delivered at the start of the
// first tick that begins at least d of game time ([Time.Game]) after the
// start of this one: a delay in seconds that means the same in fixed and
// variable mode, under merged catch-up steps, and across a pause (game time
// stands still while paused). In fixed mode it is the tick
// [Sys.TicksFor](d) ticks on; in variable mode, the first tick to
// start at or after that time, so the event comes less than one tick
// late. A zero d means the next tick: the first tick after this one
// that moves game time on (a config range that allows "0s" can be passed
// straight through). d must not be negative.
func (c *Sys) AfterTime(d time.Duration, ev Event) (schedule.Handle, error) {
	if d < 0 {
		return schedule.Handle{}, fmt.Errorf("ecs: AfterTime delay %v, allowed 0 (the next tick) or above", d)
	}
	// The timers stand at this tick's start, so a due time there would be
	// in their past: one nanosecond on is the next tick that advances game
	// time, whatever its length.
	return c.Timers.At(uint64(c.app.gameStart+max(d, 1)), ev)
}

// EveryTime schedules ev on the timers every period of game time, first
// after first (both positive); late says what happens to occurrences a
// long tick skips over, as for [schedule.Queue.Every].
func (c *Sys) EveryTime(first, period time.Duration, late schedule.LatePolicy, ev Event) (schedule.Handle, error) {
	var errs []error
	if first <= 0 {
		errs = append(errs, fmt.Errorf("ecs: EveryTime first %v, allowed above 0", first))
	}
	if period <= 0 {
		errs = append(errs, fmt.Errorf("ecs: EveryTime period %v, allowed above 0", period))
	}
	if len(errs) > 0 {
		return schedule.Handle{}, errors.Join(errs...)
	}
	return c.Timers.Every(uint64(c.app.gameStart+first), uint64(period), late, ev)
}

// TicksFor converts a delay in game time to a number of ticks of the
// gameplay queue, for [schedule.Queue.After] and Every: the fewest ticks
// that cover d, at least 1.
//
// In fixed mode a tick is one fixed step (Delta / Steps of the current
// tick), so After(TicksFor(d)) delivers at the start of the tick that
// begins d after the start of this one, rounded up to whole steps: at 120
// Hz, TicksFor(time.Second) is 120 and TicksFor(10*time.Millisecond) is 2.
// A tick that merges several steps (RepayDebt's variable step) still
// counts as one, so a delay in ticks then covers more game time than d. In
// variable mode ticks are as long as the frames happen to be: TicksFor
// divides by the current tick's Delta, an estimate that holds only as long
// as the frame rate does. Where a delay must be d of game time in every
// mode, schedule it with [Sys.AfterTime] instead.
func (c *Sys) TicksFor(d time.Duration) uint64 {
	step := c.Time.Delta
	if s := c.Time.Steps; s > 1 {
		step /= time.Duration(s)
	}
	if c.Time.Timing.Mode == timing.FixedMode && c.Time.Timing.Step > 0 {
		// The scheduler's step, not this tick's Delta: at a rate whose
		// step is not whole nanoseconds (120 Hz: 8333333.3 ns) deltas
		// alternate between the two nearest, and either would count one
		// second as 119 or 121 ticks.
		step = c.Time.Timing.Step
	}
	if d <= 0 || step <= 0 {
		return 1
	}
	n, r := uint64(d/step), uint64(d%step)
	// A step rounded to whole nanoseconds is off by at most half a
	// nanosecond, so n steps by at most n/2: a remainder within n is the
	// rounding, and d is exactly n steps.
	if r > n {
		n++
	}
	return max(n, 1)
}
