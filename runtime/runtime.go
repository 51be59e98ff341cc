package runtime

import (
	"errors"
	"fmt"
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
	clock timing.Clock

	actions *input.Actions
	queue   *input.Queue
	slots   *render2d.Slots
	sched   *timing.Scheduler
	pacer   *timing.FramePacer // the frame cap's; nil without a cap
	// hiddenPacer spaces platform cycles at the hidden interval while the
	// window is hidden.
	hiddenPacer *timing.FramePacer
	// paceInterval is the pacing interval in force, in nanoseconds, as
	// telemetry reports it: the hidden interval while hidden, otherwise
	// the frame cap (zero without one).
	paceInterval atomic.Int64

	platformWaiter timing.Waiter
	simWaiter      timing.Waiter

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
	timingMu   sync.Mutex
	timingOpts timing.Options
	// delivery is the input delivery policy in force (an input.Delivery);
	// changed together with timingOpts under timingMu.
	delivery      atomic.Uint32
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
	lastFB        input.Size
	poll          pollSource
	cycleStart    timing.Instant
	lastBatch     timing.Instant
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
		r.clock = timing.SystemClock{}
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
	r.frameCapNew.Store(int64(opts.FrameCap))
	if err := r.setPacer(opts.FrameCap); err != nil {
		return nil, err
	}
	if r.hiddenPacer, err = timing.NewFramePacer(timing.PacingPolicy{Interval: opts.HiddenInterval, MaxLateness: 4 * opts.HiddenInterval},
		timing.PacingOn(r.clock, r.platformWaiter)); err != nil {
		return nil, err
	}
	r.paceInterval.Store(int64(opts.FrameCap))
	r.timingOpts = opts.Timing
	r.delivery.Store(uint32(opts.Polling.Delivery))
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
	if ctx.Input != nil {
		r.poll.input = ctx.Input
	}
	return r, nil
}

func (r *GameRuntime) setPacer(cap time.Duration) error {
	if cap == 0 {
		r.pacer = nil
		return nil
	}
	p, err := timing.NewFramePacer(timing.PacingPolicy{Interval: cap, MaxLateness: 4 * cap}, timing.PacingOn(r.clock, r.platformWaiter))
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

// Options returns the options the runtime was built with, with the latest
// timing options and frame cap set while running.
func (r *GameRuntime) Options() Options {
	o := r.opts
	o.Timing = r.TimingOptions()
	o.FrameCap = time.Duration(r.frameCapNew.Load())
	o.Polling.Delivery = r.Delivery()
	return o
}

// Delivery returns the input delivery policy in force.
func (r *GameRuntime) Delivery() input.Delivery { return input.Delivery(r.delivery.Load()) }

// SetDelivery changes the input delivery policy from the next update on.
// Timestamped delivery needs fixed steps, so it is refused while the timing
// options in force (or pending) are variable; on error nothing changes.
// Safe from any goroutine.
func (r *GameRuntime) SetDelivery(d input.Delivery) error {
	if _, err := d.MarshalText(); err != nil {
		return err
	}
	r.timingMu.Lock()
	defer r.timingMu.Unlock()
	if err := input.ValidateDelivery(d, r.timingOpts.Mode == timing.FixedMode); err != nil {
		return err
	}
	r.delivery.Store(uint32(d))
	return nil
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
	r.timingMu.Lock()
	err := o.Validate()
	if derr := input.ValidateDelivery(r.Delivery(), o.Mode == timing.FixedMode); derr != nil {
		err = errors.Join(err, derr)
	}
	if err != nil {
		r.timingMu.Unlock()
		return err
	}
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
		return fmt.Errorf("runtime: frame cap %v is out of range (allowed: 0 to %v)", d, MaxFrameCap)
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
	r.storePaceInterval()
}

// visibilityChanged drops every pacing schedule when the window is shown
// or hidden, so that the first cycle or frame in the new state starts at
// once and never waits out a target of the old one. Platform thread only.
func (r *GameRuntime) visibilityChanged() {
	if r.simWaiter != nil {
		r.simWaiter.Wake() // the simulation's wait depends on visibility
	}
	if r.pacer != nil {
		r.pacer.Reset()
	}
	r.hiddenPacer.Reset()
	r.frameAllowed, r.paceResult = false, timing.PaceResult{}
	r.storePaceInterval()
}

// storePaceInterval publishes the pacing interval in force. Platform
// thread only.
func (r *GameRuntime) storePaceInterval() {
	iv := r.frameCap
	if r.hidden.Load() {
		iv = r.opts.HiddenInterval
	}
	r.paceInterval.Store(int64(iv))
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

// Telemetry returns the frame telemetry computed now. Its PacingInterval
// is the interval in force: [Options.HiddenInterval] while the window is
// hidden, otherwise the frame cap (zero without one). Hidden cycles present
// nothing, so they add no frames to the telemetry.
func (r *GameRuntime) Telemetry() timing.TelemetryStats {
	r.telMu.Lock()
	s := r.telemetry.Stats()
	r.telMu.Unlock()
	s.PacingInterval = time.Duration(r.paceInterval.Load())
	return s
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
