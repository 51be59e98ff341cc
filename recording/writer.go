package recording

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/binio"
	"github.com/metronome-go/metronome/timing"
)

// maxQueued is the number of chunks that may wait for the disk: at one
// chunk a second of recorded time, minutes of a stalled disk. Past it the
// writer stops with ErrBehind instead of blocking the simulation.
const maxQueued = 256

// maxPooled is the largest chunk buffer kept for reuse; a rare huge chunk
// (a flood of input in one tick) is left to the garbage collector.
const maxPooled = 1 << 20

// initialChunkCap holds a second of ticks without input; a buffer grows
// to what its chunks need and keeps that size while it circulates.
const initialChunkCap = 8 << 10

// Writer encodes a session into a recording. It encodes on the calling
// goroutine into a reused buffer and hands full chunks to a goroutine of its
// own that writes them, so Append never waits for the disk.
//
// A Writer belongs to one goroutine, the simulation owner: every method
// must be called from it. The background goroutine starts in [NewWriter]
// and is joined by [Writer.Close], which must be called.
type Writer struct {
	name string
	dst  io.Writer
	file *os.File // owned when built by Create

	s         stream
	index     map[string]int
	buf       []byte // the current chunk: frame, then payload
	items     int    // items in the current chunk
	seq       uint64 // the current chunk's number
	offset    int64  // file offset of the current chunk
	timed     bool   // the current chunk has a tick, begun at since (recorded) and sinceReal (clock)
	since     timing.Instant
	clock     timing.Clock
	sinceReal timing.Instant
	broken    bool // a problem on this side; err holds it
	closed    bool
	// presents reads the session's counters at each chunk handed over
	// (WatchPresents); noted is what the last Presents item said.
	presents func() Presents
	noted    Presents

	queue chan chunk
	free  chan []byte
	done  chan struct{}

	writeFailed atomic.Bool // set by the background goroutine
	mu          sync.Mutex
	err         error // the first problem, from either side
}

// chunk is a sealed-to-be chunk handed to the background goroutine.
type chunk struct {
	buf   []byte
	off   int64
	seq   uint64
	ticks uint64
}

// Create creates the file at path (truncating it) and returns a writer on
// it that closes the file in [Writer.Close]. If the header cannot be
// written the file is removed.
func Create(path string, h Header) (*Writer, error) {
	if err := h.validate(); err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, &Error{File: path, Offset: -1, Ticks: -1, Err: err}
	}
	w, err := NewWriter(f, path, h)
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	w.file = f
	return w, nil
}

// NewWriter validates h, writes the magic number, the format version and
// the header to w at once, and returns a writer for the ticks. An invalid
// header is reported field by field (each a [*FieldError], joined); a
// failed write is returned as it happens, so a full disk or an unwritable
// file fails the session's start. name is the file's name for errors.
func NewWriter(w io.Writer, name string, h Header) (*Writer, error) {
	if err := h.validate(); err != nil {
		return nil, err
	}
	if h.CheckpointEvery == 0 {
		h.CheckpointEvery = DefaultCheckpointEvery
	}
	head := append([]byte(nil), magic[:]...)
	head = binio.AppendUvarint(head, FormatVersion)
	at := len(head)
	head = append(head, make([]byte, frameLen)...)
	head = binio.AppendUvarint(head, 0) // the header is chunk 0
	head = binio.AppendString(head, h.Framework)
	head = binio.AppendString(head, h.Game)
	head = binio.AppendString(head, h.Mode)
	head = binio.AppendString(head, h.Package)
	head = binio.AppendString(head, h.Title)
	head = binio.AppendUvarint(head, uint64(len(h.Config)))
	head = append(head, h.Config...)
	head = binio.AppendU64(head, h.Seed)
	head = binio.AppendUvarint(head, uint64(h.CheckpointEvery))
	if h.Net == nil {
		head = binio.AppendUvarint(head, 0)
	} else {
		head = binio.AppendUvarint(head, uint64(h.Net.Players))
		head = binio.AppendUvarint(head, uint64(h.Net.Actions))
		head = binio.AppendVarint(head, int64(h.Net.Peer))
	}
	seal(head[at:], head[:at])
	if _, err := w.Write(head); err != nil {
		return nil, &Error{File: name, Offset: 0, Ticks: -1, Err: fmt.Errorf("writing the header: %w", err)}
	}
	wr := &Writer{
		name:   name,
		dst:    w,
		s:      newStream(),
		index:  make(map[string]int),
		seq:    1,
		offset: int64(len(head)),
		queue:  make(chan chunk, maxQueued),
		free:   make(chan []byte, maxQueued+2),
		done:   make(chan struct{}),
		clock:  timing.SystemClock{},
	}
	// Buffers circulate between the owner and the background goroutine;
	// a few to start with cover a goroutine that is slow to run.
	for range 4 {
		wr.free <- make([]byte, 0, initialChunkCap)
	}
	if h.Net != nil {
		wr.s.actions = h.Net.Actions
		wr.s.players = make([]input.Stats, h.Net.Players*h.Net.Actions)
	}
	wr.buf = wr.begin(make([]byte, 0, initialChunkCap))
	go wr.run()
	return wr, nil
}

func (h *Header) validate() error {
	var errs []error
	str := func(field string, n, limit int) {
		if n > limit {
			errs = append(errs, &FieldError{Field: field, Value: n, Problem: "bytes is too long",
				Allowed: fmt.Sprintf("0 to %d bytes", limit)})
		}
	}
	str("Header.Framework", len(h.Framework), MaxStringLen)
	str("Header.Game", len(h.Game), MaxStringLen)
	str("Header.Mode", len(h.Mode), MaxStringLen)
	str("Header.Package", len(h.Package), MaxStringLen)
	str("Header.Title", len(h.Title), MaxStringLen)
	str("Header.Config", len(h.Config), MaxConfigLen)
	within := func(field string, v, lo, hi int, allowed string) {
		if v < lo || v > hi {
			errs = append(errs, &FieldError{Field: field, Value: v, Problem: "is out of range", Allowed: allowed})
		}
	}
	if n := h.Net; n != nil {
		within("Header.Net.Players", n.Players, 1, MaxPlayers, fmt.Sprintf("1 to %d", MaxPlayers))
		within("Header.Net.Actions", n.Actions, 1, MaxActions, fmt.Sprintf("1 to %d", MaxActions))
		within("Header.Net.Peer", n.Peer, -1, MaxPeer, fmt.Sprintf("-1 (a spectator) or 0 to %d", MaxPeer))
	}
	within("Header.CheckpointEvery", h.CheckpointEvery, 0, MaxCheckpointEvery,
		fmt.Sprintf("0 (meaning %d) to %d ticks", DefaultCheckpointEvery, MaxCheckpointEvery))
	return errors.Join(errs...)
}

// begin starts chunk w.seq in b.
func (w *Writer) begin(b []byte) []byte {
	b = append(b[:0], make([]byte, frameLen)...)
	w.items, w.timed = 0, false
	return binio.AppendUvarint(b, w.seq)
}

// Append records one tick. It encodes t (which it does not keep) and
// allocates nothing in steady state. It returns the first problem so far:
// a tick the format cannot hold (wrapping [ErrInvalid]), a write that
// failed in the background, or [ErrBehind]. After a problem the recording
// stops: every later call returns the same error, and Close writes what
// was accepted but no end marker, so a reader sees a recording cut short.
func (w *Writer) Append(t *Tick) error {
	if err := w.usable(); err != nil {
		return err
	}
	if err := w.checkTick(t); err != nil {
		return w.breakWith(err)
	}
	w.buf = w.s.appendTick(w.buf, t)
	w.items++
	now := w.clock.Now()
	if !w.timed {
		w.timed, w.since, w.sinceReal = true, t.Update.End, now
	}
	if len(w.buf) >= chunkTarget+frameLen {
		return w.flush(false)
	}
	// Recorded time bounds what a kill loses of the session's timeline,
	// real time what it loses when updates run faster or slower than
	// real time (a catch-up, a slow start). While the disk is behind,
	// handing it another small chunk would save nothing sooner: the time
	// bound waits and the size bound still applies.
	d, r := int64(t.Update.End-w.since), int64(now-w.sinceReal)
	if (d >= int64(FlushInterval) || d < 0 || r >= int64(FlushInterval) || r < 0) && len(w.queue) < maxQueued/2 {
		return w.flush(false)
	}
	return nil
}

// SetClock sets the clock whose time bounds how long a tick waits in the
// chunk being filled ([FlushInterval]): by default [timing.SystemClock], a
// test's virtual clock makes chunk boundaries exact. Call it before the
// first Append.
func (w *Writer) SetClock(c timing.Clock) {
	if c != nil {
		w.clock = c
	}
}

// Checkpoint records a world hash taken after the latest tick. It
// allocates only for a type name not seen before in the recording. Errors
// are as for [Writer.Append].
func (w *Writer) Checkpoint(c *Checkpoint) error {
	if err := w.usable(); err != nil {
		return err
	}
	if err := w.checkCheckpoint(c); err != nil {
		return w.breakWith(err)
	}
	w.buf = w.s.appendCheckpoint(w.buf, c, w.index)
	w.items++
	if len(w.buf) >= chunkTarget+frameLen {
		return w.flush(false)
	}
	return nil
}

// Hook records what a simulation hook outside the updates saw: call it
// when InitSimulation has returned, before the first tick, and when
// DeinitSimulation has returned, after the last one. Errors are as for
// [Writer.Append]; a hook name the format does not define wraps
// [ErrInvalid].
func (w *Writer) Hook(h *Hook) error {
	if err := w.usable(); err != nil {
		return err
	}
	if h.Name > HookDeinitSimulation {
		return w.breakWith(w.fail(-1, &FieldError{Field: "Hook.Name", Value: h.Name, Problem: "is not defined", Allowed: "HookInitSimulation or HookDeinitSimulation"}))
	}
	w.buf = appendHook(w.buf, h)
	w.items++
	if len(w.buf) >= chunkTarget+frameLen {
		return w.flush(false)
	}
	return nil
}

// Pacing records what a networked match's timing did in one update (see
// [Pacing]). It allocates nothing. Errors are as for [Writer.Append]; a
// recording that is not of a match (no Header.Net) refuses it, wrapping
// [ErrInvalid].
func (w *Writer) Pacing(p *Pacing) error {
	if err := w.usable(); err != nil {
		return err
	}
	if len(w.s.players) == 0 {
		return w.breakWith(w.fail(-1, detail(ErrInvalid, "a pacing item in a recording that is not of a networked match (Header.Net is nil)")))
	}
	w.buf = appendPacing(w.buf, p)
	w.items++
	if len(w.buf) >= chunkTarget+frameLen {
		return w.flush(false)
	}
	return nil
}

// Net records a networked match's figures at this moment (see
// [NetFigures]). It allocates nothing. Errors are as for [Writer.Pacing].
func (w *Writer) Net(n *NetFigures) error {
	if err := w.usable(); err != nil {
		return err
	}
	if len(w.s.players) == 0 {
		return w.breakWith(w.fail(-1, detail(ErrInvalid, "net figures in a recording that is not of a networked match (Header.Net is nil)")))
	}
	w.buf = appendNet(w.buf, n)
	w.items++
	if len(w.buf) >= chunkTarget+frameLen {
		return w.flush(false)
	}
	return nil
}

// WatchPresents has the writer note the session's presented frames:
// read (the runtime's counters, which must be cheap and safe to call
// from the writer's goroutine, the simulation owner) is called each time
// a chunk is handed over, about every [FlushInterval] of ticks, and on
// Finish, and a [Presents] item is recorded when they moved. So the tick
// pays nothing for it: a chunk costs one call. Call it before the first
// Append.
func (w *Writer) WatchPresents(read func() Presents) { w.presents = read }

// notePresents records the session's presents when they moved since the
// last note.
func (w *Writer) notePresents() {
	if w.presents == nil {
		return
	}
	p := w.presents()
	if p == w.noted {
		return
	}
	w.noted = p
	w.buf = appendPresents(w.buf, p)
	w.items++
}

// Flush hands what has been recorded since the last chunk to the
// background goroutine now, without waiting for the disk. Append hands a
// chunk over by itself once its first tick is [FlushInterval] old, in
// recorded or real time; Flush is for a pause, or a test that follows the
// file.
func (w *Writer) Flush() error {
	if err := w.usable(); err != nil {
		return err
	}
	return w.flush(false)
}

// Ticks returns the number of ticks appended.
func (w *Writer) Ticks() uint64 { return w.s.ticks }

// Checkpoints returns the number of checkpoints appended.
func (w *Writer) Checkpoints() uint64 { return w.s.checks }

// Close ends the recording with the session's error: [Clean] for nil,
// [Failed] with the error's message otherwise. See [Writer.Finish].
func (w *Writer) Close(outcome error) error {
	if outcome == nil {
		return w.Finish(Clean, "")
	}
	msg := outcome.Error()
	if msg == "" {
		msg = fmt.Sprintf("%T with an empty message", outcome)
	}
	return w.Finish(Failed, msg)
}

// Finish ends the recording: it writes the end marker with the session's
// outcome and its message (dropped for [Clean]; for another outcome an
// empty message becomes the outcome's name, a longer one than
// [MaxErrorLen] is cut), flushes, waits for the background goroutine to
// write everything and, for a writer from [Create], syncs and closes the
// file. It returns the first problem of the whole recording, joined with
// any from closing the file. A second Finish or Close returns [ErrClosed].
func (w *Writer) Finish(o Outcome, msg string) error {
	if w.closed {
		return w.fail(-1, detail(ErrClosed, "the writer is closed"))
	}
	w.closed = true
	if o >= numOutcomes {
		w.breakWith(w.fail(-1, detail(ErrInvalid, "outcome %d is not an Outcome (allowed: 0 to %d)", o, numOutcomes-1)))
	}
	if !w.broken && !w.writeFailed.Load() {
		switch {
		case o == Clean:
			msg = ""
		case msg == "":
			msg = o.String()
		}
		w.notePresents()
		w.buf = w.s.appendEnd(w.buf, o, cut(msg, MaxErrorLen))
		w.items++
	}
	if !w.writeFailed.Load() {
		// The chunk holds only values that passed the checks, even
		// after a refused one: keep them.
		w.flush(true)
	}
	close(w.queue)
	<-w.done
	w.mu.Lock()
	err := w.err
	w.mu.Unlock()
	if w.file != nil {
		if e := w.file.Sync(); e != nil && err == nil {
			err = &Error{File: w.name, Offset: -1, Ticks: -1, Err: fmt.Errorf("syncing: %w", e)}
		}
		if e := w.file.Close(); e != nil {
			err = errors.Join(err, &Error{File: w.name, Offset: -1, Ticks: -1, Err: fmt.Errorf("closing: %w", e)})
		}
	}
	return err
}

// cut shortens s to at most n bytes without splitting a UTF-8 sequence.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func (w *Writer) usable() error {
	if w.closed {
		return w.fail(-1, detail(ErrClosed, "the writer is closed"))
	}
	if w.broken || w.writeFailed.Load() {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.err
	}
	return nil
}

// fail wraps err with the writer's context.
func (w *Writer) fail(off int64, err error) error {
	return &Error{File: w.name, Offset: off, Ticks: int64(w.s.ticks), Err: err}
}

// breakWith stops the recording on a problem found on the owner's side.
func (w *Writer) breakWith(err error) error {
	w.broken = true
	w.keep(err)
	return err
}

func (w *Writer) keep(err error) {
	w.mu.Lock()
	if w.err == nil {
		w.err = err
	}
	w.mu.Unlock()
}

func (w *Writer) checkTick(t *Tick) error {
	if t.Update.Kind >= timing.NumKinds {
		return w.fail(-1, detail(ErrInvalid, "update kind %d is not a timing.Kind (allowed: 0 to %d)",
			t.Update.Kind, timing.NumKinds-1))
	}
	if t.Presented < 0 {
		return w.fail(-1, detail(ErrInvalid, "tick %d: %d frames presented (allowed: 0 or more)",
			t.Update.Number, t.Presented))
	}
	if len(t.Records) > MaxRecords {
		return w.fail(-1, detail(ErrInvalid, "%d input records in one tick (allowed: at most %d)",
			len(t.Records), MaxRecords))
	}
	for i := range t.Records {
		if k := t.Records[i].Kind; k < input.RecordPress || k > lastRecordKind {
			return w.fail(-1, detail(ErrInvalid, "record %d: kind %d is not an input record kind (allowed: %d to %d)",
				i, k, input.RecordPress, lastRecordKind))
		}
	}
	if len(t.Players) != len(w.s.players) {
		if len(w.s.players) == 0 {
			return w.fail(-1, detail(ErrInvalid, "tick %d has %d players' action states, but the recording is not of a networked match (allowed: none)",
				t.Update.Number, len(t.Players)))
		}
		return w.fail(-1, detail(ErrInvalid, "tick %d has %d players' action states (allowed: exactly %d, Players × Actions of Header.Net)",
			t.Update.Number, len(t.Players), len(w.s.players)))
	}
	if len(t.Shutdown) > MaxShutdownRequests {
		return w.fail(-1, detail(ErrInvalid, "%d shutdown requests in one tick (allowed: at most %d)",
			len(t.Shutdown), MaxShutdownRequests))
	}
	for i := range t.Shutdown {
		if n := len(t.Shutdown[i].Reason); n > MaxReasonBytes {
			return w.fail(-1, detail(ErrInvalid, "shutdown request %d: a %d-byte reason (allowed: at most %d bytes)",
				i, n, MaxReasonBytes))
		}
	}
	return nil
}

func (w *Writer) checkCheckpoint(c *Checkpoint) error {
	if len(c.Types) > MaxTypes {
		return w.fail(-1, detail(ErrInvalid, "checkpoint after tick %d has %d types (allowed: at most %d)",
			c.Tick, len(c.Types), MaxTypes))
	}
	fresh := 0
	for i := range c.Types {
		th := &c.Types[i]
		if th.Count < 0 {
			return w.fail(-1, detail(ErrInvalid, "checkpoint after tick %d: type %q has count %d (allowed: 0 or more)",
				c.Tick, th.Name, th.Count))
		}
		if _, ok := w.index[th.Name]; !ok {
			if len(th.Name) > MaxNameLen {
				return w.fail(-1, detail(ErrInvalid, "checkpoint after tick %d: type name of %d bytes (allowed: at most %d)",
					c.Tick, len(th.Name), MaxNameLen))
			}
			fresh++
		}
	}
	if len(w.s.types)+fresh > MaxTypes {
		return w.fail(-1, detail(ErrInvalid, "checkpoint after tick %d brings the distinct type names to %d (allowed: at most %d)",
			c.Tick, len(w.s.types)+fresh, MaxTypes))
	}
	return nil
}

// flush hands the current chunk over, if it holds anything. Only Close
// may wait for room in the queue.
func (w *Writer) flush(wait bool) error {
	if w.items == 0 {
		return nil
	}
	if !w.closed && !w.broken {
		w.notePresents()
	}
	c := chunk{buf: w.buf, off: w.offset, seq: w.seq, ticks: w.s.ticks}
	if wait {
		w.queue <- c
	} else {
		select {
		case w.queue <- c:
		default:
			return w.breakWith(w.fail(w.offset, detail(ErrBehind,
				"%d chunks wait to be written; recording stopped rather than block the simulation", maxQueued)))
		}
	}
	w.offset += int64(len(c.buf))
	w.seq++
	var b []byte
	select {
	case b = <-w.free:
	default:
		b = make([]byte, 0, initialChunkCap)
	}
	w.buf = w.begin(b)
	return nil
}

// run is the background goroutine: it seals and writes chunks in order,
// stops writing at the first failure and recycles the buffers.
func (w *Writer) run() {
	defer close(w.done)
	for c := range w.queue {
		if !w.writeFailed.Load() {
			seal(c.buf, nil)
			if _, err := w.dst.Write(c.buf); err != nil {
				w.keep(&Error{File: w.name, Offset: c.off, Ticks: int64(c.ticks),
					Err: fmt.Errorf("writing chunk %d: %w", c.seq, err)})
				w.writeFailed.Store(true)
			}
		}
		if cap(c.buf) <= maxPooled {
			select {
			case w.free <- c.buf:
			default:
			}
		}
	}
}
