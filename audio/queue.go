package audio

import (
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/timing"
)

type cmdKind uint8

const (
	cmdPlay cmdKind = iota + 1
	cmdStop
	cmdVolume
	cmdPan
	cmdSpeed
	cmdBusVolume
	cmdBusMute
)

// command is one request from the simulation side to the mixer. It is a
// plain value copied into a queue slot, so sending one allocates nothing.
type command struct {
	kind   cmdKind
	id     uint64
	sound  *Sound
	stream *Stream
	at     timing.Instant
	params Params
	fade   time.Duration
	value  float32
	bus    Bus
	flag   bool
}

// cmdQueue is a bounded multi-producer, single-consumer queue (Vyukov's
// sequence-numbered ring). Producers claim a slot with one compare-and-swap
// and publish it with a store; the consumer never waits: a slot claimed but
// not yet published simply ends this drain, and the mixer picks it up on
// its next buffer. A full queue refuses the command instead of blocking.
type cmdQueue struct {
	slots []cmdSlot
	mask  uint64
	_     [56]byte // keep the producers' counter off the consumer's line
	head  atomic.Uint64
	_     [56]byte
	tail  uint64 // consumer only
}

type cmdSlot struct {
	seq atomic.Uint64
	cmd command
}

func newCmdQueue(size int) *cmdQueue {
	n := 1
	for n < size {
		n <<= 1
	}
	q := &cmdQueue{slots: make([]cmdSlot, n), mask: uint64(n - 1)}
	for i := range q.slots {
		q.slots[i].seq.Store(uint64(i))
	}
	return q
}

// push enqueues c, or reports false when the queue is full. Safe from any
// number of goroutines.
func (q *cmdQueue) push(c *command) bool {
	pos := q.head.Load()
	for {
		s := &q.slots[pos&q.mask]
		seq := s.seq.Load()
		switch dif := int64(seq - pos); {
		case dif == 0:
			if q.head.CompareAndSwap(pos, pos+1) {
				s.cmd = *c
				s.seq.Store(pos + 1)
				return true
			}
			pos = q.head.Load()
		case dif < 0:
			return false
		default:
			pos = q.head.Load()
		}
	}
}

// pop dequeues into c. Only the mixer's goroutine calls it.
func (q *cmdQueue) pop(c *command) bool {
	s := &q.slots[q.tail&q.mask]
	if s.seq.Load() != q.tail+1 {
		return false
	}
	*c = s.cmd
	s.cmd = command{} // drop references to sounds and streams
	s.seq.Store(q.tail + q.mask + 1)
	q.tail++
	return true
}
