package runtime

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime/work"
	"github.com/metronome-go/metronome/timing"
)

// GameRuntime runs one session of a [Game] on a [Adapters]: it polls input,
// schedules updates, hands complete frames to the renderer, paces frames and
// shuts down in order.
//
// [GameRuntime.Run] blocks on the caller's thread, which owns polling and
// graphics (lock it to the OS main thread for GLFW). Every other method is
// safe from any goroutine unless its comment says otherwise.
//
// Its state is split by owner, and the types say which: a platform part
// that only the platform thread touches, a simulation part that only the
// simulation owner touches, and an exchange of the few values that cross
// between them or out to other goroutines. Input and the window sampled
// with it cross inside the input queue's snapshots; frames cross through
// the render slots. Each part is given the handles it uses when the
// runtime is built and keeps no pointer back to it; the hooks get views of
// their owner's part ([Platform], [Simulation]).
type GameRuntime struct {
	game     Game
	adapters *Adapters
	opts     Options
	clock    timing.Clock

	// Shared by both owners, each synchronised inside: the input backlog
	// (the platform pushes polls, the simulation takes ticks) and the frame
	// slots (the simulation publishes, the platform acquires).
	actions *input.Actions
	queue   *input.Queue
	slots   *render2d.Slots

	stop       *StopSignal
	life       *Lifecycle
	fails      failures
	dispatcher PlatformDispatcher
	// ownDispatcher is the simulation owner's handle of dispatcher.
	ownDispatcher PlatformDispatcher
	mailbox       Mailbox
	services      Services
	counters      counters
	workers       *work.Session
	endpoint      ShutdownEndpoint

	plat platform
	sim  simulation
	x    exchange
}

// counters are written by their owner and read by anyone.
type counters struct {
	cycles, maintenanceWakes, polls, batches, updates atomic.Uint64
	prepared, skipped, presented, dispatched          atomic.Uint64
	ran                                               atomic.Bool
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
// on adapters. It claims adapters: no other runtime may use it, and the runtime closes
// it when Run returns. Every problem is reported at once.
func New(game Game, adapters *Adapters, opts Options) (*GameRuntime, error) {
	var errs []error
	if game == nil {
		errs = append(errs, errors.New("runtime: game is nil"))
	}
	if err := adapters.validate(); err != nil {
		errs = append(errs, err)
	}
	if err := opts.Validate(); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	r := &GameRuntime{game: game, adapters: adapters, opts: opts, clock: opts.Clock}
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
	mode := render2d.Sequential
	if opts.Mode == Concurrent && opts.Record.Reader == nil {
		mode = render2d.Concurrent
	}
	r.slots = render2d.NewSlots(mode, render2d.SlotOptions{Release: r.releaseFrame})
	r.life = newLifecycle()
	r.stop = NewStopSignal()
	r.fails.life, r.fails.stop = r.life, r.stop
	// The platform's waiter first: on a timing.ManualClock that makes the
	// platform go first at every instant (see Options.Clock).
	if err := r.plat.init(r); err != nil {
		return nil, err
	}
	if err := r.sim.init(r); err != nil {
		return nil, err
	}
	r.x.init(opts)
	r.x.setStats(r.sim.sched.Stats())
	r.stop.wake = r.wakeAll
	r.dispatcher.wake = r.plat.waiter.Wake
	toPlatform := func(f func()) error {
		r.dispatcher.Do(func() error { f(); return nil })
		return nil // refused at shutdown: the future says so, and nobody waits
	}
	if r.workers, err = work.NewSession(opts.Execution, r.mailbox.Post, toPlatform, r.plat.waiter.Wake); err != nil {
		return nil, err
	}
	r.ownDispatcher.of = &r.dispatcher
	r.sim.view = Simulation{Mailbox: &r.mailbox, Dispatcher: &r.ownDispatcher, Workers: r.workers}
	r.endpoint.init(r)
	if !adapters.claimed.CompareAndSwap(false, true) {
		return nil, ErrAdaptersUsed
	}
	return r, nil
}

// releaseFrame runs the game's frame release hook, wherever the slots
// recycle a frame, so that a panic in it fails the session instead of
// tearing through the slots' bookkeeping.
func (r *GameRuntime) releaseFrame(f *render2d.Frame) {
	if r.opts.FrameRelease == nil {
		return
	}
	if err := guard(func() error { r.opts.FrameRelease(f); return nil }); err != nil {
		r.fail(PhaseRecycleFrames, err)
	}
}

func (r *GameRuntime) wakeAll() {
	r.plat.waiter.Wake()
	if r.sim.own {
		r.sim.waiter.Wake()
	}
}

// wakeSimulation ends the simulation owner's current wait.
func (r *GameRuntime) wakeSimulation() { r.sim.waiter.Wake() }

// Stop requests a graceful stop: no further update starts, the current one
// runs to its end, and the normal shutdown follows. It shares its state with
// [TickContext.RequestStop], is safe to repeat and wakes any wait.
func (r *GameRuntime) Stop() { r.stop.Request() }

// Lifecycle returns the session's lifecycle, readable from any goroutine
// during and after the session.
func (r *GameRuntime) Lifecycle() *Lifecycle { return r.life }

// Shutdown returns the endpoint for ordinary shutdown requests, which the
// session's [ShutdownPolicy] may accept, refuse or defer.
func (r *GameRuntime) Shutdown() *ShutdownEndpoint { return &r.endpoint }

// Mode returns the run mode.
//
// A replay runs on one thread whatever the mode, and Mode still reports
// Options.Mode (the mode the session was recorded in), so game code that
// asks gets the answer it got when recorded.
func (r *GameRuntime) Mode() Mode { return r.opts.Mode }

// Options returns the options the runtime was built with, with the latest
// timing options, delivery policy, frame cap and focus policy set while
// running.
func (r *GameRuntime) Options() Options {
	o := r.opts
	o.Timing = r.TimingOptions()
	o.FrameCap = r.x.frameCap()
	o.Polling.Delivery = r.Delivery()
	o.FocusPolicy = r.FocusPolicy()
	o.FollowPresentation = r.FollowPresentation()
	return o
}

// FollowPresentation reports whether variable timing follows the
// presentation cadence ([Options.FollowPresentation]).
func (r *GameRuntime) FollowPresentation() bool { return r.x.follow.Load() }

// SetFollowPresentation switches [Options.FollowPresentation] before the
// next scheduling decision: on, variable timing updates at the
// presentation cadence; off, at the interval of the timing options in
// force. Safe from any goroutine.
func (r *GameRuntime) SetFollowPresentation(on bool) {
	if r.x.follow.Swap(on) != on {
		r.wakeSimulation()
	}
}

// VariableInterval returns the pacing interval variable timing uses now:
// the presentation cadence while it is followed and known, otherwise the
// interval of the timing options in force. Safe from any goroutine.
func (r *GameRuntime) VariableInterval() time.Duration {
	if c := time.Duration(r.x.cadence.Load()); c > 0 && r.x.follow.Load() {
		return c
	}
	return r.TimingOptions().Interval
}

// Delivery returns the input delivery policy in force.
func (r *GameRuntime) Delivery() input.Delivery { return r.x.delivery() }

// SetDelivery changes the input delivery policy from the next update on.
// Timestamped delivery needs fixed steps, so it is refused while the timing
// options in force (or pending) are variable; on error nothing changes.
// Safe from any goroutine.
func (r *GameRuntime) SetDelivery(d input.Delivery) error {
	if _, err := d.MarshalText(); err != nil {
		return err
	}
	return r.x.setDelivery(d)
}

// TimingOptions returns the timing options in force, or the latest ones
// given to [GameRuntime.SetTimingOptions].
func (r *GameRuntime) TimingOptions() timing.Options { return r.x.timingOptions() }

// SetTimingOptions validates o, together with the polling delivery policy,
// and puts it in force before the next scheduling decision: a change made
// in an update applies to the next batch, one made from another goroutine
// within one cycle. Ledger, tick count and debt carry over (see
// [timing.Scheduler.SetOptions]). On error nothing changes.
func (r *GameRuntime) SetTimingOptions(o timing.Options) error {
	if err := r.x.setTimingOptions(o); err != nil {
		return err
	}
	r.wakeSimulation()
	return nil
}

// SetFrameCap changes the shortest interval between presented frames (zero:
// no cap) from the next cycle on. It returns an error naming the allowed
// range for an invalid cap.
func (r *GameRuntime) SetFrameCap(d time.Duration) error {
	if d < 0 || d > MaxFrameCap {
		return fmt.Errorf("runtime: frame cap %v is out of range (allowed: 0 to %v)", d, MaxFrameCap)
	}
	r.x.setFrameCap(d)
	r.plat.waiter.Wake()
	return nil
}

// Services returns the session's recurring service registry. Attach and
// detach from any goroutine.
func (r *GameRuntime) Services() *Services { return &r.services }

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
func (r *GameRuntime) TimingStats() timing.Stats { return r.x.timingStats() }

// Telemetry returns the frame telemetry computed now. Its PacingInterval
// is the interval in force: [Options.HiddenInterval] while the window is
// hidden, otherwise the frame cap (zero without one). Hidden cycles present
// nothing, so they add no frames to the telemetry.
func (r *GameRuntime) Telemetry() timing.TelemetryStats { return r.x.telemetryStats() }

// TelemetryFrames appends the recent measured frames, oldest first, to dst
// (at most [timing.TelemetryWindow]) for graphs.
func (r *GameRuntime) TelemetryFrames(dst []timing.TelemetryFrame) []timing.TelemetryFrame {
	return r.x.telemetryFrames(dst)
}

// ReportVersion is the version of the timing report's JSON, its "version"
// key. Version 2 writes every key in snake case with its unit ("_ns") and
// each figure once; version 1 (unversioned) wrote the scheduler's
// statistics and the input queue's under their Go field names. Version 3
// adds the platform section ([PlatformReport]).
const ReportVersion = 3

// Report is a session's timing report, ready to encode as JSON: every key
// snake case, durations in nanoseconds with "_ns" in the key.
type Report struct {
	Version   int                     `json:"version"`
	Mode      string                  `json:"mode"`
	State     string                  `json:"state"`
	Platform  PlatformReport          `json:"platform"`
	Runtime   Stats                   `json:"runtime"`
	Slots     render2d.SlotStats      `json:"slots"`
	Input     InputStats              `json:"input"`
	Telemetry timing.TelemetryStats   `json:"telemetry"`
	Timing    timing.Stats            `json:"timing"`
	Frames    []timing.TelemetryFrame `json:"frames"`
}

// Report gathers the counters, telemetry, scheduler statistics and recent
// frames into one value.
func (r *GameRuntime) Report() Report {
	return Report{
		Version:   ReportVersion,
		Mode:      r.opts.Mode.String(),
		State:     r.life.State().String(),
		Platform:  r.adapters.Platform,
		Runtime:   r.Stats(),
		Slots:     r.slots.Stats(),
		Input:     InputStats{r.queue.Stats()},
		Telemetry: r.Telemetry(),
		Timing:    r.TimingStats(),
		Frames:    r.TelemetryFrames(nil),
	}
}

// fail records a failure and stops the session.
func (r *GameRuntime) fail(phase Phase, err error) { r.fails.fail(phase, err) }
