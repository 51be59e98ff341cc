package rollback

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/binio"
	"github.com/metronome-go/metronome/timing"
)

// The confirmed input log and the catch-up stream.
//
// A session with [Options.LogBytes] keeps every player's confirmed input
// of every tick from its start tick, coded as the messages code a block:
// per tick a uvarint bitmap of the players whose input differs from its
// prediction from the tick before, then each such player's tick (see
// appendTick). A tick on which nobody changed anything costs one byte.
// Every logCheckpoint ticks the log codes a tick against zero inputs, so
// a reader can start there without decoding the whole log.
//
// A [Feed] streams the log from a tick to one receiver (a spectator, a
// rejoining player, a player resynchronising), in messages of at most
// [MaxMessage]:
//
//	"MK" version(1) uvarint first tick, uvarint end, uvarint count,
//	    count ticks coded as in the log, the first against zero,
//	    CRC-32 (IEEE, little-endian) of everything before it
//
// where end is how far the feed could send when it sent the message:
// every tick before it is confirmed (and past the feed's delay), so a
// follower that reaches it with nothing more to come is caught up
// ([Follower.CaughtUp]).
//
// and the receiver, a [Follower], answers each update with the next tick
// it wants, which is its request as well as its acknowledgement, whether
// a snapshot will do instead (0: no; else 1 + the bytes of it received
// so far) and whether only a snapshot will ([Follower.NeedState]: 1;
// else 0):
//
//	"MA" version(1) uvarint next tick, uvarint snapshot, uvarint needs
//
// A receiver far behind (more than stateOver ticks) whose simulation's
// state travels ([StateSimulation], such as an [App]) is sent the state of
// a recent confirmed tick instead of every input since its start, in
// chunks:
//
//	"MS" version(1) uvarint tick, uvarint total length, uvarint offset,
//	    the bytes from offset, CRC-32 (IEEE, little-endian) of everything
//	    before it
//
// and then the log from stateTail ticks before that tick (inputs it does
// not run, but which a player catching up needs to play on: its first
// messages are coded against them).
const (
	catchUpVersion = 2
	logCheckpoint  = 256
	// MaxLogBytes bounds Options.LogBytes: 1 GiB.
	MaxLogBytes = 1 << 30
	// DefaultLogBytes is the log bound of a match's host: 8 MiB, at one
	// to a few bytes a tick at 60 Hz tens of hours of play.
	DefaultLogBytes = 8 << 20
	feedInFlight    = 4  // messages a feed sends ahead of the receiver's ack
	stateInFlight   = 16 // snapshot chunks a feed sends ahead of the receiver's ack
	// stateOver is how far behind the confirmed end a receiver must ask
	// from to be sent a snapshot: below 5 s at 60 Hz running the inputs
	// costs less than the snapshot's bytes.
	stateOver = 300
	// stateTail is how many ticks of confirmed inputs before a snapshot's
	// tick the feed sends after it: more than a session's ring holds.
	stateTail = 128
	// MaxState bounds a snapshot a follower takes: 64 MiB.
	MaxState  = 64 << 20
	feedRetry = 15 // updates without progress before a feed sends again from the ack
	crcLength = 4
)

// ErrLogFull is the error of a feed asked for ticks past the end of a log
// that reached its bound ([Options.LogBytes]).
var ErrLogFull = errors.New("rollback: the confirmed input log is full")

type inputLog struct {
	start int64 // the tick the log starts at
	ticks int64 // ticks logged: start to start+ticks-1
	buf   []byte
	marks []int // offset of each checkpoint tick
	prev  []input.Stats
	full  bool
	enc   []byte // one tick, coded
}

func newInputLog(start int64, bytes, players, actions int) *inputLog {
	return &inputLog{start: start, buf: make([]byte, 0, bytes), marks: make([]int, 0, bytes/logCheckpoint+1),
		prev: make([]input.Stats, players*actions), enc: make([]byte, 0, 1+players*maxActions*64)}
}

// appendLogTick appends one tick of every player (rows, players × actions)
// coded against prev to dst.
func appendLogTick(dst []byte, prev, rows []input.Stats, players, actions int) []byte {
	var changed uint64
	for p := range players {
		if !unchanged(prev[p*actions:(p+1)*actions], rows[p*actions:(p+1)*actions]) {
			changed |= 1 << p
		}
	}
	dst = binary.AppendUvarint(dst, changed)
	for p := range players {
		if changed&(1<<p) != 0 {
			dst = appendTick(dst, prev[p*actions:(p+1)*actions], rows[p*actions:(p+1)*actions])
		}
	}
	return dst
}

// logTick decodes one tick into rows, which holds the tick before it.
func (r *reader) logTick(rows []input.Stats, players, actions int) {
	changed := r.Uint("changed players", 0, 1<<players-1)
	for p := range players {
		row := rows[p*actions : (p+1)*actions]
		if changed&(1<<p) != 0 {
			r.tick(row)
		} else {
			for a := range row {
				row[a] = predict(&row[a])
			}
		}
	}
}

// logConfirmed logs every tick all of whose inputs are confirmed and that
// the log lacks.
func (s *Session) logConfirmed() {
	l := s.log
	if l == nil || l.full {
		return
	}
	for mf := s.minFrontier(); l.start+l.ticks < mf; {
		k := l.start + l.ticks
		if l.ticks%logCheckpoint == 0 {
			clear(l.prev)
		}
		cur := s.scratchRows
		for p := range s.players {
			copy(cur[p*s.actions:(p+1)*s.actions], s.stored(p, k))
		}
		l.enc = appendLogTick(l.enc[:0], l.prev, cur, s.players, s.actions)
		if len(l.buf)+len(l.enc) > cap(l.buf) {
			l.full = true
			return
		}
		if l.ticks%logCheckpoint == 0 {
			l.marks = append(l.marks, len(l.buf))
		}
		l.buf = append(l.buf, l.enc...)
		copy(l.prev, cur)
		l.ticks++
	}
}

// Logged returns the ticks the confirmed input log holds, from the start
// tick up to end (exclusive), and its size in bytes; full reports that it
// reached Options.LogBytes and logs no more. All zero without a log.
func (s *Session) Logged() (start, end int64, bytes int, full bool) {
	if s.log == nil {
		return 0, 0, 0, false
	}
	return s.log.start, s.log.start + s.log.ticks, len(s.log.buf), s.log.full
}

// A StateSimulation is a [Simulation] whose state travels ([App] is one):
// a [Feed] sends a receiver far behind the encoded state of a recent
// confirmed tick instead of every input since its start, and a
// [Follower] loads it.
type StateSimulation interface {
	Simulation
	// AppendState appends the state saved for tick, encoded, to b.
	AppendState(b []byte, tick int64) ([]byte, error)
	// LoadState puts the simulation in the state b holds for tick: the
	// next tick it runs is tick.
	LoadState(tick int64, b []byte) error
}

// IsAck reports whether msg is a follower's acknowledgement
// ([Follower.AppendAck]), for a [Feed], rather than a session's message
// or a catch-up message: a host that feeds a player catching up takes
// the two apart by it.
func IsAck(msg []byte) bool { return len(msg) >= 2 && msg[0] == 'M' && msg[1] == 'A' }

// IsCatchUp reports whether msg is a feed's catch-up message (inputs or
// a snapshot's chunk), for a [Follower], rather than a session's message
// or an acknowledgement.
func IsCatchUp(msg []byte) bool {
	return len(msg) >= 2 && msg[0] == 'M' && (msg[1] == 'K' || msg[1] == 'S')
}

// Feed streams a session's confirmed input log to one receiver, a
// [Follower], from the tick it asks for: the receiver's acknowledgement
// is its request. It belongs to the session's goroutine.
type Feed struct {
	s     *Session
	delay int64
	// acked is the receiver's next tick; sent the tick the messages sent
	// reach; idle the updates since the ack last moved.
	acked, sent int64
	asked       bool
	idle        int
	inFlight    [feedInFlight]int64 // end tick of each message sent ahead
	n           int
	rows        []input.Stats
	prev        []input.Stats
	err         error
	// The snapshot phase: wants is the receiver's latest ack asking for
	// one (1 + the bytes it has, or 0); state the encoded state of tick
	// stateTick once made, stateSent the bytes sent of it.
	wants     uint64
	needs     bool // only a snapshot will do
	state     []byte
	stateTick int64
	stateSent int
}

// NewFeed returns a feed of s's log that holds back the last delay
// confirmed ticks (a spectator's delay; 0 for a player catching up). It
// panics when s keeps no log ([Options.LogBytes] 0) or delay is negative.
func (s *Session) NewFeed(delay int) *Feed {
	if s.log == nil || delay < 0 {
		panic(fmt.Sprintf("rollback: Session.NewFeed(%d): needs a session with Options.LogBytes and a delay of 0 or more", delay))
	}
	return &Feed{s: s, delay: int64(delay), rows: make([]input.Stats, s.players*s.actions), prev: make([]input.Stats, s.players*s.actions)}
}

// Receive takes the receiver's acknowledgement. One that does not decode,
// or asks for a tick before the log's start, is refused with an error
// wrapping [ErrMalformed].
func (f *Feed) Receive(msg []byte) error {
	if len(msg) < headerLength || msg[0] != 'M' || msg[1] != 'A' || msg[2] != catchUpVersion {
		return fmt.Errorf("%w: no \"MA\" header of version %d", ErrMalformed, catchUpVersion)
	}
	r := reader{binio.NewReader(msg[headerLength:], ErrMalformed)}
	next := int64(r.Uint("next tick", 0, math.MaxInt64/4))
	wants := r.Uint("snapshot bytes", 0, MaxState+1)
	needs := r.Uint("snapshot needed", 0, 1)
	switch {
	case r.Err() != nil:
		return r.Err()
	case r.Left() != 0:
		return fmt.Errorf("%w: %d bytes after the acknowledgement", ErrMalformed, r.Left())
	case next < f.s.log.start:
		return fmt.Errorf("%w: tick %d asked for is before the log's start %d", ErrMalformed, next, f.s.log.start)
	}
	if wants > 0 && f.state != nil && int(wants-1) < f.stateSent && wants < f.wants {
		f.stateSent = int(wants - 1) // a receiver that starts again
	}
	if wants > f.wants {
		f.idle = 0
	}
	f.wants, f.needs = wants, needs == 1 && wants > 0
	if wants == 0 {
		f.state = nil // loaded, or never wanted: the log from next
	}
	if !f.asked || next < f.acked {
		f.rewind(next) // a first request, or a new one from further back
	}
	if next > f.acked {
		f.idle = 0
	}
	f.acked, f.asked, f.sent = next, true, max(f.sent, next)
	return nil
}

// rewind sends again from tick k: nothing sent before is in flight.
func (f *Feed) rewind(k int64) { f.sent, f.n = k, 0 }

// Acked returns the tick the receiver asked for last: every tick before
// it has reached it.
func (f *Feed) Acked() int64 { return f.acked }

// Append appends the next message for the receiver to dst, and reports
// whether there was one: nothing before the receiver's first request,
// nothing past the confirmed ticks the delay lets through, and at most
// a few messages ahead of its acknowledgement (after some updates with no
// progress the feed sends again from it). Call it up to a few times an
// update, then Update once. Past a full log's end it returns an error
// wrapping [ErrLogFull].
func (f *Feed) Append(dst []byte) ([]byte, bool, error) {
	l := f.s.log
	end := l.start + l.ticks
	if !f.asked {
		return dst, false, nil
	}
	if f.wants > 0 {
		if dst, ok, err, handled := f.appendState(dst); handled {
			return dst, ok, err
		}
	}
	if l.full && f.sent >= end {
		return dst, false, fmt.Errorf("%w at tick %d (%d bytes of Options.LogBytes %d): the receiver asked for tick %d; the log holds ticks %d to %d", ErrLogFull, end, len(l.buf), cap(l.buf), f.sent, l.start, end-1)
	}
	end = min(end, f.s.minFrontier()-f.delay)
	if f.sent >= end || f.inFlightCount() >= feedInFlight {
		return dst, false, nil
	}
	base := len(dst)
	from := f.sent
	// Decode the log from the checkpoint at or before from (each
	// checkpoint tick, this one first, starts f.rows from zero).
	c := (from - l.start) / logCheckpoint
	r := reader{binio.NewReader(l.buf[l.marks[c]:], ErrMalformed)}
	for k := l.start + c*logCheckpoint; k < from; k++ {
		if (k-l.start)%logCheckpoint == 0 {
			clear(f.rows)
		}
		r.logTick(f.rows, f.s.players, f.s.actions)
	}
	if r.Err() != nil {
		return dst, false, fmt.Errorf("rollback: the input log does not decode: %w", r.Err())
	}
	dst = append(dst, 'M', 'K', catchUpVersion)
	dst = binary.AppendUvarint(dst, uint64(from))
	dst = binary.AppendUvarint(dst, uint64(end))
	at := len(dst)
	dst = append(dst, 0, 0, 0) // the count, a 3-byte uvarint filled in below
	clear(f.prev)
	k := from
	for ; k < end; k++ {
		if (k-l.start)%logCheckpoint == 0 {
			clear(f.rows)
		}
		r.logTick(f.rows, f.s.players, f.s.actions)
		mark := len(dst)
		dst = appendLogTick(dst, f.prev, f.rows, f.s.players, f.s.actions)
		if len(dst)-base+crcLength > MaxMessage {
			dst = dst[:mark]
			break
		}
		copy(f.prev, f.rows)
	}
	if r.Err() != nil {
		return dst[:base], false, fmt.Errorf("rollback: the input log does not decode: %w", r.Err())
	}
	n := k - from
	if n == 0 {
		return dst[:base], false, fmt.Errorf("rollback: tick %d alone does not fit a catch-up message", from)
	}
	dst[at], dst[at+1], dst[at+2] = byte(n)|0x80, byte(n>>7)|0x80, byte(n>>14)
	dst = binary.LittleEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[base:]))
	f.sent = k
	f.inFlight[f.n%feedInFlight] = k
	f.n++
	return dst, true, nil
}

// appendState appends the next chunk of the snapshot the receiver is
// sent, making the snapshot first; handled is false when the receiver is
// not to get one (its simulation's state does not travel, or it is not
// far enough behind), and the log is sent from where it asked.
func (f *Feed) appendState(dst []byte) (out []byte, ok bool, err error, handled bool) {
	s := f.s
	if f.state == nil {
		sim, travels := s.sim.(StateSimulation)
		k := min(s.minFrontier(), s.tick)
		worth := k-f.acked > stateOver || f.needs
		if !travels || !worth || s.pending >= 0 {
			// Not worth it, or not possible; or a correction is not
			// simulated yet, so the state saved for k may be predicted:
			// after the next update.
			return dst, false, nil, travels && worth
		}
		if f.state, err = sim.AppendState(make([]byte, 0, 64<<10), k); err != nil {
			f.state = nil
			return dst, false, fmt.Errorf("rollback: the state of tick %d for a feed: %w", k, err), true
		}
		if len(f.state) > MaxState {
			n := len(f.state)
			f.state = nil
			return dst, false, fmt.Errorf("rollback: the state of tick %d is %d bytes; a follower takes at most MaxState, %d", k, n, MaxState), true
		}
		f.stateTick, f.stateSent = k, int(f.wants-1)
	}
	have := int(f.wants - 1)
	if f.stateSent >= len(f.state) || f.stateSent-have >= stateInFlight*(MaxMessage-32) {
		return dst, false, nil, true
	}
	base := len(dst)
	dst = append(dst, 'M', 'S', catchUpVersion)
	dst = binary.AppendUvarint(dst, uint64(f.stateTick))
	dst = binary.AppendUvarint(dst, uint64(len(f.state)))
	dst = binary.AppendUvarint(dst, uint64(f.stateSent))
	n := min(len(f.state)-f.stateSent, MaxMessage-(len(dst)-base)-crcLength)
	dst = append(dst, f.state[f.stateSent:f.stateSent+n]...)
	dst = binary.LittleEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[base:]))
	f.stateSent += n
	return dst, true, nil, true
}

func (f *Feed) inFlightCount() int {
	c := 0
	for i := range min(f.n, feedInFlight) {
		if f.inFlight[i] > f.acked {
			c++
		}
	}
	return c
}

// Flush lets the held-back ticks through: at the end of a match, so the
// receiver reaches the last confirmed tick.
func (f *Feed) Flush() { f.delay = 0 }

// Update ends the feed's update: after a while without progress it sends
// again from the receiver's acknowledgement.
func (f *Feed) Update() {
	if f.state != nil {
		if f.stateSent == int(f.wants-1) {
			f.idle = 0
		} else if f.idle++; f.idle >= feedRetry {
			f.stateSent, f.idle = int(f.wants-1), 0
		}
		return
	}
	if !f.asked || f.sent == f.acked {
		f.idle = 0
		return
	}
	if f.idle++; f.idle >= feedRetry {
		f.rewind(f.acked)
		f.idle = 0
	}
}

// Follower runs a simulation on confirmed inputs only, received from a
// [Feed]: it never predicts and never rolls back. A spectator is one; so
// is a player catching up before it plays on. It belongs to the
// simulation goroutine.
type Follower struct {
	sim              Simulation
	players, actions int
	hashEvery        int
	clock            timing.Clock
	start            int64 // the tick it started at
	tick             int64 // next tick to simulate
	// queue holds the received ticks not yet simulated, from tick to
	// next (exclusive), by tick modulo queueTicks.
	queue []input.Stats
	next  int64
	// confirmed is the largest confirmed end a message gave.
	confirmed int64
	rows      []input.Stats
	// A follower whose simulation's state travels may be sent a
	// snapshot first: state holds the chunks of stateTick's received so
	// far, loaded whether one was.
	stateful  bool
	needs     bool // NeedState
	loaded    bool
	state     []byte
	stateTick int64
	in        Inputs
	stats     FollowerStats
	hash      struct {
		tick int64
		h    uint64
		ok   bool
	}
}

// FollowerStats are a follower's counts.
type FollowerStats struct {
	// Tick is the next tick to simulate; Received the next tick to
	// receive; Confirmed how far the feed could send when it sent its
	// latest message (every tick before it was confirmed then).
	Tick, Received, Confirmed int64
	// StateTick is the tick of the snapshot the follower started from
	// and StateBytes its size; 0 and 0 when it ran every input from its
	// start.
	StateTick  int64
	StateBytes int
	// Messages counts catch-up messages taken, Stale those that were not
	// the next (repeats, or sent before an acknowledgement arrived),
	// Malformed those that did not decode or failed their checksum.
	Messages, Stale, Malformed uint64
}

// followerQueue is how many received ticks a follower holds: a minute
// at 60 Hz.
const followerQueue = 3600

// NewFollower returns a follower driving sim, whose state is that before
// tick start (0: the initial world, which every peer builds the same from
// the same game and configuration; a later tick once snapshots travel),
// for a match of players players with actions actions each, hashing every
// hashEvery ticks as the players' sessions do (0: never).
func NewFollower(sim Simulation, players, actions, hashEvery int, start int64, clock timing.Clock) (*Follower, error) {
	var errs []error
	if sim == nil {
		errs = append(errs, errors.New("rollback: NewFollower needs a Simulation, have nil"))
	}
	errs = append(errs, playersRange.check("NewFollower players", players), actionsRange.check("NewFollower actions", actions),
		hashEveryRange.check("NewFollower hashEvery", hashEvery))
	if start < 0 {
		errs = append(errs, fmt.Errorf("rollback: NewFollower start tick %d is negative", start))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if clock == nil {
		clock = timing.SystemClock{}
	}
	f := &Follower{sim: sim, players: players, actions: actions, hashEvery: hashEvery, clock: clock, start: start, tick: start, next: start,
		queue: make([]input.Stats, followerQueue*players*actions), rows: make([]input.Stats, players*actions)}
	f.in.f = f
	_, f.stateful = sim.(StateSimulation)
	return f, nil
}

// NeedState makes the follower ask for a snapshot however little it is
// behind: for a player resynchronising ([ErrResync]), whose simulation is
// not in the state before the follower's start tick. It panics when the
// simulation's state does not travel ([StateSimulation]).
func (f *Follower) NeedState() {
	if !f.stateful {
		panic("rollback: Follower.NeedState: the follower's simulation is not a StateSimulation")
	}
	f.needs = true
}

// FromStart makes the follower ask for every input from its start tick,
// never a snapshot, whatever its simulation: for a receiver that records
// the match from its first tick. Call it before its first
// acknowledgement.
func (f *Follower) FromStart() { f.stateful = false }

// wantsState reports whether a snapshot will still do: the simulation's
// state travels, and the follower has neither loaded one nor received or
// run any tick.
func (f *Follower) wantsState() bool {
	return f.stateful && !f.loaded && f.tick == f.start && f.next == f.start
}

func (f *Follower) row(k int64, p int) []input.Stats {
	i := (int(k%followerQueue)*f.players + p) * f.actions
	return f.queue[i : i+f.actions]
}

// Tick returns the next tick the follower simulates.
func (f *Follower) Tick() int64 { return f.tick }

// Stats returns the follower's counts.
func (f *Follower) Stats() FollowerStats {
	st := f.stats
	st.Tick, st.Received, st.Confirmed = f.tick, max(f.next, f.tick), f.confirmed
	return st
}

// LastHash returns the latest hashed tick the follower reached and its
// state's hash there: a player's confirmed hash of the same tick is the
// same.
func (f *Follower) LastHash() (tick int64, hash uint64, ok bool) {
	return f.hash.tick, f.hash.h, f.hash.ok
}

// AppendAck appends the follower's acknowledgement, which asks for the
// next tick it lacks. Send it every update.
func (f *Follower) AppendAck(dst []byte) []byte {
	dst = append(dst, 'M', 'A', catchUpVersion)
	dst = binary.AppendUvarint(dst, uint64(f.next))
	wants, needs := uint64(0), uint64(0)
	if f.wantsState() {
		wants = 1 + uint64(len(f.state))
		if f.needs {
			needs = 1
		}
	}
	dst = binary.AppendUvarint(dst, wants)
	return binary.AppendUvarint(dst, needs)
}

// Receive takes a catch-up message. One that fails its checksum or does
// not decode is refused with an error wrapping [ErrMalformed] and
// counted; one that is not the next the follower lacks, or that would
// overfill its queue, is counted as stale and left for the feed to send
// again.
func (f *Follower) Receive(msg []byte) error {
	if err := f.decode(msg, false); err != nil {
		f.stats.Malformed++
		return err
	}
	return f.decode(msg, true)
}

func (f *Follower) decode(msg []byte, apply bool) error {
	if len(msg) < headerLength+crcLength || msg[0] != 'M' || (msg[1] != 'K' && msg[1] != 'S') {
		return fmt.Errorf("%w: no \"MK\" or \"MS\" header", ErrMalformed)
	}
	if msg[2] != catchUpVersion {
		return fmt.Errorf("%w: catch-up version %d; allowed: %d", ErrMalformed, msg[2], catchUpVersion)
	}
	body := msg[:len(msg)-crcLength]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(msg[len(body):]) {
		return fmt.Errorf("%w: catch-up message fails its checksum", ErrMalformed)
	}
	r := reader{binio.NewReader(body[headerLength:], ErrMalformed)}
	if msg[1] == 'S' {
		return f.stateChunk(&r, apply)
	}
	first := int64(r.Uint("first tick", 0, math.MaxInt64/4))
	end := int64(r.Uint("confirmed end", 0, math.MaxInt64/4))
	count := int64(r.Uint("tick count", 0, MaxMessage*8))
	if r.Err() != nil {
		return r.Err()
	}
	if end < first+count {
		return fmt.Errorf("%w: ticks %d to %d sent with a confirmed end of %d", ErrMalformed, first, first+count-1, end)
	}
	if apply && (first != f.next || f.next+count-f.tick > followerQueue) {
		f.stats.Stale++
		return nil
	}
	clear(f.rows)
	for k := first; k < first+count; k++ {
		r.logTick(f.rows, f.players, f.actions)
		if r.Err() != nil {
			return r.Err()
		}
		if apply {
			for p := range f.players {
				copy(f.row(k, p), f.rows[p*f.actions:(p+1)*f.actions])
			}
		}
	}
	if r.Left() != 0 {
		return fmt.Errorf("%w: %d bytes after the catch-up ticks", ErrMalformed, r.Left())
	}
	if apply {
		f.next = first + count
		f.confirmed = max(f.confirmed, end)
		f.stats.Messages++
	}
	return nil
}

// stateChunk takes a snapshot's chunk; the last one loads it into the
// simulation, which then runs on from its tick once the inputs since
// (and stateTail ticks before it, not run) have come.
func (f *Follower) stateChunk(r *reader, apply bool) error {
	tick := int64(r.Uint("snapshot tick", 0, math.MaxInt64/4))
	total := int(r.Uint("snapshot length", 0, MaxState))
	off := int(r.Uint("snapshot offset", 0, MaxState))
	switch {
	case r.Err() != nil:
		return r.Err()
	case tick < f.start:
		return fmt.Errorf("%w: snapshot of tick %d, before the follower's start %d", ErrMalformed, tick, f.start)
	case off+r.Left() > total || r.Left() == 0:
		return fmt.Errorf("%w: snapshot chunk of %d bytes at %d of %d", ErrMalformed, r.Left(), off, total)
	}
	if !apply {
		return nil
	}
	if !f.wantsState() || (len(f.state) > 0 && (tick != f.stateTick || total != cap(f.state))) || off != len(f.state) {
		f.stats.Stale++
		return nil
	}
	if f.state == nil || cap(f.state) != total {
		f.state = make([]byte, 0, total)
	}
	f.stateTick = tick
	f.state = append(f.state, r.Rest()...)
	f.stats.Messages++
	if len(f.state) < total {
		return nil
	}
	if err := f.sim.(StateSimulation).LoadState(tick, f.state); err != nil {
		f.state = f.state[:0]
		f.stats.Malformed++
		return fmt.Errorf("rollback: follower: loading the snapshot of tick %d: %w", tick, err)
	}
	// The inputs from stateTail ticks before the snapshot come next:
	// held, not run.
	f.stats.StateTick, f.stats.StateBytes = tick, len(f.state)
	f.loaded, f.state = true, nil
	f.start = max(f.start, tick-stateTail)
	f.tick, f.next = tick, f.start
	f.confirmed = max(f.confirmed, tick)
	return nil
}

// CaughtUp reports whether the follower has simulated every tick the
// feed could send with its latest message: a player catching up (a
// restarted process rejoining its slot) then plays on with
// [NewSessionAfter]. While it was away its peers could confirm no tick
// past its last input, so the feed's confirmed end stays where it left
// and the follower reaches it. A spectator is caught up whenever it has
// run what has come.
func (f *Follower) CaughtUp() bool {
	return f.stats.Messages > 0 && len(f.state) == 0 && f.tick == f.next && f.next == f.confirmed
}

// Advance simulates the ticks received, as many as budget allows (at
// least one when any is waiting; budget 0 runs one), and returns how many
// it ran. Catching up, give it the part of a frame the window can spare;
// following live, one tick an update.
func (f *Follower) Advance(budget time.Duration, limit int) (int, error) {
	start := f.clock.Now()
	n := 0
	for f.tick < f.next && n < limit {
		f.in = Inputs{f: f, tick: f.tick}
		if err := f.sim.Step(&f.in, false); err != nil {
			return n, fmt.Errorf("rollback: follower tick %d: %w", f.tick, err)
		}
		f.tick++
		n++
		if f.hashEvery > 0 && f.tick%int64(f.hashEvery) == 0 {
			f.hash.tick, f.hash.h, f.hash.ok = f.tick, f.sim.Hash(), true
		}
		if time.Duration(f.clock.Now()-start) >= budget {
			break
		}
	}
	return n, nil
}

// NewSessionAfter returns a session that plays on from where fol has
// caught up: at tick fol.Tick(), driving the simulation fol drove (which
// holds the state before that tick), every tick before it confirmed with
// the inputs fol ran. A player who rejoins, or resynchronises past what
// the messages repeat, catches up through a [Feed] and a [Follower] and
// then plays on with this session; the host calls [Session.Rejoined] for
// its peer. Like tick 0, the ticks a local player's delay skips from the
// start tick carry no input of that player. opts is as for [NewSession]
// and must have fol's players and actions.
func NewSessionAfter(fol *Follower, opts Options) (*Session, error) {
	if len(opts.Players) != fol.players || opts.Actions != fol.actions {
		return nil, fmt.Errorf("rollback: NewSessionAfter: %d players of %d actions; the follower has %d of %d", len(opts.Players), opts.Actions, fol.players, fol.actions)
	}
	s, err := NewSession(fol.sim, opts)
	if err != nil {
		return nil, err
	}
	t := fol.tick
	s.tick, s.begin = t, t
	for p, pl := range opts.Players {
		for i := range s.ringLen {
			s.stamps[i*s.players+p] = -1
		}
		// The ring holds the confirmed inputs before t that fit (those a
		// local player's delay leaves room for), so that the messages'
		// blocks, each coded against the tick before it, start from the
		// inputs the peers confirmed, and a peer still lacking some of
		// this player's last inputs gets them again.
		first := max(fol.start, t-int64(s.ringLen)+1)
		if pl.Peer == opts.Self {
			first = max(fol.start, t+int64(pl.Delay)-int64(s.ringLen))
		}
		for k := first; k < t; k++ {
			copy(s.stored(p, k), fol.row(k, p))
			s.stamps[s.slot(k)*s.players+p] = k
		}
		s.frontier[p] = t
		if pl.Peer == opts.Self {
			for k := t; k < t+int64(pl.Delay); k++ {
				clear(s.stored(p, k))
				s.stamps[s.slot(k)*s.players+p] = k
			}
			s.frontier[p] = t + int64(pl.Delay)
		}
	}
	if s.log != nil {
		s.log.start = t
	}
	return s, nil
}

// Rejoined forgets what peer had acknowledged and reported, for a peer
// whose process started again (netplay's Reconnected event): it sends
// the peer every input it holds that the peer's new messages do not
// acknowledge, from where the peer caught up.
func (s *Session) Rejoined(peer int) {
	if peer < 0 || peer >= maxPeers {
		return
	}
	for p := range s.players {
		s.peerAck[peer*s.players+p] = 0
	}
	s.peerSeen[peer], s.peerTick[peer], s.peerAdv[peer], s.peerDebt[peer] = false, 0, 0, 0
}
