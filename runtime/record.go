package runtime

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/timing"
)

// RecordOptions make a session keep a recording of everything the runtime
// hands its simulation, or replay one (package recording has the format).
// The zero value records and replays nothing.
type RecordOptions struct {
	// Writer, if set, receives every update as the runtime hands it to
	// the simulation, before the game's Update runs: the timing update and
	// its batch's statistics, the input interval and records (the window
	// travels in them), whether a stop had been requested, how many
	// mailbox items ran before it and how many platform results it could
	// see. The caller made it (with the header) and closes it after Run.
	Writer *recording.Writer
	// Reader, if set, replays a recording: the simulation gets the
	// recorded updates in order instead of the scheduler's and the input
	// backlog's, as fast as the clock lets it (a timing.ManualClock: as
	// fast as the CPU allows; the real clock: at recorded speed), and the
	// session stops cleanly at the recording's end. A replay consumes what
	// was recorded, so it runs on one thread whatever Options.Mode says;
	// set Options.Mode to the recorded mode so that GameRuntime.Mode
	// answers as it did. The caller closes it.
	Reader *recording.Reader
	// Hash, if set, fills c with a hash of the game's state (c.Tick is
	// set already): after every Every-th update it is stored in the
	// recording, and during a replay every stored checkpoint is compared
	// with it. An error (state that cannot be hashed) fails the session.
	// Simulation owner only.
	Hash func(c *recording.Checkpoint) error
	// Every is the checkpoint interval in updates when recording: the
	// Writer's Header.CheckpointEvery. Zero is
	// [recording.DefaultCheckpointEvery].
	Every int
	// OwnWindow, with Reader, shows the replayed ticks this session's
	// window (TickContext.Window, the input's State) instead of the
	// recorded one: for a recording that holds no window, such as a
	// networked match's, which keeps its players' confirmed input and no
	// device of any machine. A game that sizes its camera or HUD from the
	// window then draws into the replay's window as it did into the
	// recorded one; the window is presentation, outside the world hash.
	OwnWindow bool
}

func (o RecordOptions) validate(bad func(field string, value any, problem, allowed string)) {
	if o.Writer != nil && o.Reader != nil {
		bad("Options.Record", "a writer and a reader", "records and replays at once", "one of Writer and Reader")
	}
	if o.Every < 0 || o.Every > recording.MaxCheckpointEvery {
		bad("Options.Record.Every", o.Every, "is out of range", fmt.Sprintf("0 (every %d updates) to %d", recording.DefaultCheckpointEvery, recording.MaxCheckpointEvery))
	}
}

// DivergenceError reports a replay whose game state differs from the
// recording's at a checkpoint.
type DivergenceError struct {
	// Tick is the update after which the states differ.
	Tick uint64
	// Want is the recorded checkpoint, Got the replay's.
	Want, Got recording.Checkpoint
}

func (e *DivergenceError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "runtime: replay diverged after tick %d: world hash %016x, recorded %016x", e.Tick, e.Got.Hash, e.Want.Hash)
	if d := e.DifferingTypes(); len(d) > 0 {
		fmt.Fprintf(&b, "; component types that differ: %s", strings.Join(d, ", "))
	}
	return b.String()
}

// DifferingTypes names the component types whose hash or count differ
// between the recorded and the replayed checkpoint, and types present in
// only one of them, sorted.
func (e *DivergenceError) DifferingTypes() []string {
	want := map[string]recording.TypeHash{}
	for _, t := range e.Want.Types {
		want[t.Name] = t
	}
	var out []string
	seen := map[string]bool{}
	for _, t := range e.Got.Types {
		seen[t.Name] = true
		if w, ok := want[t.Name]; !ok {
			out = append(out, t.Name+" (not recorded)")
		} else if w.Hash != t.Hash || w.Count != t.Count {
			if w.Count != t.Count {
				out = append(out, fmt.Sprintf("%s (%d entities, recorded %d)", t.Name, t.Count, w.Count))
			} else {
				out = append(out, t.Name)
			}
		}
	}
	for name := range want {
		if !seen[name] {
			out = append(out, name+" (missing)")
		}
	}
	slices.Sort(out)
	return out
}

// ErrReplayStalled is returned when a replayed update waits for work the
// recording says reached it (mailbox items, platform results) and the
// work never comes: the game's own goroutines do not produce it again.
var ErrReplayStalled = errors.New("runtime: replay stalled")

// RecordStats say what a session's recording or replay has done so far.
type RecordStats struct {
	// Recording and Replaying say which the session does.
	Recording, Replaying bool
	// Ticks counts the updates recorded or replayed, Checkpoints the
	// world hashes stored or checked.
	Ticks, Checkpoints uint64
}

// RecordStats returns the recording's or replay's progress. Safe from any
// goroutine (the demo's overlay shows it).
func (r *GameRuntime) RecordStats() RecordStats {
	s := &r.sim
	return RecordStats{
		Recording:   s.rec.Writer != nil,
		Replaying:   s.rec.Reader != nil,
		Ticks:       s.play.recTicks.Load(),
		Checkpoints: s.play.recChecks.Load(),
	}
}

// replayState is the replay's position in the recording, and the counts
// of a recording or replay that other goroutines read.
type replayState struct {
	recTicks, recChecks atomic.Uint64

	base    timing.Instant // the clock at the first recorded update
	origin  timing.Instant // the first recorded update's end
	started bool
	done    bool
	ticks   uint64

	// held is an item read ahead, looking for a hook's, and not yet
	// replayed; heldErr the error reading it.
	held    recording.Item
	heldErr error
	// deinit is the DeinitSimulation hook's watermark, once read.
	deinit     uint64
	haveDeinit bool
	// own takes this session's polls for RecordOptions.OwnWindow.
	own input.Tick
}

func (s *simulation) initRecord(o RecordOptions) error {
	s.rec = o
	if o.Reader != nil && o.Reader.Version() < 7 {
		// Its watermarks count every platform request.
		s.dispatcher.byCount = true
	}
	s.every = recording.DefaultCheckpointEvery
	if o.Every > 0 {
		s.every = o.Every
	}
	return nil
}

// record appends the tick in s.tick to the recording.
func (s *simulation) record(drained int, futures uint64) error {
	t := &s.tick
	o := &s.out
	o.Update = t.Update
	o.Timing = t.Timing
	o.InputStart, o.InputEnd = s.in.Start(), s.in.End()
	o.Polls = s.in.Polls()
	o.Records = s.in.Records()
	o.Stop = s.stop.Requested()
	o.Mailbox = drained
	o.Futures = futures
	n := s.counters.presented.Load()
	o.Presented = int(n - s.presented)
	s.presented = n
	e := s.endpoint
	o.Shutdown = o.Shutdown[:0]
	for _, q := range e.decided {
		o.Shutdown = append(o.Shutdown, recording.ShutdownRequest{Reason: string(q.Reason), At: q.At, Seq: q.Seq})
	}
	e.decided = e.decided[:0]
	s.play.recTicks.Add(1)
	s.unchecked = s.rec.Hash != nil
	s.checkNow = o.Stop || len(o.Shutdown) > 0
	return s.rec.Writer.Append(o)
}

// checkpoint stores the game's state hash after the tick in s.tick.
func (s *simulation) checkpoint() error {
	c := &s.check
	c.Tick = s.tick.Number
	c.Hash, c.Types = 0, c.Types[:0]
	if err := s.rec.Hash(c); err != nil {
		return err
	}
	s.play.recChecks.Add(1)
	s.unchecked, s.checkNow = false, false
	return s.rec.Writer.Checkpoint(c)
}

// replayLoop is the loop of a replay, on the platform thread: each cycle
// runs one recorded batch, prepares its frame and presents it.
func (r *GameRuntime) replayLoop() {
	p, s := &r.plat, &r.sim
	s.startTiming()
	for p.beginCycle() {
		n, err := s.replayBatch()
		if err != nil {
			r.fail(PhaseReplay, err)
			break
		}
		if n > 0 && !r.fails.any() {
			s.prepare()
		}
		if !r.fails.any() {
			p.present(r.clock.Now())
		}
		if s.play.done {
			r.stop.Request()
		}
	}
	if !s.play.done && !r.fails.any() && s.play.ticks > 0 {
		// Stopped before the end marker (the replayed game stopped
		// itself, or a limit or the window did): the checkpoints right
		// after the last update replayed hold its state, so they are
		// checked too.
		if err := s.verifyTail(); err != nil {
			r.fail(PhaseReplay, err)
		}
	}
}

// verifyTail checks the checkpoints that follow the last update replayed,
// and that nothing follows an end marker after them.
func (s *simulation) verifyTail() error {
	for {
		item, err := s.rec.Reader.Next()
		if errors.Is(err, recording.ErrIncomplete) {
			return nil // a cut recording: nothing more to check
		}
		if err != nil {
			return err
		}
		switch it := item.(type) {
		case *recording.Checkpoint:
			if err := s.verify(it); err != nil {
				return err
			}
		case *recording.End:
			s.play.done = true
			if _, err := s.rec.Reader.Next(); err != io.EOF {
				return err
			}
			return nil
		default:
			return nil
		}
	}
}

// replayBatch runs the recorded updates up to and including the next one
// that ends a batch, and the checkpoints between them. It returns how many
// updates ran.
func (s *simulation) replayBatch() (int, error) {
	ran := 0
	for !s.play.done {
		item, err := s.next()
		if err != nil {
			return ran, err
		}
		switch it := item.(type) {
		case *recording.End:
			s.play.done = true
			// Nothing may follow the end marker.
			if _, err := s.rec.Reader.Next(); err != io.EOF {
				return ran, err
			}
		case *recording.Hook:
			if it.Name != recording.HookDeinitSimulation {
				return ran, fmt.Errorf("runtime: replay: a %v hook after tick %d", it.Name, s.play.ticks)
			}
			s.play.deinit, s.play.haveDeinit = it.Futures, true
		case *recording.Checkpoint:
			if err := s.verify(it); err != nil {
				return ran, err
			}
		case *recording.Tick:
			ok, err := s.replayUpdate(it)
			if err != nil {
				return ran, err
			}
			ran++
			if !ok {
				return ran, nil
			}
			if it.Update.Final {
				s.counters.batches.Add(1)
				return ran, nil
			}
		}
	}
	return ran, nil
}

// replayUpdate runs the recorded update t. Meanwhile the replayed game's
// own shutdown requests (from its policy or its update) are left to the
// recording, which holds them. ok is false when the update ended the
// session.
func (s *simulation) replayUpdate(t *recording.Tick) (ok bool, err error) {
	s.endpoint.replayingSim.Store(true)
	defer s.endpoint.replayingSim.Store(false)
	if err := s.replayTick(t); err != nil {
		return false, err
	}
	s.play.recTicks.Add(1)
	s.counters.updates.Add(1)
	return s.update(), nil
}

// replayTick makes s.tick the recorded update: it waits until the clock
// reaches the update's place on the recorded timeline (at once on virtual
// time), runs the mailbox items and reveals the platform results the
// recorded update had, and rebuilds its input.
func (s *simulation) replayTick(t *recording.Tick) error {
	if want := s.play.ticks; t.Update.Number != want {
		return fmt.Errorf("runtime: replay: the recording jumps from tick %d to tick %d", want, t.Update.Number)
	}
	s.play.ticks++
	if !s.play.started {
		s.play.started = true
		s.play.base, s.play.origin = s.clock.Now(), t.Update.End
	}
	if at := s.play.base.AddSaturating(time.Duration(t.Update.End - s.play.origin)); at > s.clock.Now() {
		for s.clock.Now() < at && !s.stop.Requested() {
			_ = s.waiter.WaitUntil(at)
		}
	}
	at := fmt.Sprintf("tick %d", t.Update.Number)
	if err := s.await(at, "mailbox item", func() bool { return s.mailbox.Pending() >= t.Mailbox }); err != nil {
		return err
	}
	if _, err := s.mailbox.drainN(t.Mailbox); err != nil {
		s.fails.fail(PhaseMailbox, err)
		return nil
	}
	if err := s.await(at, "platform result", func() bool { return s.dispatcher.settledFor(t.Futures) }); err != nil {
		return err
	}
	s.dispatcher.revealRecorded(t.Futures)
	if t.Stop {
		s.stop.Request()
	}
	if len(t.Shutdown) > 0 {
		if err := s.endpoint.replay(t.Update.Number, t.Shutdown); err != nil {
			return err
		}
	}
	from := s.in.State()
	if s.rec.OwnWindow {
		// The latest poll of this session's window, taken whole (a
		// replay's platform thread is its simulation owner).
		s.queue.TakeAll(s.clock.Now(), &s.play.own)
		from.Window = s.play.own.Window()
	}
	s.in.Fill(s.actions, t.InputStart, t.InputEnd, from, t.Records)
	s.in.SetPolls(t.Polls)
	tk := &s.tick
	tk.Update = t.Update
	tk.Timing = t.Timing
	tk.Window = s.in.Window()
	return nil
}

// await waits until ready holds: the work a recorded update had must
// arrive before it runs. Platform work is run here (a replay is
// sequential); mailbox work comes from the game's other goroutines, which
// are not on the session's clock, so the wait is for their posts, and gives
// up after stallTimeout of real time without one.
func (s *simulation) await(where, what string, ready func() bool) error {
	var timer *time.Timer
	for {
		s.drainPlatform()
		if ready() {
			return nil
		}
		if timer == nil {
			timer = time.NewTimer(stallTimeout)
			defer timer.Stop()
		}
		select {
		case <-s.mailbox.arrived.ch():
		case <-s.dispatcher.arrived.ch():
		case <-timer.C:
			return fmt.Errorf("%w: %s waits for a %s that the recording had and the replay does not produce", ErrReplayStalled, where, what)
		}
	}
}

// next returns the next recorded item, the one read ahead first.
func (s *simulation) next() (recording.Item, error) {
	if s.play.held != nil || s.play.heldErr != nil {
		it, err := s.play.held, s.play.heldErr
		s.play.held, s.play.heldErr = nil, nil
		return it, err
	}
	return s.rec.Reader.Next()
}

// recordedHook returns the watermark the recording holds for the hook
// name, reading ahead when it comes next: the InitSimulation hook's before
// the first tick, the DeinitSimulation hook's after the last one (a
// replay that stops with the game's own request has not read it). ok is
// false for a recording without it (format 3 and older, or a replay that
// stopped before the recording did).
func (s *simulation) recordedHook(name recording.HookName) (futures uint64, ok bool) {
	if name == recording.HookDeinitSimulation && s.play.haveDeinit {
		return s.play.deinit, true
	}
	if s.play.done || s.play.held != nil || s.play.heldErr != nil {
		return 0, false
	}
	it, err := s.rec.Reader.Next()
	if h, isHook := it.(*recording.Hook); err == nil && isHook && h.Name == name {
		return h.Futures, true
	}
	s.play.held, s.play.heldErr = it, err
	return 0, false
}

// replayHook runs a simulation hook of a replay with the platform results
// its recorded run saw. A hook recorded in concurrent mode ran beside the
// platform thread and may have waited for platform work, so it runs beside
// it again; a sequential one ran on the platform thread after the work it
// saw had run.
func (s *simulation) replayHook(name recording.HookName, hook func() error) error {
	d := s.dispatcher
	w, ok := s.recordedHook(name)
	if !ok {
		w = d.revealSettled() // what an older recording's hook saw
	}
	if s.mode == Concurrent {
		d.revealRecorded(w)
		d.revealing.Store(revealRecorded)
		done := make(chan struct{})
		var err error
		go func() {
			defer close(done)
			err = guard(hook)
		}()
		s.pumpPlatform(done)
		d.revealing.Store(revealAtUpdates)
		return err
	}
	if err := s.await(name.String(), "platform result", func() bool { return d.settledFor(w) }); err != nil {
		s.fails.fail(PhaseReplay, err)
		return nil
	}
	d.revealRecorded(w)
	d.revealing.Store(revealRecorded)
	err := guard(hook)
	d.revealing.Store(revealAtUpdates)
	return err
}

// stallTimeout is how long a replayed update waits for work that does not
// come before the replay gives up.
var stallTimeout = 10 * time.Second

// verify compares a recorded checkpoint with the game's state now.
func (s *simulation) verify(want *recording.Checkpoint) error {
	if s.rec.Hash == nil {
		return nil
	}
	got := &s.check
	got.Tick = want.Tick
	got.Hash, got.Types = 0, got.Types[:0]
	if err := s.rec.Hash(got); err != nil {
		return err
	}
	if got.Hash == want.Hash {
		s.play.recChecks.Add(1)
		return nil
	}
	e := &DivergenceError{Tick: want.Tick, Want: *want, Got: *got}
	e.Want.Types = slices.Clone(want.Types)
	e.Got.Types = slices.Clone(got.Types)
	return e
}
