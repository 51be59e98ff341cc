package runtime

import (
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/timing"
)

// Run runs the session on the calling thread and returns when it has shut
// down: nil after a clean stop (a stop request or the window's close
// intent), otherwise the first failure joined with later ones, each a
// [*PhaseError]. It returns [ErrAlreadyRun] when called again. Call it on the
// thread that owns the window and graphics context.
func (r *GameRuntime) Run() error {
	if !r.ran.CompareAndSwap(false, true) {
		return ErrAlreadyRun
	}
	r.life.advance(StateInitializing)
	if r.initialize() {
		r.life.advance(StateRunning)
		if r.opts.Mode == Concurrent {
			close(r.simBegin)
			r.platformLoop()
		} else {
			r.sequentialLoop()
		}
	}
	r.shutdown()
	err := r.fails.err()
	r.life.finish(err)
	return err
}

// initialize runs the init steps in order and reports whether the loop
// should start.
func (r *GameRuntime) initialize() bool {
	c := r.ctx
	if c.Input != nil {
		if err := guard(c.Input.Init); err != nil {
			r.fail(PhaseInitInput, err)
			return false
		}
	}
	if err := guard(c.Presenter.Init); err != nil {
		r.fail(PhaseInitGraphics, err)
		return false
	}
	if err := guard(func() error {
		c.Display.PollEvents()
		w := c.Display.State()
		r.setWindow(w)
		r.lastFB = w.Framebuffer
		c.Renderer.SetFramebufferSize(w.Framebuffer.Width, w.Framebuffer.Height)
		return nil
	}); err != nil {
		r.fail(PhaseInitGraphics, err)
		return false
	}
	r.triedPlatform = true
	if err := guard(func() error { return r.game.InitPlatform(r) }); err != nil {
		r.fail(PhaseInitPlatform, err)
		return false
	}
	if r.stop.Requested() {
		return false
	}
	if r.opts.Mode == Sequential {
		r.triedSimulation = true
		if err := guard(func() error { return r.game.InitSimulation(r) }); err != nil {
			r.fail(PhaseInitSimulation, err)
			return false
		}
		return !r.stop.Requested()
	}
	r.simDone = make(chan struct{})
	r.simInitDone = make(chan struct{})
	r.simBegin = make(chan struct{})
	r.triedSimulation = true
	go r.simulationMain()
	r.pumpUntil(r.simInitDone)
	return !r.stop.Requested()
}

// pumpUntil runs platform dispatcher batches until done is closed, so that
// the simulation owner never waits on platform work that cannot run.
func (r *GameRuntime) pumpUntil(done <-chan struct{}) {
	for {
		r.drainDispatcher()
		select {
		case <-done:
			return
		default:
		}
		_ = r.platformWaiter.WaitUntil(r.clock.Now().AddSaturating(r.opts.Maintenance))
	}
}

func (r *GameRuntime) drainDispatcher() {
	if n := r.dispatcher.drain(); n > 0 {
		r.counters.dispatched.Add(uint64(n))
	}
}

func (r *GameRuntime) setWindow(w WindowState) {
	r.winMu.Lock()
	r.win = w
	r.winMu.Unlock()
	if r.hidden.Swap(w.Hidden) != w.Hidden {
		r.visibilityChanged()
	}
}

func (r *GameRuntime) window() WindowState {
	r.winMu.Lock()
	defer r.winMu.Unlock()
	return r.win
}

// platformChores runs the start of every platform cycle: the dispatcher
// batch, maintenance services and, when due, a poll. Platform thread only.
func (r *GameRuntime) platformChores(now timing.Instant) (polled bool) {
	r.counters.cycles.Add(1)
	r.drainDispatcher()
	if err := r.services.run(Maintenance, now); err != nil {
		r.fail(PhaseService, err)
		return false
	}
	r.applyFrameCap()
	if !r.queue.PollDue(now) {
		return false
	}
	c := r.ctx
	err := guard(func() error {
		c.Display.PollEvents()
		w := c.Display.State()
		r.poll.window = w.Window
		r.queue.Poll(&r.poll, now)
		r.setWindow(w)
		if w.CloseRequested {
			r.stop.Request()
		}
		return nil
	})
	if err != nil {
		r.fail(PhasePoll, err)
		return false
	}
	r.counters.polls.Add(1)
	return true
}

// pollSource is what the runtime polls: the context's input adapter (or
// nothing, keeping the backlog's poll spacing and clock) followed by the
// window the display sampled in the same poll, so that the window crosses
// to the simulation inside the poll's snapshot. Platform thread only.
type pollSource struct {
	input  input.Source
	window input.Window
	sync   input.WindowSync
}

func (p *pollSource) Poll(now timing.Instant, dst *input.Snapshot) {
	if p.input != nil {
		p.input.Poll(now, dst)
	} else {
		dst.Reset()
		dst.Time = now
	}
	p.sync.Apply(dst, p.window)
}

// startTiming starts the scheduler and the input intervals together.
// Scheduler owner only.
func (r *GameRuntime) startTiming() {
	now := r.clock.Now()
	r.sched.Start(now)
	r.queue.Start(now)
	r.lastBatch = now
	r.publishStats()
}

func (r *GameRuntime) publishStats() {
	s := r.sched.Stats()
	r.statsMu.Lock()
	r.schedStats = s
	r.statsMu.Unlock()
}

// runBatch advances the scheduler to now and runs the selected updates. It
// returns how many ran. Scheduler owner only.
func (r *GameRuntime) runBatch(now timing.Instant) int {
	batch, err := r.sched.Advance(now)
	if err != nil {
		r.fail(PhaseSchedule, err)
		return 0
	}
	stats := r.sched.Stats()
	ran := 0
	var kinds [timing.NumKinds]int
	for i := range batch.Updates {
		if i > 0 && r.stop.Requested() {
			break
		}
		u := &batch.Updates[i]
		if err := r.mailbox.drain(); err != nil {
			r.fail(PhaseMailbox, err)
			break
		}
		at := r.clock.Now()
		if err := r.services.run(PreUpdate, at); err != nil {
			r.fail(PhaseService, err)
			break
		}
		if r.Delivery() == input.Timestamped {
			r.queue.TakeSpan(u.Start, u.End, &r.inTick)
		} else {
			r.queue.TakeAll(r.clock.Now(), &r.inTick)
		}
		t := &r.tick
		t.Update = *u
		t.Timing = stats
		t.Window = r.inTick.Window()
		err := guard(func() error { return r.game.Update(t) })
		ran++
		if int(u.Kind) < len(kinds) {
			kinds[u.Kind]++
		}
		if err != nil {
			r.fail(PhaseUpdate, err)
			break
		}
	}
	if ran > 0 {
		r.counters.batches.Add(1)
		r.counters.updates.Add(uint64(ran))
	}
	r.statsMu.Lock()
	r.schedStats = stats
	r.statsMu.Unlock()
	r.accMu.Lock()
	a := &r.acc
	a.variable += kinds[timing.VariableUpdate]
	a.fixed += kinds[timing.FixedUpdate]
	a.catchUp += kinds[timing.CatchUpUpdate]
	a.dropped += batch.Dropped
	a.suspended += batch.Suspended
	a.debt = stats.DebtTime
	a.rate = stats.Rate
	r.accMu.Unlock()
	return ran
}

// prepare lends a free slot to PrepareFrame and publishes the frame, or
// counts a skipped publication when no slot is free. Simulation owner only.
func (r *GameRuntime) prepare() bool {
	w, ok := r.slots.Begin()
	if !ok {
		r.counters.skipped.Add(1)
		r.accMu.Lock()
		r.acc.skipped = true
		r.accMu.Unlock()
		return false
	}
	if err := guard(func() error { return r.game.PrepareFrame(w) }); err != nil {
		r.slots.Discard(w)
		r.fail(PhasePrepareFrame, err)
		return false
	}
	r.slots.Publish(w)
	r.counters.prepared.Add(1)
	return true
}

// present renders and presents the newest complete frame when one is due.
// Platform thread only.
func (r *GameRuntime) present(now timing.Instant) {
	if f, fresh := r.slots.Acquire(); fresh {
		r.current, r.shown = f, false
	}
	w := r.window()
	if w.Hidden || r.current == nil {
		return
	}
	resized := w.Framebuffer != r.lastFB
	if resized {
		r.lastFB = w.Framebuffer
		r.ctx.Renderer.SetFramebufferSize(w.Framebuffer.Width, w.Framebuffer.Height)
	}
	if r.shown && !resized {
		return
	}
	if r.pacer != nil && !r.frameAllowed {
		res := r.pacer.PaceUntil(now)
		if !res.Outcome.Started() {
			return
		}
		r.frameAllowed, r.paceResult = true, res
	}
	pace := r.paceResult
	r.frameAllowed, r.paceResult = false, timing.PaceResult{}
	if err := guard(func() error { return r.ctx.Renderer.Render(r.current) }); err != nil {
		r.fail(PhaseRender, err)
		return
	}
	if err := guard(r.ctx.Presenter.Present); err != nil {
		r.fail(PhasePresent, err)
		return
	}
	r.shown = true
	r.counters.presented.Add(1)
	r.record(r.clock.Now(), pace)
}

// record adds one presented frame to the telemetry.
func (r *GameRuntime) record(now timing.Instant, pace timing.PaceResult) {
	r.accMu.Lock()
	a := r.acc
	r.acc = frameAccum{}
	r.accMu.Unlock()
	fr := timing.FrameRecord{
		Pace:               pace,
		VariableTicks:      a.variable,
		FixedTicks:         a.fixed,
		CatchUpTicks:       a.catchUp,
		Dropped:            a.dropped,
		Suspended:          a.suspended,
		Debt:               a.debt,
		Rate:               a.rate,
		PublicationSkipped: a.skipped,
	}
	switch {
	case !r.framed:
		fr.Baseline = true
	case now < r.lastFrame:
		fr.Regression = true
	default:
		fr.Accepted = time.Duration(now - r.lastFrame)
	}
	r.lastFrame, r.framed = now, true
	r.telMu.Lock()
	r.telemetry.Record(fr)
	r.telMu.Unlock()
}

// platformWait waits until the earliest of the maintenance wake, the next
// poll, the next update (when the scheduler runs here) and, when a frame is
// waiting, the frame cap. While the window is hidden the hidden pacer
// spaces the cycles instead, on absolute targets one hidden interval apart.
// Platform thread only.
func (r *GameRuntime) platformWait(nextUpdate timing.Instant, haveUpdate bool) {
	now := r.clock.Now()
	deadline := r.cycleStart.AddSaturating(r.opts.Maintenance)
	maintenanceOnly := true
	if r.opts.Polling.Spacing > 0 {
		if p := r.queue.NextPollAt(); p < deadline {
			deadline, maintenanceOnly = p, false
		}
	}
	if haveUpdate && nextUpdate > r.cycleStart && nextUpdate < deadline {
		deadline, maintenanceOnly = nextUpdate, false
	}
	if r.hidden.Load() {
		// The first hidden cycle starts at once (the schedule was dropped
		// when the window was hidden); an interrupted wait keeps its target.
		res := r.hiddenPacer.Pace()
		if maintenanceOnly && res.Outcome.Started() && res.Outcome != timing.PaceBaseline {
			r.counters.maintenanceWakes.Add(1)
		}
		return
	}
	if deadline <= now {
		return
	}
	if r.current != nil && !r.shown && r.pacer != nil && !r.frameAllowed {
		res := r.pacer.PaceUntil(deadline)
		if res.Outcome.Started() {
			r.frameAllowed, r.paceResult = true, res
			return
		}
		if res.Outcome != timing.PaceDeadline {
			return
		}
	} else if err := r.platformWaiter.WaitUntil(deadline); err != nil {
		return
	}
	if maintenanceOnly && r.clock.Now() >= deadline {
		r.counters.maintenanceWakes.Add(1)
	}
}

// sequentialLoop is the whole loop on the platform thread.
func (r *GameRuntime) sequentialLoop() {
	r.startTiming()
	for !r.stop.Requested() {
		now := r.clock.Now()
		r.cycleStart = now
		r.platformChores(now)
		if r.stop.Requested() {
			break
		}
		r.applyTimingOptions()
		if r.clock.Now() >= r.sched.NextUpdateAt() {
			now = r.clock.Now()
			if n := r.runBatch(now); n > 0 && !r.fails.any() {
				r.prepare()
			}
		}
		if !r.fails.any() {
			// A stop requested by this batch's updates still presents its
			// final frame.
			r.present(r.clock.Now())
		}
		if r.stop.Requested() {
			break
		}
		r.platformWait(r.sched.NextUpdateAt(), true)
	}
}

// platformLoop is the platform side of concurrent mode: poll, render,
// present, wait.
func (r *GameRuntime) platformLoop() {
	for !r.stop.Requested() {
		now := r.clock.Now()
		r.cycleStart = now
		r.platformChores(now)
		if r.stop.Requested() {
			break
		}
		r.present(r.clock.Now())
		if r.stop.Requested() {
			break
		}
		r.platformWait(0, false)
	}
}

// simulationMain is the simulation goroutine of concurrent mode.
func (r *GameRuntime) simulationMain() {
	defer func() {
		close(r.simDone)
		r.platformWaiter.Wake()
	}()
	err := guard(func() error { return r.game.InitSimulation(r) })
	if err != nil {
		r.fail(PhaseInitSimulation, err)
	}
	close(r.simInitDone)
	r.platformWaiter.Wake()
	if err == nil {
		select {
		case <-r.simBegin:
			r.simulationLoop()
		case <-r.stop.Done():
		}
	}
	r.stopSimulation()
}

// simulationLoop waits for each due batch, runs it and publishes a frame.
func (r *GameRuntime) simulationLoop() {
	r.startTiming()
	for !r.stop.Requested() {
		r.applyTimingOptions()
		now := r.clock.Now()
		next := r.sched.NextUpdateAt()
		if r.hidden.Load() {
			if h := r.lastBatch.AddSaturating(r.opts.HiddenInterval); h > next {
				next = h
			}
		}
		if now < next {
			_ = r.simWaiter.WaitUntil(next)
			continue
		}
		r.lastBatch = now
		n := r.runBatch(now)
		if n == 0 {
			// Nothing was due at this reading (an unpaced scheduler sees no
			// elapsed time): let the clock move before asking again.
			_ = r.simWaiter.WaitUntil(max(r.sched.NextUpdateAt(), now+1))
			continue
		}
		if r.fails.any() || r.stop.Requested() {
			break
		}
		if r.prepare() {
			r.platformWaiter.Wake()
		}
	}
}
