package input

import (
	"fmt"
	"sync"

	"github.com/metronome-go/metronome/timing"
)

// QueueStats are a queue's counters, read with [Queue.Stats].
type QueueStats struct {
	// Polls counts snapshots pushed.
	Polls uint64
	// Coalesced counts polls merged into their successor because the
	// backlog was full. Merging moves a poll boundary and loses nothing.
	Coalesced uint64
	// Records counts records pushed.
	Records uint64
	// Ticks counts takes (one per update).
	Ticks uint64
	// Pending is the number of polls waiting, at most the capacity.
	Pending int
	// PendingRecords is the number of records waiting.
	PendingRecords int
	// PeakPendingRecords is the most records ever waiting at once.
	PeakPendingRecords int
	// RecordCapacity is the size of the record ring; it grows (doubling)
	// when records arrive faster than they are taken and never shrinks.
	RecordCapacity int
}

// pollMark is a pending poll: its completion instant and the sequence number
// one past its last record. Its records start where the previous mark ends.
type pollMark struct {
	time timing.Instant
	end  uint64
}

// Queue is the input backlog between the platform thread, which polls a
// [Source] and pushes the snapshots ([Queue.PushPoll]), and the
// simulation, which takes one [Tick] per update. The runtime owns it; the
// queue calls neither side.
//
// Records live in a ring that is reused in steady state. It doubles when
// more records are pending than it holds and never shrinks, so its memory is
// set by the most records ever pending at once ([QueueStats.PeakPendingRecords],
// 48 bytes each): about 48 KB for a thousand events piled up during a
// one-second stall, and without limit if nothing ever takes input. Poll
// boundaries live in a fixed ring of PollingOptions.Capacity marks; a full
// backlog merges its oldest poll into the next one, which moves a boundary
// and drops nothing. No record is ever discarded, because losing a release
// would leave a key stuck down. The [Tick] that receives records grows the
// same way.
//
// Concurrency: [Queue.PollDue], [Queue.NextPollAt], [Queue.PushPoll] and
// [Queue.Push] belong to the platform thread;
// [Queue.Start], [Queue.TakeAll], [Queue.TakeSpan] and [Queue.Take] to the
// simulation goroutine (the same thread in sequential mode; Start may also
// run before that goroutine is started). The two sides
// meet under a mutex held only to copy records. [Queue.Stats] and
// [Queue.Pending] may be called from anywhere.
type Queue struct {
	opts    PollingOptions
	actions *Actions

	mu       sync.Mutex
	ring     []Record // len is a power of two
	head     uint64   // sequence number of the oldest pending record
	tail     uint64   // sequence number of the next record pushed
	marks    []pollMark
	markHead int
	markLen  int
	lastTime timing.Instant // latest record or poll time pushed
	stats    QueueStats

	// Consumer side.
	started   bool
	boundary  timing.Instant // start of the next tick's interval
	delivered State          // state at boundary

	// Producer side.
	lastPoll timing.Instant
	polled   bool
}

// NewQueue returns an empty queue whose ticks look bindings up in actions
// (which may be nil when only buttons are queried). It returns the
// validation error if opts is invalid.
func NewQueue(actions *Actions, opts PollingOptions) (*Queue, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return &Queue{
		opts:    opts,
		actions: actions,
		ring:    make([]Record, 64),
		marks:   make([]pollMark, opts.Capacity),
	}, nil
}

// Options returns the options the queue was built with.
func (q *Queue) Options() PollingOptions { return q.opts }

// Actions returns the action set ticks are filled with.
func (q *Queue) Actions() *Actions { return q.actions }

// Start sets the beginning of the first tick's interval; the runtime calls it
// when its clocks start. Without it, the first tick starts at its earliest
// record, or at its end if it has none.
func (q *Queue) Start(now timing.Instant) {
	q.started = true
	q.boundary = now
}

// PollDue reports whether a poll at now respects PollingOptions.Spacing.
// Platform thread only.
func (q *Queue) PollDue(now timing.Instant) bool {
	return !q.polled || now >= q.NextPollAt()
}

// NextPollAt returns the earliest instant the next poll is due (saturating).
// Before the first poll it returns 0. Platform thread only.
func (q *Queue) NextPollAt() timing.Instant {
	if !q.polled {
		return 0
	}
	return q.lastPoll.AddSaturating(q.opts.Spacing)
}

// PushPoll hands the queue the snapshot of one poll the platform made at
// now: the platform polls its [Source] into a snapshot it owns, when
// [Queue.PollDue] says a poll is due, and passes the result here. The
// records join the backlog as [Queue.Push] adds them, and the next poll is
// due PollingOptions.Spacing after now. The queue never calls the source:
// what crosses from the platform is the poll's records, whole. s is not
// retained. Platform thread only.
func (q *Queue) PushPoll(now timing.Instant, s *Snapshot) {
	q.Push(s)
	q.lastPoll, q.polled = now, true
}

// Push appends a completed snapshot's records to the backlog; s is not
// retained. Timestamps are made non-decreasing across the whole queue (an
// earlier one is raised to its predecessor), and the poll counts as complete
// at the later of s.Time and its last record. When Capacity polls are
// already pending, the oldest is merged into its successor and counted in
// [QueueStats.Coalesced]. Push leaves the poll spacing as it was: a
// platform that polls pushes with [Queue.PushPoll]. Platform thread only.
func (q *Queue) Push(s *Snapshot) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.markLen == len(q.marks) {
		q.markHead = (q.markHead + 1) % len(q.marks)
		q.markLen--
		q.stats.Coalesced++
	}
	need := int(q.tail-q.head) + len(s.Records)
	if need > len(q.ring) {
		q.grow(need)
	}
	mask := uint64(len(q.ring) - 1)
	for i := range s.Records {
		r := s.Records[i]
		if r.Time < q.lastTime {
			r.Time = q.lastTime
		}
		q.lastTime = r.Time
		q.ring[q.tail&mask] = r
		q.tail++
	}
	if s.Time > q.lastTime {
		q.lastTime = s.Time
	}
	q.marks[(q.markHead+q.markLen)%len(q.marks)] = pollMark{time: q.lastTime, end: q.tail}
	q.markLen++
	q.stats.Polls++
	q.stats.Records += uint64(len(s.Records))
	q.stats.PeakPendingRecords = max(q.stats.PeakPendingRecords, int(q.tail-q.head))
}

// grow makes the ring hold at least need records, keeping sequence numbers.
func (q *Queue) grow(need int) {
	n := len(q.ring)
	for n < need {
		n *= 2
	}
	ring := make([]Record, n)
	oldMask, newMask := uint64(len(q.ring)-1), uint64(n-1)
	for seq := q.head; seq != q.tail; seq++ {
		ring[seq&newMask] = q.ring[seq&oldMask]
	}
	q.ring = ring
}

// copyOut appends the records with sequence numbers in [q.head, upto) to dst.
func (q *Queue) copyOut(dst []Record, upto uint64) []Record {
	if upto == q.head {
		return dst
	}
	mask := uint64(len(q.ring) - 1)
	i, j := q.head&mask, upto&mask
	if i < j {
		return append(dst, q.ring[i:j]...)
	}
	dst = append(dst, q.ring[i:]...)
	return append(dst, q.ring[:j]...)
}

// TakeAll fills into with every pending poll (Backlog delivery): the
// interval runs from the end of the previous take to now. Edges taken here
// are never delivered again; a second take right after gets no records, only
// the persistent State. Simulation goroutine only.
func (q *Queue) TakeAll(now timing.Instant, into *Tick) {
	q.mu.Lock()
	into.records = q.copyOut(into.records[:0], q.tail)
	polls := q.markLen
	q.head = q.tail
	q.markLen = 0
	q.stats.Ticks++
	q.mu.Unlock()
	start := q.boundary
	if !q.started {
		start = now
		if len(into.records) > 0 {
			start = min(start, into.records[0].Time)
		}
		q.started = true
	}
	q.finish(into, start, now, polls)
}

// TakeSpan fills into with the pending records stamped before end
// (Timestamped delivery), for an update standing for the real interval
// [start, end). Records stamped before start that were not delivered yet
// (late polls, or time dropped by the scheduler) are included and count
// from start, so nothing is lost; records stamped at or after end stay
// pending for a later span. Simulation goroutine only.
func (q *Queue) TakeSpan(start, end timing.Instant, into *Tick) {
	q.mu.Lock()
	mask := uint64(len(q.ring) - 1)
	upto := q.head
	for upto != q.tail && q.ring[upto&mask].Time < end {
		upto++
	}
	into.records = q.copyOut(into.records[:0], upto)
	q.head = upto
	polls := 0
	for q.markLen > 0 {
		m := q.marks[q.markHead]
		if m.time >= end || m.end > upto {
			break
		}
		q.markHead = (q.markHead + 1) % len(q.marks)
		q.markLen--
		polls++
	}
	q.stats.Ticks++
	q.mu.Unlock()
	q.started = true
	q.finish(into, start, end, polls)
}

// Take fills into under the queue's delivery policy: [Queue.TakeAll] at now
// for Backlog, [Queue.TakeSpan] over [start, end) for Timestamped. The
// runtime passes the current instant and the update's real span.
func (q *Queue) Take(now, start, end timing.Instant, into *Tick) {
	if q.opts.Delivery == Timestamped {
		q.TakeSpan(start, end, into)
		return
	}
	q.TakeAll(now, into)
}

func (q *Queue) finish(into *Tick, start, end timing.Instant, polls int) {
	if end < start {
		end = start
	}
	into.finish(q.actions, start, end, q.delivered, polls)
	q.delivered = into.state
	q.boundary = end
}

// Pending returns the number of polls waiting to be taken.
func (q *Queue) Pending() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.markLen
}

// Stats returns the queue's counters.
func (q *Queue) Stats() QueueStats {
	q.mu.Lock()
	defer q.mu.Unlock()
	s := q.stats
	s.Pending = q.markLen
	s.PendingRecords = int(q.tail - q.head)
	s.RecordCapacity = len(q.ring)
	return s
}

// String summarises the counters.
func (s QueueStats) String() string {
	return fmt.Sprintf("polls %d (coalesced %d), records %d, ticks %d, pending %d polls / %d records (peak %d, ring %d)",
		s.Polls, s.Coalesced, s.Records, s.Ticks, s.Pending, s.PendingRecords, s.PeakPendingRecords, s.RecordCapacity)
}
