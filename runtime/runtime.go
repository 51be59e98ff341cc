package runtime

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/timing"
)

// GameRuntime runs one session of a [Game] on a [Context]: it polls input,
// schedules updates, hands complete frames to the renderer, paces frames and
// shuts down in order.
//
// [GameRuntime.Run] blocks on the caller's thread, which owns polling and
// graphics (lock it to the OS main thread for GLFW). Every other method is
// safe from any goroutine unless its comment says otherwise.
type GameRuntime struct {
	game  Game
	ctx   *Context
	opts  Options
	clock Clock

	actions *input.Actions
	queue   *input.Queue
	slots   *render2d.Slots
	sched   *timing.Scheduler
	pacer   *timing.FramePacer

	platformWaiter Waiter
	simWaiter      Waiter

	stop       *StopSignal
	life       *Lifecycle
	fails      failures
	dispatcher PlatformDispatcher
	mailbox    Mailbox
	services   Services
	ran        atomic.Bool

	// Which game init hooks were attempted; cleanup hooks pair with them.
	triedPlatform, triedSimulation bool

	// Window state sampled on the platform thread and read by the
	// simulation owner.
	winMu  sync.Mutex
	win    WindowState
	hidden atomic.Bool

	// Timing options waiting to be applied by the scheduler's owner.
	timingMu      sync.Mutex
	timingOpts    timing.Options
	timingPending atomic.Bool

	// Scheduler statistics published after each batch.
	statsMu    sync.Mutex
	schedStats timing.Stats

	// Per-frame telemetry: the simulation side accumulates, the platform
	// records one FrameRecord per presented frame.
	accMu     sync.Mutex
	acc       frameAccum
	telMu     sync.Mutex
	telemetry timing.Telemetry

	counters counters

	// Simulation-owner state.
	tick   TickContext
	inTick input.Tick

	// Platform-thread state.
	current       *render2d.Frame // the frame the slots hold for the platform
	shown         bool            // current has been presented
	frameAllowed  bool            // the pacer has started a frame not yet used
	paceResult    timing.PaceResult
	lastFrame     timing.Instant
	framed        bool
	lastFB        Size
	cycleStart    timing.Instant
	lastBatch     timing.Instant
	batched       bool
	wasHidden     bool
	simDone       chan struct{}
	simInitDone   chan struct{}
	simBegin      chan struct{}
	frameCap      time.Duration
	frameCapNew   atomic.Int64
	frameCapDirty atomic.Bool
}

// frameAccum is what the simulation did since the previous presented frame.
type frameAccum struct {
	variable, fixed, catchUp int
	dropped, suspended       time.Duration
	skipped                  bool
	debt                     time.Duration
	rate                     float64
}

type counters struct {
	cycles, maintenanceWakes, polls, batches, updates atomic.Uint64
	prepared, skipped, presented, dispatched          atomic.Uint64
}

// Stats are a session's counters, read with [GameRuntime.Stats].
type Stats struct {
	// Cycles counts platform loop cycles; MaintenanceWakes those that
	// ended a wait without anything due but maintenance.
	Cycles           uint64 `json:"cycles"`
	MaintenanceWakes uint64 `json:"maintenance_wakes"`
	// Polls counts completed input polls.
	Polls uint64 `json:"polls"`
	// Batches counts scheduler batches with at least one update; Updates
	// counts Update calls.
	Batches uint64 `json:"batches"`
	Updates uint64 `json:"updates"`
	// FramesPrepared counts published frames, PublicationsSkipped
	// preparations skipped because no slot was free, FramesPresented
	// frames rendered and presented.
	FramesPrepared      uint64 `json:"frames_prepared"`
	PublicationsSkipped uint64 `json:"publications_skipped"`
	FramesPresented     uint64 `json:"frames_presented"`
	// Dispatched counts platform dispatcher requests that ran.
	Dispatched uint64 `json:"dispatched"`
}

// New validates its arguments and returns a runtime for one session of game
// on ctx. It claims ctx: no other runtime may use it, and the runtime closes
// it when Run returns. Every problem is reported at once.
func New(game Game, ctx *Context, opts Options) (*GameRuntime, error) {
	var errs []error
	if game == nil {
		errs = append(errs, errors.New("runtime: game is nil"))
	}
	if err := ctx.validate(); err != nil {
		errs = append(errs, err)
	}
	if err := opts.Validate(); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	r := &GameRuntime{game: game, ctx: ctx, opts: opts, clock: opts.Clock}
	if r.clock == nil {
		r.clock = SystemClock{}
	}
	r.actions = opts.Actions
	if r.actions == nil {
		r.actions = input.NewActions()
	}
	var err error
	if r.queue, err = input.NewQueue(r.actions, opts.Polling); err != nil {
		return nil, err
	}
	if r.sched, err = timing.NewScheduler(opts.Timing); err != nil {
		return nil, err
	}
	mode := render2d.Sequential
	if opts.Mode == Concurrent {
		mode = render2d.Concurrent
	}
	r.slots = render2d.NewSlots(mode, render2d.SlotOptions{Release: opts.FrameRelease})
	r.platformWaiter = r.clock.NewWaiter()
	if opts.Mode == Concurrent {
		r.simWaiter = r.clock.NewWaiter()
	}
	r.frameCap = opts.FrameCap
	if err := r.setPacer(opts.FrameCap); err != nil {
		return nil, err
	}
	r.timingOpts = opts.Timing
	r.schedStats = r.sched.Stats()
	r.life = newLifecycle()
	r.stop = NewStopSignal()
	r.stop.wake = r.wakeAll
	r.dispatcher.wake = r.platformWaiter.Wake
	if !ctx.claimed.CompareAndSwap(false, true) {
		return nil, ErrContextUsed
	}
	r.tick.Stop = r.stop
	r.tick.Input = &r.inTick
	return r, nil
}

func (r *GameRuntime) setPacer(cap time.Duration) error {
	if cap == 0 {
		r.pacer = nil
		return nil
	}
	p, err := timing.NewFramePacer(timing.PacingPolicy{Interval: cap, MaxLateness: 4 * cap}, pacingClock{r.clock, r.platformWaiter})
	if err != nil {
		return err
	}
	r.pacer = p
	return nil
}

func (r *GameRuntime) wakeAll() {
	r.platformWaiter.Wake()
	if r.simWaiter != nil {
		r.simWaiter.Wake()
	}
}

// Stop requests a graceful stop: no further update starts, the current one
// runs to its end, and the normal shutdown follows. It shares its state with
// [TickContext.RequestStop], is safe to repeat and wakes any wait.
func (r *GameRuntime) Stop() { r.stop.Request() }

// StopSignal returns the session's stop state. It stays valid after the
// runtime is gone.
func (r *GameRuntime) StopSignal() *StopSignal { return r.stop }

// Lifecycle returns the session's lifecycle, readable from any goroutine
// during and after the session.
func (r *GameRuntime) Lifecycle() *Lifecycle { return r.life }

// Dispatcher returns the queue of work for the platform thread.
func (r *GameRuntime) Dispatcher() *PlatformDispatcher { return &r.dispatcher }

// Mailbox returns the queue of work for the simulation owner.
func (r *GameRuntime) Mailbox() *Mailbox { return &r.mailbox }

// Services returns the session's recurring service registry.
func (r *GameRuntime) Services() *Services { return &r.services }

// Context returns the adapters. Their methods belong to the platform thread.
func (r *GameRuntime) Context() *Context { return r.ctx }

// Actions returns the action set input ticks are summarised with; register
// actions on it during InitPlatform.
func (r *GameRuntime) Actions() *input.Actions { return r.actions }

// Mode returns the run mode.
func (r *GameRuntime) Mode() Mode { return r.opts.Mode }

// Options returns the options the runtime was built with, with the timing
// options and frame cap in force now.
func (r *GameRuntime) Options() Options {
	o := r.opts
	o.Timing = r.TimingOptions()
	o.FrameCap = time.Duration(r.frameCapNew.Load())
	if !r.frameCapDirty.Load() {
		o.FrameCap = r.opts.FrameCap
	}
	return o
}

// TimingOptions returns the timing options in force, or the latest ones
// given to [GameRuntime.SetTimingOptions].
func (r *GameRuntime) TimingOptions() timing.Options {
	r.timingMu.Lock()
	defer r.timingMu.Unlock()
	return r.timingOpts
}

// SetTimingOptions validates o, together with the polling delivery policy,
// and puts it in force before the next scheduling decision: a change made
// in an update applies to the next batch, one made from another goroutine
// within one cycle. Ledger, tick count and debt carry over (see
// [timing.Scheduler.SetOptions]). On error nothing changes.
func (r *GameRuntime) SetTimingOptions(o timing.Options) error {
	err := o.Validate()
	if derr := input.ValidateDelivery(r.opts.Polling.Delivery, o.Mode == timing.FixedMode); derr != nil {
		err = errors.Join(err, derr)
	}
	if err != nil {
		return err
	}
	r.timingMu.Lock()
	r.timingOpts = o
	r.timingPending.Store(true)
	r.timingMu.Unlock()
	if r.simWaiter != nil {
		r.simWaiter.Wake()
	} else {
		r.platformWaiter.Wake()
	}
	return nil
}

// SetFrameCap changes the shortest interval between presented frames (zero:
// no cap) from the next cycle on. It returns an error naming the allowed
// range for an invalid cap.
func (r *GameRuntime) SetFrameCap(d time.Duration) error {
	if d < 0 || d > MaxFrameCap {
		return errors.New("runtime: frame cap " + d.String() + " is out of range (allowed: 0 to " + MaxFrameCap.String() + ")")
	}
	r.frameCapNew.Store(int64(d))
	r.frameCapDirty.Store(true)
	r.platformWaiter.Wake()
	return nil
}

// applyTimingOptions installs pending options; scheduler owner only.
func (r *GameRuntime) applyTimingOptions() {
	if !r.timingPending.Load() {
		return
	}
	r.timingMu.Lock()
	o := r.timingOpts
	r.timingPending.Store(false)
	r.timingMu.Unlock()
	if err := r.sched.SetOptions(o); err != nil {
		r.fail(PhaseSchedule, err)
	}
}

// applyFrameCap installs a pending frame cap; platform thread only.
func (r *GameRuntime) applyFrameCap() {
	if !r.frameCapDirty.Swap(false) {
		return
	}
	d := time.Duration(r.frameCapNew.Load())
	if d == r.frameCap {
		return
	}
	r.frameCap = d
	if err := r.setPacer(d); err != nil {
		r.fail(PhasePresent, err)
	}
	r.frameAllowed = false
}

// Stats returns the session's counters.
func (r *GameRuntime) Stats() Stats {
	c := &r.counters
	return Stats{
		Cycles:              c.cycles.Load(),
		MaintenanceWakes:    c.maintenanceWakes.Load(),
		Polls:               c.polls.Load(),
		Batches:             c.batches.Load(),
		Updates:             c.updates.Load(),
		FramesPrepared:      c.prepared.Load(),
		PublicationsSkipped: c.skipped.Load(),
		FramesPresented:     c.presented.Load(),
		Dispatched:          c.dispatched.Load(),
	}
}

// TimingStats returns the scheduler's statistics after its latest batch.
func (r *GameRuntime) TimingStats() timing.Stats {
	r.statsMu.Lock()
	defer r.statsMu.Unlock()
	return r.schedStats
}

// Telemetry returns the frame telemetry computed now.
func (r *GameRuntime) Telemetry() timing.TelemetryStats {
	r.telMu.Lock()
	defer r.telMu.Unlock()
	return r.telemetry.Stats()
}

// TelemetryFrames appends the recent measured frames, oldest first, to dst
// (at most [timing.TelemetryWindow]) for graphs.
func (r *GameRuntime) TelemetryFrames(dst []timing.TelemetryFrame) []timing.TelemetryFrame {
	r.telMu.Lock()
	defer r.telMu.Unlock()
	return r.telemetry.AppendWindow(dst)
}

// Report is a session's timing report, ready to encode as JSON.
type Report struct {
	Mode      string                  `json:"mode"`
	State     string                  `json:"state"`
	Runtime   Stats                   `json:"runtime"`
	Slots     render2d.SlotStats      `json:"slots"`
	Input     input.QueueStats        `json:"input"`
	Telemetry timing.TelemetryStats   `json:"telemetry"`
	Timing    timing.Stats            `json:"timing"`
	Frames    []timing.TelemetryFrame `json:"frames"`
}

// Report gathers the counters, telemetry, scheduler statistics and recent
// frames into one value.
func (r *GameRuntime) Report() Report {
	return Report{
		Mode:      r.opts.Mode.String(),
		State:     r.life.State().String(),
		Runtime:   r.Stats(),
		Slots:     r.slots.Stats(),
		Input:     r.queue.Stats(),
		Telemetry: r.Telemetry(),
		Timing:    r.TimingStats(),
		Frames:    r.TelemetryFrames(nil),
	}
}

// fail records a failure and stops the session.
func (r *GameRuntime) fail(phase Phase, err error) {
	if err == nil {
		return
	}
	r.fails.add(phase, err)
	r.life.advance(StateStopping)
	r.stop.Request()
}

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
	if r.hidden.Swap(w.Hidden) != w.Hidden && r.simWaiter != nil {
		r.simWaiter.Wake() // the simulation's wait depends on visibility
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
		var src input.Source = nullSource{}
		if c.Input != nil {
			src = c.Input
		}
		r.queue.Poll(src, now)
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

// nullSource stands in for a context without an input adapter, so that the
// backlog keeps its poll spacing and its clock.
type nullSource struct{}

func (nullSource) Poll(now timing.Instant, dst *input.Snapshot) {
	dst.Reset()
	dst.Time = now
}

// startTiming starts the scheduler and the input intervals together.
// Scheduler owner only.
func (r *GameRuntime) startTiming() {
	now := r.clock.Now()
	r.sched.Start(now)
	r.queue.Start(now)
	r.lastBatch, r.batched = now, false
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
		r.queue.Take(r.clock.Now(), u.Start, u.End, &r.inTick)
		w := r.window()
		t := &r.tick
		t.Kind = u.Kind
		t.Delta = u.Delta
		t.Observed = r.inTick.Observed()
		t.Dropped = u.Dropped
		t.Final = u.Last
		t.Quiet = u.Quiet
		t.Cosmetic = u.Cosmetic
		t.Steps = u.Steps
		t.Alpha = stats.Alpha
		t.Number = u.Tick
		t.Timing = stats
		t.Window, t.Framebuffer = w.Window, w.Framebuffer
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
// waiting, the frame cap. A hidden window stretches every wait to the
// hidden interval. Platform thread only.
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
	if r.window().Hidden {
		if h := r.cycleStart.AddSaturating(r.opts.HiddenInterval); h > deadline {
			deadline = h
		}
		r.wasHidden = true
	} else if r.wasHidden {
		r.wasHidden = false
		if r.pacer != nil {
			r.pacer.Reset()
		}
	}
	if deadline <= now {
		return
	}
	if r.current != nil && !r.shown && r.pacer != nil && !r.frameAllowed && !r.window().Hidden {
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

// stopSimulation closes the mailbox and runs DeinitSimulation on the
// simulation owner.
func (r *GameRuntime) stopSimulation() {
	r.mailbox.close()
	if r.triedSimulation {
		if err := guard(r.game.DeinitSimulation); err != nil {
			r.fail(PhaseDeinitSimulation, err)
		}
	}
}

// shutdown runs the cleanup sequence on the platform thread.
func (r *GameRuntime) shutdown() {
	r.life.advance(StateStopping)
	r.stop.Request()
	// Stop the simulation and join it, servicing platform work meanwhile.
	if r.opts.Mode == Concurrent && r.simDone != nil {
		r.pumpUntil(r.simDone)
	} else {
		r.stopSimulation()
	}
	if r.triedPlatform {
		if err := guard(r.game.Quiesce); err != nil {
			r.fail(PhaseQuiesce, err)
		}
	}
	// Settle the work accepted so far, then cancel what remains.
	if err := guard(func() error { r.drainDispatcher(); return nil }); err != nil {
		r.fail(PhaseSettle, err)
	}
	r.dispatcher.close()
	if err := guard(func() error { r.slots.RecycleAll(); return nil }); err != nil {
		r.fail(PhaseRecycle, err)
	}
	r.current = nil
	if r.triedPlatform {
		if err := guard(r.game.DeinitPlatform); err != nil {
			r.fail(PhaseDeinitPlatform, err)
		}
	}
	c := r.ctx
	if c.Input != nil {
		if err := guard(c.Input.Close); err != nil {
			r.fail(PhaseCloseInput, err)
		}
	}
	if c.Resources != nil {
		if err := guard(c.Resources.Close); err != nil {
			r.fail(PhaseCloseGraphics, err)
		}
	}
	if err := guard(c.Renderer.Close); err != nil {
		r.fail(PhaseCloseGraphics, err)
	}
	if err := guard(c.Presenter.Close); err != nil {
		r.fail(PhaseCloseGraphics, err)
	}
	if err := guard(c.Display.Close); err != nil {
		r.fail(PhaseCloseGraphics, err)
	}
}
