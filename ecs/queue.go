package ecs

import (
	"github.com/metronome-go/metronome/schedule"
)

// Event is the payload of the App's gameplay queue ([Context.Queue]): a
// delayed effect, a timer, a repeating spawn. Kind and Entity say what it is
// about; Run, when set, is called as the event is delivered.
//
// The queue counts the App's ticks: [schedule.Queue.Now] is the number of
// ticks run so far (1 during the first), independent of the runtime's
// numbering in [timing.Update.Number] (as Time.Number), so schedule with After or Every, or At relative
// to Now. Events are delivered at the start of each tick, before the
// [PreUpdate] systems, in (due tick, scheduling order). Their commands are applied
// right after the dispatch. Systems of the tick can also read every
// delivery of the tick with [Context.Events].
type Event struct {
	Kind   int
	Entity Entity
	Value  float64
	Run    func(ctx *Context, d EventDelivery)
}

// EventDelivery is one delivery of the gameplay queue.
type EventDelivery = schedule.Delivery[Event]

// DefaultQueueCapacity is the gameplay queue's capacity when
// [Options.QueueCapacity] is zero.
const DefaultQueueCapacity = 1024

// Events returns the gameplay events delivered at the start of this tick.
// The slice is reused next tick; copy what must outlive it.
func (c *Context) Events() []EventDelivery { return c.app.delivered }

// advanceQueue moves the gameplay queue to the App's next tick and
// dispatches what is due.
func (a *App) advanceQueue() error {
	a.delivered = a.delivered[:0]
	a.ticks++
	err := a.queue.Advance(a.ticks, a.collect)
	if len(a.delivered) == 0 {
		return err
	}
	a.ctx.entry = &a.queueEntry
	a.ctx.delta = a.time.Delta
	a.world.cmds.source = a.queueEntry.Name
	for i := range a.delivered {
		if run := a.delivered[i].Payload.Run; run != nil {
			a.queueEntry.runs++
			run(&a.ctx, a.delivered[i])
			if a.failure != nil {
				break
			}
		}
	}
	a.leaked += uint64(a.world.Apply())
	a.ctx.entry = nil
	a.world.cmds.source = ""
	return err
}

func (a *App) collect(d EventDelivery) { a.delivered = append(a.delivered, d) }
