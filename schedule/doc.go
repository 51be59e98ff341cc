// Package schedule is Metronome's bounded gameplay queue: cooldowns, delayed
// effects and repeating timers that fire on whole simulation ticks, in a
// deterministic order, without drift and without allocating once running.
//
// # Ticks
//
// Time here is the simulation's tick number, a plain uint64, not wall-clock
// time: a queue replays identically whenever its ticks and calls do. A
// [Queue] has a current tick, [Queue.Now]. The simulation advances it once
// per tick with [Queue.Advance], which delivers everything due. Every pending
// entry is due after the current tick, so the minimum delay is one tick.
//
//	q, err := schedule.New[Effect](schedule.Options{Capacity: 256})
//	...
//	burn, err := q.After(30, Effect{Target: e, Kind: StopBurning})
//	...
//	// Once per simulation tick, before the systems that schedule:
//	err = q.Advance(tick, func(d schedule.Delivery[Effect]) { apply(d.Payload) })
//
// # Order
//
// Entries are delivered in (due tick, sequence) order. The sequence counts
// scheduling calls, so entries due at the same tick come out in the order
// they were scheduled. A dispatch fixes its due set when it begins: entries
// it delivers may cancel or reschedule others (those are then skipped) and
// schedule new ones, which are due at a later tick and wait for a later
// Advance. Advance never runs recursively.
//
// # Handles
//
// Scheduling returns a [Handle] that carries the generation of the slot the
// entry occupies. Cancelling or rescheduling through a handle whose entry was
// delivered, cancelled or cleared is harmless: it does nothing and says so,
// even after the slot was reused. [Queue.Clear] and [Queue.Reset] (a new
// world) invalidate every handle.
//
// # Periodic entries
//
// [Queue.Every] schedules an entry that comes back every period ticks. Its
// next due tick is always the previous due tick plus the period, never the
// delivery tick plus the period, so it keeps its phase forever. When Advance
// jumps over ticks and several occurrences are due at once, its [LatePolicy]
// decides: [Skip] delivers the latest one, [Coalesce] delivers one that
// counts them all, [CatchUp] delivers each of them up to a limit.
//
// # Limits
//
// The capacity is fixed by [New]; scheduling beyond it fails with [ErrFull].
// Running out of ticks ([ErrTickRange]) or sequence numbers
// ([ErrSequenceRange]) is an error too, never a silent wrap. Every error
// wraps one of the package's sentinels, for [errors.Is].
//
// # Structures
//
// Two ordering structures give identical deliveries (one test suite and one
// fuzz test run on both): an indexed 4-ary heap ([Heap], the default) and a
// contiguous scan ([Scan]). Measured in steady state, one entry scheduled and
// one delivered per tick, the scan is at best about 10% faster, at 4 to 16
// pending entries; the two are even at 32 and the heap is faster from 64 on,
// 7 times at 1,000 and over 100 times at 100,000. The heap's steady state
// costs about 80 ns per tick at 1,000 pending entries. The scan's schedule
// and cancel cost about half the heap's, which can suit a small queue whose
// entries are mostly cancelled before they fire.
//
// # Cooldowns without a queue
//
// Most cooldowns are a deadline stored on the component that owns them.
// [Cooldown] and [Repeat] are such values: an ECS system checks them each
// tick with the tick number and needs no queue at all. Give them the
// clock the queue keeps, so that a pause freezes them too (in an ECS
// system, ctx.Queue.Now(), not the runtime's update number).
//
//	var shot schedule.Cooldown
//	if shot.Use(tick, 30) { // ready? then busy for 30 ticks
//		fire()
//	}
//
// # Threads
//
// A Queue belongs to the goroutine that runs the simulation and is not safe
// for concurrent use. Cooldown and Repeat are plain values.
package schedule
