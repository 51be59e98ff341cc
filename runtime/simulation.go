package runtime

import (
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/timing"
)

// simulation is the state of the simulation owner: the scheduler, the tick
// lent to Update and the input taken for it. In sequential mode the
// platform thread is the owner; in concurrent mode a goroutine the runtime
// starts and joins. Nothing else touches it.
type simulation struct {
	game Game
	view Simulation // what InitSimulation gets

	// The handles the simulation uses, each shared with its other user
	// only (see GameRuntime).
	clock      timing.Clock
	queue      *input.Queue    // takes ticks
	slots      *render2d.Slots // publishes frames
	x          *exchange
	stop       *StopSignal
	fails      *failures
	mailbox    *Mailbox            // drains it before each update
	dispatcher *PlatformDispatcher // reveals settled results to updates
	services   *Services
	endpoint   *ShutdownEndpoint // negotiates staged requests
	counters   *counters
	// wakePlatform ends the platform thread's wait; drainPlatform runs its
	// dispatcher batch and pumpPlatform runs batches until done closes,
	// for a replay, which services the platform's work from its own
	// waits on the one thread.
	wakePlatform  func()
	drainPlatform func()
	pumpPlatform  func(done <-chan struct{})

	hiddenInterval time.Duration
	mode           Mode           // as recorded, for a replayed hook
	actions        *input.Actions // a replay summarises recorded input with it
	// own reports a goroutine of its own (concurrent mode); then waiter is
	// that goroutine's, otherwise it is the platform's.
	own    bool
	waiter timing.Waiter

	sched     *timing.Scheduler
	timing    timing.Options // as the game set them; see applyTimingOptions
	tick      TickContext
	in        input.Tick
	lastBatch timing.Instant

	// Record and replay (record.go).
	rec   RecordOptions
	every int // checkpoint interval in ticks
	out   recording.Tick
	check recording.Checkpoint
	// presented is the frames presented counter when the previous tick
	// was recorded: the next tick's Presented counts from it.
	presented uint64
	play      replayState
	// unchecked: the latest recorded tick has no checkpoint after it yet;
	// checkNow: it gets one whatever the interval (a stop or a shutdown
	// request reached it).
	unchecked, checkNow bool

	// Which game init hook was attempted; its cleanup hook pairs with it.
	tried bool

	done, initDone, begin chan struct{}
}

func (s *simulation) init(r *GameRuntime) error {
	s.game, s.clock, s.queue, s.slots, s.x = r.game, r.clock, r.queue, r.slots, &r.x
	s.stop, s.fails, s.mailbox, s.dispatcher = r.stop, &r.fails, &r.mailbox, &r.dispatcher
	s.services, s.endpoint, s.counters = &r.services, &r.endpoint, &r.counters
	s.hiddenInterval, s.mode, s.actions = r.opts.HiddenInterval, r.opts.Mode, r.actions
	p := &r.plat
	s.wakePlatform, s.drainPlatform, s.pumpPlatform = p.waiter.Wake, p.drainDispatcher, p.pumpUntil
	var err error
	if s.sched, err = timing.NewScheduler(r.opts.Timing); err != nil {
		return err
	}
	s.timing = r.opts.Timing
	s.own = r.opts.Mode == Concurrent && r.opts.Record.Reader == nil // a replay runs on one thread
	if s.own {
		s.waiter = r.clock.NewWaiter()
		p.wakeSim = s.waiter.Wake
	} else {
		s.waiter = p.waiter
	}
	s.tick.Input = &s.in
	s.tick.Stop = r.stop
	return s.initRecord(r.opts.Record)
}

// startTiming starts the scheduler and the input intervals together.
func (s *simulation) startTiming() {
	now := s.clock.Now()
	s.sched.Start(now)
	s.queue.Start(now)
	s.lastBatch = now
	s.x.setStats(s.sched.Stats())
}

// applyTimingOptions installs options set since the last batch and, under
// Options.FollowPresentation, a variable interval that follows the
// presentation cadence.
func (s *simulation) applyTimingOptions() {
	o, set := s.x.takeTimingOptions()
	if set {
		s.timing = o
	}
	want := s.timing
	if c := time.Duration(s.x.cadence.Load()); c > 0 && want.Mode == timing.VariableMode && s.x.follow.Load() {
		want.Interval = c
	}
	if !set && want.Interval == s.sched.Options().Interval {
		return
	}
	if err := s.sched.SetOptions(want); err != nil {
		s.fails.fail(PhaseSchedule, err)
	}
}

// runBatch advances the scheduler to now and runs the selected updates. It
// returns how many ran.
func (s *simulation) runBatch(now timing.Instant) int {
	batch, err := s.sched.Advance(now)
	if err != nil {
		s.fails.fail(PhaseSchedule, err)
		return 0
	}
	stats := s.sched.Stats()
	ran := 0
	for i := range batch.Updates {
		if i > 0 && s.stop.Requested() {
			break
		}
		u := &batch.Updates[i]
		if s.endpoint.take() > 0 && s.unchecked {
			// The policy about to decide and the mailbox work before it
			// may change game state. The state after the last tick is
			// hashed first, before the drain: the replay checks the
			// checkpoint right after that tick, and it runs neither the
			// drain nor the policy of an update a request ended.
			if err := s.checkpoint(); err != nil {
				s.fails.fail(PhaseRecord, err)
				break
			}
		}
		drained, err := s.mailbox.drainN(-1)
		if err != nil {
			s.fails.fail(PhaseMailbox, err)
			break
		}
		futures := s.dispatcher.revealSettled()
		if s.endpoint.negotiate() {
			break // an ordinary shutdown request was accepted
		}
		at := s.clock.Now()
		if err := s.services.run(PreUpdate, at); err != nil {
			s.fails.fail(PhaseService, err)
			break
		}
		if s.x.delivery() == input.Timestamped {
			s.queue.TakeSpan(u.Start, u.End, &s.in)
		} else {
			s.queue.TakeAll(at, &s.in)
		}
		t := &s.tick
		t.Update = *u
		t.Timing = stats
		t.Window = s.in.Window()
		if s.rec.Writer != nil {
			if err := s.record(drained, futures); err != nil {
				s.fails.fail(PhaseRecord, err)
				break
			}
		}
		ok := s.update()
		ran++
		if !ok {
			break
		}
	}
	if ran > 0 {
		s.counters.batches.Add(1)
		s.counters.updates.Add(uint64(ran))
	}
	// The updates a stop left unrun are not the frame's work.
	for _, u := range batch.Updates[ran:] {
		batch.Ticks[u.Kind]--
	}
	s.x.addBatch(stats, batch.Work)
	return ran
}

// update runs the game's Update on the tick in s.tick, then the
// checkpoint that falls after it, and reports whether the session goes on.
func (s *simulation) update() bool {
	t := &s.tick
	t.Owed = Owed{}
	if err := guard(func() error { return s.game.Update(t) }); err != nil {
		s.fails.fail(PhaseUpdate, err)
		return false
	}
	if t.Owed != (Owed{}) {
		if err := t.Owed.owe(s.sched); err != nil {
			s.fails.fail(PhaseSchedule, err)
			return false
		}
	}
	if s.rec.Writer != nil && s.rec.Hash != nil && ((t.Number+1)%uint64(s.every) == 0 || s.checkNow || t.StopRequested()) {
		if err := s.checkpoint(); err != nil {
			s.fails.fail(PhaseRecord, err)
			return false
		}
	}
	return true
}

// prepare lends a free slot to PrepareFrame and publishes the frame, or
// counts a skipped publication when no slot is free.
func (s *simulation) prepare() bool {
	w, ok := s.slots.Begin()
	if !ok {
		s.counters.skipped.Add(1)
		return false
	}
	// The frame shows the batch's last update: its span of real time, over
	// which the platform moves each packet from its previous placement to
	// its current one, one step late. Only a fixed step interpolates; after
	// a variable or catch-up update the state is already that of its end.
	u := &s.tick.Update
	span := render2d.Span{Start: u.Start, End: u.End}
	if u.Kind == timing.FixedUpdate {
		span.Step = u.Span()
		if st := &s.tick.Timing; st.Enabled.Has(timing.MechPacing) {
			// RepayDebt's pacing runs one step per step/Rate of real time,
			// and while debt is repaid the span ends lag the clock by the
			// debt. The frame is shown over the real time the pace gives
			// it, ending when the next update is due, so motion on screen
			// runs evenly at the pace instead of jumping a step per update.
			span.Step = time.Duration(float64(span.Step) / st.Rate)
			span.End = st.NextUpdateAt.AddSaturating(-span.Step)
			span.Start = span.End.AddSaturating(-span.Step)
		}
	}
	w.Frame().Span = span
	if err := guard(func() error { return s.game.PrepareFrame(w) }); err != nil {
		s.slots.Discard(w)
		s.fails.fail(PhasePrepareFrame, err)
		return false
	}
	if f := w.Frame(); f.Span.Step > 0 && !f.Moves() {
		f.Span.Step = 0 // nothing moves: one present shows it all
	}
	s.slots.Publish(w)
	s.counters.prepared.Add(1)
	return true
}

// batchAt returns when the next batch may run: when the scheduler says it
// is due, but while the window is hidden (or throttled) only at the
// platform's cycles, which come every HiddenInterval on the grid the
// platform anchored. Both run modes therefore run the same batches at the
// same instants, each after the same polls.
func (s *simulation) batchAt() timing.Instant {
	due := s.sched.NextUpdateAt()
	if !s.x.hidden.Load() || due == timing.MaxInstant {
		return due
	}
	anchor := timing.Instant(s.x.hiddenAt.Load())
	lo := max(due, anchor)
	if s.lastBatch >= lo {
		lo = s.lastBatch + 1 // one batch per cycle
	}
	iv := s.hiddenInterval
	k := (time.Duration(lo-anchor) + iv - 1) / iv
	return anchor.AddSaturating(k * iv)
}

// main is the simulation goroutine of concurrent mode.
func (s *simulation) main() {
	defer func() {
		close(s.done)
		s.wakePlatform()
		// This goroutine waits no more: on virtual time the clock must
		// not wait for it. Released only after done is closed, so that
		// the platform, which waits for done, never sees the clock run
		// on while this goroutine is still on its way out.
		s.waiter.Release()
	}()
	err := s.initHook()
	if err != nil {
		s.fails.fail(PhaseInitSimulation, err)
	}
	close(s.initDone)
	s.wakePlatform()
	if err == nil {
		select {
		case <-s.begin:
			s.loop()
		case <-s.stop.Done():
		}
	}
	s.deinit()
}

// loop waits for each due batch, runs it and publishes a frame.
func (s *simulation) loop() {
	s.startTiming()
	for !s.stop.Requested() {
		s.applyTimingOptions()
		s.applyFocus()
		next := s.batchAt()
		// Wait even when next has passed: on a timing.ManualClock that is
		// where the platform finishes its work at this instant (its poll)
		// first, so which polls an update sees does not depend on the
		// machine. On the real clock a passed target returns at once.
		if err := s.waiter.WaitUntil(next); err != nil {
			continue
		}
		now := s.clock.Now()
		if now < next {
			continue
		}
		s.lastBatch = now
		if s.runBatch(now) == 0 {
			// Nothing was due at this reading (the scheduler then puts
			// NextUpdateAt in the future): wait for it.
			continue
		}
		if s.fails.any() || s.stop.Requested() {
			break
		}
		if s.prepare() {
			s.wakePlatform()
		}
	}
}

// initHook runs InitSimulation (see runHook).
func (s *simulation) initHook() error {
	return s.runHook(recording.HookInitSimulation, func() error { return s.game.InitSimulation(&s.view) })
}

// runHook runs a simulation hook outside the updates on the simulation
// owner. Such a hook may wait for platform work (in concurrent mode the
// platform thread services it meanwhile), so a result is visible to it as
// soon as it is settled; a recording keeps how many results it saw by its
// end, and a replay shows its hook the same.
func (s *simulation) runHook(name recording.HookName, hook func() error) error {
	if s.rec.Reader != nil {
		return s.replayHook(name, hook)
	}
	d := s.dispatcher
	d.revealSettled()
	d.revealing.Store(revealWhenSettled)
	err := guard(hook)
	d.revealing.Store(revealAtUpdates)
	if s.rec.Writer != nil {
		if werr := s.rec.Writer.Hook(&recording.Hook{Name: name, Futures: d.recorded()}); werr != nil {
			s.fails.fail(PhaseRecord, werr)
		}
	}
	return err
}

// stop closes the mailbox and runs DeinitSimulation on the simulation
// owner.
func (s *simulation) deinit() {
	if s.unchecked && !s.fails.any() {
		// The last ticks are verified on replay too.
		if err := s.checkpoint(); err != nil {
			s.fails.fail(PhaseRecord, err)
		}
	}
	s.mailbox.close()
	if s.tried {
		if err := s.runHook(recording.HookDeinitSimulation, s.game.DeinitSimulation); err != nil {
			s.fails.fail(PhaseDeinitSimulation, err)
		}
	}
}
