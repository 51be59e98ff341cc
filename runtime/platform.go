package runtime

import (
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/timing"
)

// platform is the state of the platform thread, the caller of Run: the
// window as last sampled, the pacers, the frame on screen and the
// presentation bookkeeping. Nothing else touches it.
type platform struct {
	waiter timing.Waiter

	// The handles the platform uses, each shared with its other user only
	// (see GameRuntime).
	clock      timing.Clock
	adapters   *Adapters
	queue      *input.Queue    // pushes polls
	slots      *render2d.Slots // acquires frames
	x          *exchange
	stop       *StopSignal
	fails      *failures
	dispatcher *PlatformDispatcher // drains its batches
	services   *Services
	endpoint   *ShutdownEndpoint // observes the window's close intent
	counters   *counters
	// wakeSim ends the simulation goroutine's wait; nil when the platform
	// thread is also the simulation owner (sequential mode, a replay).
	wakeSim func()
	// replay: the session replays a recording (the focus policy is moot).
	replay bool

	hiddenInterval, maintenance, pollSpacing time.Duration

	pacer *timing.FramePacer // the frame cap's; nil without a cap
	// hiddenPacer spaces platform cycles at the hidden interval while the
	// window is hidden or throttled; slowFrame says that it started the
	// current cycle, which may then present (a throttled window presents
	// at the hidden rate, not at every wake).
	hiddenPacer *timing.FramePacer
	slowFrame   bool
	frameCap    time.Duration
	refresh     time.Duration // the vsync refresh a RefreshPresenter reported

	window WindowState    // sampled at the latest poll
	poll   pollSource     // what the platform polls
	snap   input.Snapshot // the latest poll's, handed to the queue

	current      *render2d.Frame // the frame the slots hold for the platform
	shown        bool            // current has been presented, at shownAlpha
	shownAlpha   float32
	frameAllowed bool // the pacer has started a frame not yet used
	paceResult   timing.PaceResult
	frames       timing.FrameClock // measures the interval between presented frames
	lastFB       input.Size        // the framebuffer size the renderer was given
	cycleStart   timing.Instant

	// Which game init hook was attempted; its cleanup hooks pair with it.
	tried bool
}

func (p *platform) init(r *GameRuntime) error {
	p.clock, p.adapters, p.queue, p.slots, p.x = r.clock, r.adapters, r.queue, r.slots, &r.x
	p.stop, p.fails, p.dispatcher, p.services = r.stop, &r.fails, &r.dispatcher, &r.services
	p.endpoint, p.counters = &r.endpoint, &r.counters
	p.replay = r.opts.Record.Reader != nil
	p.hiddenInterval, p.maintenance, p.pollSpacing = r.opts.HiddenInterval, r.opts.Maintenance, r.opts.Polling.Spacing
	p.waiter = r.clock.NewWaiter()
	// Every interval is accepted whole: the telemetry reports what the
	// frames took, and nothing downstream is driven by it.
	fc, err := timing.NewFrameClock(time.Duration(timing.MaxInstant))
	if err != nil {
		return err
	}
	p.frames = *fc
	p.frameCap = r.opts.FrameCap
	if p.adapters.Input != nil {
		p.poll.input = p.adapters.Input
	}
	if err := p.setPacer(r.opts.FrameCap); err != nil {
		return err
	}
	p.hiddenPacer, err = timing.NewFramePacer(timing.PacingPolicy{Interval: p.hiddenInterval, MaxLateness: 4 * p.hiddenInterval},
		p.clock, p.waiter)
	return err
}

func (p *platform) setPacer(cap time.Duration) error {
	if cap == 0 {
		p.pacer = nil
		return nil
	}
	pc, err := timing.NewFramePacer(timing.PacingPolicy{Interval: cap, MaxLateness: 4 * cap}, p.clock, p.waiter)
	if err != nil {
		return err
	}
	p.pacer = pc
	return nil
}

// pollSource is what the platform polls: the context's input adapter (or
// nothing, keeping the backlog's poll spacing and clock) followed by the
// window the display sampled in the same poll, so that the window crosses
// to the simulation inside the poll's snapshot, which the platform then
// hands to the input queue.
type pollSource struct {
	input  input.Source
	window input.Window
	sync   input.WindowSync
}

func (s *pollSource) Poll(now timing.Instant, dst *input.Snapshot) {
	if s.input != nil {
		s.input.Poll(now, dst)
	} else {
		dst.Reset()
		dst.Time = now
	}
	s.sync.Apply(dst, s.window)
}

// sample reads the window after events were processed, applies the focus
// policy, slows down while the window is not visible (or unfocused under
// FocusThrottle) and tells the renderer about a new framebuffer size.
func (p *platform) sample() error {
	c := p.adapters
	w := c.Display.State()
	p.window = w
	if slow := p.applyFocusPolicy(w.Window); slow != p.x.hidden.Load() {
		if slow {
			// The first hidden cycle is this one: the pacer's baseline.
			p.x.hiddenAt.Store(int64(p.clock.Now()))
		}
		p.x.hidden.Store(slow)
		p.visibilityChanged()
	}
	if w.Framebuffer != p.lastFB {
		p.lastFB = w.Framebuffer
		if err := guard(func() error {
			c.Renderer.SetFramebufferSize(w.Framebuffer.Width, w.Framebuffer.Height)
			return nil
		}); err != nil {
			return err
		}
		p.shown = false // the frame must be drawn again at the new size
	}
	return nil
}

// pollNow processes window events, samples the window and pushes one poll
// of input with it into the backlog.
func (p *platform) pollNow(now timing.Instant) error {
	return guard(func() error {
		p.adapters.Display.PollEvents()
		if err := p.sample(); err != nil {
			return err
		}
		p.poll.window = p.window.Window
		p.poll.Poll(now, &p.snap)
		p.queue.PushPoll(now, &p.snap)
		p.endpoint.observeClose(p.window.CloseRequested)
		return nil
	})
}

// beginCycle opens a cycle of every loop on the platform thread (the
// sequential, concurrent and replay loops): it notes the cycle's start and
// runs the dispatcher batch, maintenance services and, when due, a poll. It
// reports whether the cycle goes on: false once a stop is requested, before
// the cycle or by its chores.
func (p *platform) beginCycle() bool {
	if p.stop.Requested() {
		return false
	}
	now := p.clock.Now()
	p.cycleStart = now
	p.chores(now)
	return !p.stop.Requested()
}

// chores is the work of [platform.beginCycle].
func (p *platform) chores(now timing.Instant) {
	p.counters.cycles.Add(1)
	p.drainDispatcher()
	if err := p.services.run(Maintenance, now); err != nil {
		p.fails.fail(PhaseService, err)
		return
	}
	p.applyFrameCap()
	if !p.queue.PollDue(now) {
		return
	}
	if err := p.pollNow(now); err != nil {
		p.fails.fail(PhasePoll, err)
		return
	}
	p.counters.polls.Add(1)
}

func (p *platform) drainDispatcher() {
	if n := p.dispatcher.drain(); n > 0 {
		p.counters.dispatched.Add(uint64(n))
	}
}

// pumpUntil runs platform dispatcher batches until done is closed, so that
// the simulation owner never waits on platform work that cannot run.
func (p *platform) pumpUntil(done <-chan struct{}) {
	for {
		p.drainDispatcher()
		select {
		case <-done:
			return
		default:
		}
		_ = p.waiter.WaitUntil(p.clock.Now().AddSaturating(p.maintenance))
	}
}

// applyFrameCap installs a pending frame cap.
func (p *platform) applyFrameCap() {
	d, ok := p.x.takeFrameCap()
	if !ok || d == p.frameCap {
		return
	}
	p.frameCap = d
	if err := p.setPacer(d); err != nil {
		p.fails.fail(PhasePresent, err)
	}
	p.frameAllowed = false
	p.storePaceInterval()
}

// visibilityChanged drops every pacing schedule when the window is shown
// or hidden (or throttled), so that the first cycle or frame in the new
// state starts at once and never waits out a target of the old one.
func (p *platform) visibilityChanged() {
	if p.wakeSim != nil {
		p.wakeSim() // the simulation's wait depends on visibility
	}
	if p.pacer != nil {
		p.pacer.Reset()
	}
	p.hiddenPacer.Reset()
	p.frameAllowed, p.paceResult, p.slowFrame = false, timing.PaceResult{}, false
	p.storePaceInterval()
}

// storePaceInterval publishes the pacing interval in force and the
// presentation cadence of a shown window: the frame cap, or the refresh
// without one. While the window is hidden the hidden pacing already spaces
// every cycle, and so every update; a variable interval of the hidden
// interval on top would miss each wake that comes a little early.
func (p *platform) storePaceInterval() {
	iv := p.frameCap
	if p.x.hidden.Load() {
		iv = p.hiddenInterval
	}
	p.x.paceInterval.Store(int64(iv))
	c := p.frameCap
	if c == 0 {
		c = p.refresh
	}
	if old := p.x.cadence.Swap(int64(c)); old != int64(c) && p.wakeSim != nil && p.x.follow.Load() {
		p.wakeSim() // its variable interval follows the cadence
	}
}

// readRefresh asks a RefreshPresenter for the refresh its presents wait
// for, after the presenter's Init.
func (p *platform) readRefresh() {
	if rp, ok := p.adapters.Presenter.(RefreshPresenter); ok {
		p.refresh = max(rp.RefreshInterval(), 0)
	}
	p.storePaceInterval()
}

// due reports whether presenting at now would show something new: a
// fresh frame, or the current one at another alpha (it is still moving
// from its previous placements to its current ones).
func (p *platform) due(now timing.Instant) bool {
	return p.current != nil && (!p.shown || p.current.Span.AlphaAt(now) != p.shownAlpha)
}

// present renders and presents the newest complete frame when a present is
// due: at every present the frame is drawn again with the alpha of that
// instant, so motion is smooth at any ratio of display rate to tick rate,
// and a frame that has come to rest is not drawn again.
func (p *platform) present(now timing.Instant) {
	if f, fresh := p.slots.Acquire(); fresh {
		p.current, p.shown = f, false
	}
	if !p.window.Visible() || !p.due(now) {
		return
	}
	if p.x.hidden.Load() {
		if !p.slowFrame {
			return
		}
		p.slowFrame = false
	}
	if p.pacer != nil && !p.frameAllowed {
		res := p.pacer.PaceUntil(now)
		if !res.Outcome.Started() {
			return
		}
		p.frameAllowed, p.paceResult = true, res
	}
	pace := p.paceResult
	p.frameAllowed, p.paceResult = false, timing.PaceResult{}
	if p.pacer != nil {
		now = p.clock.Now() // the pacer may have waited
	}
	p.current.PresentAt(now)
	if err := guard(func() error { return p.adapters.Renderer.Render(p.current) }); err != nil {
		p.fails.fail(PhaseRender, err)
		return
	}
	if err := guard(p.adapters.Presenter.Present); err != nil {
		p.fails.fail(PhasePresent, err)
		return
	}
	p.shown, p.shownAlpha = true, p.current.Present.Alpha
	p.counters.presented.Add(1)
	p.record(p.clock.Now(), pace)
}

// record adds one presented frame to the telemetry.
func (p *platform) record(now timing.Instant, pace timing.PaceResult) {
	p.x.present(pace, p.frames.Sample(now))
}

// wait waits until the earliest of the maintenance wake, the next poll,
// the next update (nextUpdate, when the scheduler runs on this thread) and,
// when a frame is waiting, the frame cap; without a cap a waiting frame
// does not wait. While the window is hidden (or
// throttled) the hidden pacer spaces the cycles instead, on absolute
// targets one hidden interval apart.
func (p *platform) wait(nextUpdate timing.Instant, haveUpdate bool) {
	now := p.clock.Now()
	deadline := p.cycleStart.AddSaturating(p.maintenance)
	maintenanceOnly := true
	if p.pollSpacing > 0 {
		if at := p.queue.NextPollAt(); at < deadline {
			deadline, maintenanceOnly = at, false
		}
	}
	if haveUpdate && nextUpdate > p.cycleStart && nextUpdate < deadline {
		deadline, maintenanceOnly = nextUpdate, false
	}
	if p.x.hidden.Load() {
		// The first hidden cycle starts at once (the schedule was dropped
		// when the window was hidden); an interrupted wait keeps its target.
		res := p.hiddenPacer.Pace()
		p.slowFrame = res.Outcome.Started()
		switch res.Outcome {
		case timing.PaceRescheduled, timing.PaceClockRegression, timing.PaceOverflow:
			// A new grid (the real clock fell behind): the simulation
			// follows it.
			p.x.hiddenAt.Store(int64(res.Target))
			if p.wakeSim != nil {
				p.wakeSim()
			}
		}
		if maintenanceOnly && res.Outcome.Started() && res.Outcome != timing.PaceBaseline {
			p.counters.maintenanceWakes.Add(1)
		}
		return
	}
	if deadline <= now {
		return
	}
	if p.pacer == nil && p.due(now) && p.window.Visible() {
		// No frame cap: a frame that would show something new is
		// presented as soon as allowed (with vsync the present itself
		// waits for the display), not at the next poll.
		return
	}
	if p.pacer != nil && !p.frameAllowed && p.due(now) {
		res := p.pacer.PaceUntil(deadline)
		if res.Outcome.Started() {
			p.frameAllowed, p.paceResult = true, res
			return
		}
		if res.Outcome != timing.PaceDeadline {
			return
		}
	} else if err := p.waiter.WaitUntil(deadline); err != nil {
		return
	}
	if maintenanceOnly && p.clock.Now() >= deadline {
		p.counters.maintenanceWakes.Add(1)
	}
}

// loop is the platform side of concurrent mode: poll, render, present,
// wait.
func (p *platform) loop() {
	for p.beginCycle() {
		p.present(p.clock.Now())
		if p.stop.Requested() {
			break
		}
		p.wait(0, false)
	}
}
