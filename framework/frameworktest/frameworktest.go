package frameworktest

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/inputtest"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/runtimetest"
	"github.com/metronome-go/metronome/timing"
)

// Options configure [New].
type Options struct {
	// Config is the configuration to run with. Nil builds the game's own:
	// the framework's defaults, the game's settings struct and its
	// embedded config.toml (framework.Game.Settings and Config), then
	// Sets — no file is read. Its window size is the fake window's; its
	// runtime mode (sequential or concurrent) is honoured, with the same
	// ticks in both.
	Config *config.Config
	// Sets are "key=value" overrides applied last when Config is nil, as
	// --set does.
	Sets []string
	// Record, if set, is a file the session is recorded to, with world-hash
	// checkpoints every 60 ticks and after the last; replay it with
	// [NewReplay] (or the game's --replay). The recording is complete once
	// the session ends.
	Record string
	// RecordTo, if set, receives the recording Record's file would
	// (framework.RunOptions.RecordTo): the inspector's tests follow a live
	// session through it. Set one of Record and RecordTo; not in a Match.
	RecordTo io.Writer
	// RenderCost is the time each rendered frame takes on the platform's
	// virtual clock. Zero renders instantly. The clock stands still while
	// a Step is paused, so a render under way then finishes after it.
	RenderCost time.Duration
	// Sound gives the session a mixer made from the [audio] table, in
	// place of the output device: the game's sound requests are placed on
	// the virtual clock's timeline (frame 0 at [Sim.At](0)) and mixed
	// offline as the clock advances, so a test can check which sounds
	// played, when and how loud ([Sim.Mixer], [Sim.Samples]). Without it,
	// or with audio.enabled = false, the game's sound requests go nowhere,
	// as in a session with no device. As in a real session, the Audio
	// resource is in place before the game's Setup runs (ecs.AddAudio in
	// Setup returns it), and Setup.Sound reports the mixer. The Sim keeps every mixed frame: about 384 KB per
	// second of virtual time at 48 kHz.
	Sound bool
	// SyncTest runs the game in sync-test mode, as --synctest does: after
	// every tick the session goes back this many ticks and runs them
	// again, and the first tick whose world hash differs ends the session
	// with an ecs.SyncTestError naming the tick, the types and the fields.
	// 0 is off. See [Sim.SyncTestStats].
	SyncTest int
}

// Sim runs a game headless, through the real runtime loop, on virtual time
// (a [runtimetest.Clock]) and the fakes of [runtimetest]. A run is as fast
// as the CPU allows and sees exactly the instants the scheduler chose, so a
// test of game logic is exact and never sleeps; in concurrent mode the
// virtual clock orders the platform and the simulation at every instant,
// so ticks are the same as in sequential mode on every machine.
//
// Script input on Input with instants from [Sim.At], window events on
// Display, then either run a fixed number of ticks to a clean stop
// ([Sim.RunTicks]) or step ([Sim.Step]) and inspect App's world between
// steps; [Sim.Close] ends a stepped session. A Sim runs one session. Its
// methods belong to the test's goroutine.
type Sim struct {
	// Clock is the session's virtual clock.
	Clock *runtimetest.Clock
	// Input replays scripted buttons, cursor, scroll and text.
	Input *inputtest.Script
	// Display is the fake window: script resizes, focus, hiding, closing.
	Display *runtimetest.Display
	// Fakes holds every adapter of the session's context.
	Fakes *runtimetest.Fakes
	// App is the game's ECS app.
	App *ecs.App
	// Assets is the game's asset library, uploaded into the recorder.
	Assets *assets.Library
	// Runtime is the session's runtime.
	Runtime *runtime.GameRuntime
	// Config is the configuration the session runs with.
	Config config.Config

	step    *stepper
	done    chan error
	started bool
	ended   bool
	err     error
	closer  io.Closer // a replay's recording
	rec     *recording.Writer
	hold    timing.Waiter // while paused after a batch: holds the clock
}

// ErrEnded is returned by [Sim.Step] and [Sim.RunTicks] once the session
// has ended (the game stopped itself, or Close was called).
var ErrEnded = errors.New("frameworktest: the session has ended")

// New prepares a headless session of g and runs its initialisation: the
// game's Setup, then the checks a real session makes after it (a binding
// in the configuration for an action Setup never registered is an error
// here, not at the first Step). The session then waits, before its first
// poll and update, for [Sim.Step], [Sim.RunTicks] or [Sim.Close]. A Setup
// that fails fails New, after the session's cleanup.
func New(g framework.Game, opts Options) (*Sim, error) {
	return newSession(g, opts, runtimetest.NewClock(), nil)
}

// newSession is New on clock, playing match when it is not nil.
func newSession(g framework.Game, opts Options, clock *runtimetest.Clock, match *framework.Match) (*Sim, error) {
	var cfg config.Config
	if opts.Config != nil {
		cfg = *opts.Config
	} else {
		var err error
		if cfg, err = config.Build(config.Layers{Game: g.Settings, Embedded: g.Config, Sets: opts.Sets}); err != nil {
			return nil, err
		}
		if g.Settings != nil {
			if err := cfg.DecodeGame(g.Settings); err != nil {
				return nil, err
			}
		}
	}
	rtOpts, err := cfg.RuntimeOptions("test config")
	if err != nil {
		return nil, err
	}
	sess, err := framework.NewSession(g, cfg, "test config")
	if err != nil {
		return nil, err
	}
	if err := sess.UseSyncTest(opts.SyncTest); err != nil {
		return nil, err
	}
	if match != nil {
		if err := sess.UseMatch(match); err != nil {
			return nil, err
		}
		rtOpts.Timing = sess.MatchTiming(rtOpts.Timing)
	}
	ctx, fakes := runtimetest.NewAdapters(clock)
	size := input.Size{Width: cfg.Window.Width, Height: cfg.Window.Height}
	fakes.Display.Set(func(s *runtime.WindowState) { s.Size, s.Framebuffer = size, size })
	fakes.Renderer.SetFramebufferSize(size.Width, size.Height)
	fakes.Renderer.Cost = opts.RenderCost
	ctx.Renderer = assets.NewUploadingRenderer(sess.Assets(), fakes.Renderer)
	rtOpts.Clock = clock
	var rec *recording.Writer
	if opts.Record != "" && match != nil {
		// A match records its confirmed timeline (MatchOptions.Records).
		if err := sess.RecordMatch(opts.Record); err != nil {
			return nil, err
		}
	} else if opts.Record != "" || opts.RecordTo != nil {
		if opts.Record != "" && opts.RecordTo != nil {
			return nil, errors.New("frameworktest: Options.Record and RecordTo: set one")
		}
		if opts.Record == "" {
			rec, err = recording.NewWriter(opts.RecordTo, "the session's recording", framework.RecordingHeader(g, cfg, rtOpts.Mode))
		} else {
			rec, err = recording.Create(opts.Record, framework.RecordingHeader(g, cfg, rtOpts.Mode))
		}
		if err != nil {
			return nil, err
		}
		rec.SetClock(clock) // chunks follow the virtual clock: exact
		rtOpts.Record = runtime.RecordOptions{Writer: rec, Hash: sess.HashWorld}
	}
	s := newSim(sess, clock, fakes, cfg)
	s.step.vclock = clock
	s.rec = rec
	if opts.Sound && cfg.Audio.Enabled {
		if err := s.step.sound.open(sess, cfg, clock.At(0)); err != nil {
			return nil, err
		}
	}
	if s.Runtime, err = runtime.New(s.step, ctx, rtOpts); err != nil {
		return nil, err
	}
	if rec != nil {
		framework.WatchPresents(rec, s.Runtime)
	}
	sess.Bind(s.Runtime)
	s.step.rt = s.Runtime
	// The game's Setup runs now, and a configuration it contradicts (a
	// binding for an action it never registered) fails New, as it fails
	// a real session before its first update.
	if err := s.start(); err != nil {
		return nil, err
	}
	return s, nil
}

// start runs the session's initialisation (the game's Setup and the
// checks after it) and pauses before its loop starts, or returns the error
// of a session that ended there. Nothing has been polled or updated yet,
// so input scripted from instant 0 on reaches the first updates as
// before.
func (s *Sim) start() error {
	s.started = true
	go func() { s.done <- s.Runtime.Run() }()
	select {
	case <-s.step.paused:
		return nil
	case err := <-s.done:
		s.finish(err)
		if err == nil {
			err = ErrEnded
		}
		return err
	}
}

// At returns the instant offset after the session's clock starts, for
// scripting input and window events. Scripted events reach the game as
// real ones do: the platform polls them at the first poll at or after
// their instant (polls are polling.spacing apart, 4 ms by default) and the
// next update takes them. An event scripted while the session is paused
// for the clock's reading or earlier is polled before the next update runs
// (see [Sim.Step]).
func (s *Sim) At(offset time.Duration) timing.Instant { return s.Clock.At(offset) }

// Step runs n more updates (n >= 1) and pauses the session once it has
// done everything due at the instant of the last of them: the world holds
// the state after those updates, their frames have been prepared and the
// last one presented, and the clock reads that update's instant (at a
// fixed step: the end of its span, which is where the next update's span
// starts). The clock stays there until the next Step, RunTicks or Close.
// Inspect App's world, Frames and Presents, script more input, then Step
// again or Close. (With [Options.RenderCost] a render takes virtual time,
// which stands still while paused: the last frame's render is then under
// way, and Frames and Presents show it once the session goes on.)
//
// Input and window events scripted while paused for the clock's reading
// ([Sim.Clock].Now()) or earlier reach the next update, the first of the
// next Step, in sequential and concurrent mode alike; the platform polls
// them before that update as long as polls come more often than updates
// (polling.spacing below the step; the default 4 ms is, up to 240 Hz).
// Events scripted for later instants arrive as real input would, at the
// first poll at or after their instant.
//
// Tick numbers count from 0: the first update is tick 0 (ctx.Time.Number,
// the recording's ticks, the replay's messages), so after Step has run n
// updates from the start [Sim.Ticks] reports n, the last update was tick
// n-1 and the next one is tick n.
//
// When several updates are due at one instant (a burst after a slow
// frame, or a replay, which runs its updates back to back) and the n-th
// is not the last of them, the session pauses between two updates of the
// batch instead, as no real session polls there: input scripted then
// reaches the next batch.
//
// Step returns the session's error if the session ended meanwhile (the
// game stopped itself: nil wrapped with [ErrEnded]).
func (s *Sim) Step(n int) error {
	if n < 1 {
		return fmt.Errorf("frameworktest: Step(%d): step at least 1 update", n)
	}
	return s.run(n, false)
}

// RunTicks runs n more updates (n >= 1), stops the session the way a game
// does (a stop request from the n-th update) and waits for the orderly
// shutdown. It returns the session's error, if any.
func (s *Sim) RunTicks(n int) error {
	if n < 1 {
		return fmt.Errorf("frameworktest: RunTicks(%d): run at least 1 tick", n)
	}
	return s.run(n, true)
}

func (s *Sim) run(n int, stop bool) error {
	if s.ended {
		return ErrEnded
	}
	s.step.limit += uint64(n)
	s.step.stopAtLimit = stop
	switch {
	case s.hold != nil:
		s.hold.Release() // the clock moves on
		s.hold = nil
	default:
		s.step.resume <- false
	}
	select {
	case <-s.step.paused:
		return nil
	case hold := <-s.step.held:
		// Every waiter of the runtime ranks before hold, so this returns
		// once each is blocked on a later instant: nothing is left to do
		// at this one, and the clock cannot move while hold is not waiting.
		_ = hold.WaitUntil(s.Clock.Now())
		s.hold = hold
		return nil
	case err := <-s.done:
		s.finish(err)
		if !stop && err == nil {
			return ErrEnded
		}
		return err
	}
}

// Close ends the session: a paused session stops before its next update
// runs (the game never sees it) and shuts down in order. It returns the
// session's error, and the same error on later calls. A Sim that never
// stepped stops before its first update.
func (s *Sim) Close() error {
	if s.ended || !s.started {
		s.finish(s.err)
		return s.err
	}
	if s.hold != nil {
		// Stop before the clock moves, so that no update starts.
		s.Runtime.Stop()
		s.hold.Release()
		s.hold = nil
	} else {
		s.step.resume <- true
	}
	s.finish(<-s.done)
	return s.err
}

// finish records the session's end and closes a replay's recording.
func (s *Sim) finish(err error) {
	s.ended, s.err = true, err
	if s.step != nil && s.step.Session != nil {
		s.err = errors.Join(s.err, s.step.Session.FinishMatchRecording(err))
	}
	if s.rec != nil {
		s.err = errors.Join(s.err, s.rec.Close(err))
		s.rec = nil
	}
	if s.closer != nil {
		s.closer.Close()
		s.closer = nil
	}
}

// SyncTestStats returns the counters of the session's sync-test
// ([Options.SyncTest]), and false without one. Call it between steps or
// after the session.
func (s *Sim) SyncTestStats() (ecs.SyncTestStats, bool) { return s.step.Session.SyncTestStats() }

// Ticks reports how many updates the game ran, which is also the number
// of the next one: tick numbers count from 0 (see [Sim.Step]).
func (s *Sim) Ticks() uint64 { return s.step.ticks }

// Frames returns every frame rendered so far, in order. Read it between
// steps or after the session ended.
func (s *Sim) Frames() []render2d.Frame { return s.Fakes.Renderer.Frames }

// LastFrame returns the last rendered frame, or nil before any.
func (s *Sim) LastFrame() *render2d.Frame {
	f := s.Frames()
	if len(f) == 0 {
		return nil
	}
	return &f[len(f)-1]
}

// Presents returns how many frames were presented.
func (s *Sim) Presents() int { return s.Fakes.Presenter.Presents() }

// Mixer returns the session's mixer with [Options.Sound], or nil: its
// Stats count the sounds placed, late and dropped, the voices playing and
// the frames mixed. Read it between steps or after the session ended.
func (s *Sim) Mixer() *audio.Mixer { return s.step.sound.m }

// Samples returns the session's sound output with [Options.Sound] from
// the clock's start to offset d: interleaved stereo frames (left, right)
// at the mixer's rate, mixing what is not mixed yet. The mixer has then
// consumed every request made so far, as a device that had played up to d
// would have. A sound requested in an update whose span starts at offset
// t begins at frame t × rate + latency (in frames), exactly. Nil without
// Sound. Call it between steps or after the session ended; the slice is
// the Sim's own and valid until the next Step, RunTicks or Samples.
func (s *Sim) Samples(d time.Duration) []float32 {
	sn := &s.step.sound
	if sn.m == nil {
		return nil
	}
	n := audio.DurationFrames(max(d, 0), sn.m.Options().Rate)
	sn.mixTo(n)
	return sn.out[:2*n]
}

// stepper counts the game's updates and hands control back to the test at
// the step limits. Its fields belong to the simulation owner while the
// session runs and to the test while it is paused; the channels order the
// two.
//
// A step ends in one of two ways. After the last update of a batch the
// stepper holds the clock: it makes a waiter of the clock's own (ranked
// after the runtime's) and hands it to the test, which waits on it until
// the runtime has finished its work at this instant; while the test holds
// it the clock cannot move, so the next update, and the poll before it,
// come after the test has scripted what it wants. Inside a batch (and in
// a replay, whose loop never waits on the clock) it pauses at the start
// of the next update instead, until the test resumes it.
type stepper struct {
	*framework.Session
	rt           *runtime.GameRuntime
	clock        *timing.ManualClock
	sound        offlineSound
	ticks, limit uint64
	stopAtLimit  bool
	replay       bool
	held         chan timing.Waiter
	paused       chan struct{}
	resume       chan bool // true: stop instead of running the update
	// In a Match: the virtual clock, the instant every peer stops at,
	// the stop of them all, and the time this peer starts late by.
	vclock  *runtimetest.Clock
	end     timing.Instant
	stopAll func()
	delay   time.Duration
	stalls  []Stall // this peer's still to come, in order
	trace   []TickAt
}

// InitSimulation pauses the session before its loop starts, for [New]
// and [NewReplay] to return; a Close then stops it there, after the app's
// own InitSimulation so that its DeinitSimulation pairs with it.
func (s *stepper) InitSimulation(sim *runtime.Simulation) error {
	s.paused <- struct{}{}
	stop := <-s.resume
	if s.delay > 0 && !stop {
		s.vclock.Spend(runtimetest.Simulation, s.delay)
	}
	err := s.Session.InitSimulation(sim)
	if stop {
		s.rt.Stop()
	}
	return err
}

func (s *stepper) Update(t *runtime.TickContext) error {
	if s.ticks >= s.limit {
		s.paused <- struct{}{}
		if stop := <-s.resume; stop {
			return t.RequestStop()
		}
	}
	if s.stopAll != nil && s.clock.Now() >= s.end {
		s.stopAll()
		return t.RequestStop()
	}
	if len(s.stalls) > 0 && s.clock.Now() >= runtimetest.Start.AddSaturating(s.stalls[0].At) {
		s.vclock.Spend(runtimetest.Simulation, s.stalls[0].For)
		s.stalls = s.stalls[1:]
	}
	s.sound.mixUntil(t.Start)
	if err := s.Session.Update(t); err != nil {
		if s.stopAll != nil {
			// A peer that ends alone would hold the match's clock for
			// good: the others stop with it.
			s.stopAll()
		}
		return err
	}
	s.ticks++
	if s.stopAll != nil {
		if ns, ok := s.Session.NetStats(); ok {
			s.trace = append(s.trace, TickAt{At: s.clock.Now(), Tick: ns.Tick})
		}
	}
	if s.ticks < s.limit || t.StopRequested() {
		return nil
	}
	switch {
	case s.stopAtLimit:
		return t.RequestStop()
	case t.Final && !s.replay:
		s.held <- s.clock.NewWaiter()
	}
	return nil
}

// NewReplay prepares a session of g that replays the recording at path on
// the fakes and virtual time (see framework.NewReplaySession): the game
// gets exactly the recorded updates and input, every stored world hash is
// checked (a difference fails the session with a
// *runtime.DivergenceError naming the tick and the component types), and
// the session ends cleanly at the recording's end. Step through it or
// RunTicks, as with [New]: a bug report's recording becomes a test.
func NewReplay(g framework.Game, path string) (*Sim, error) {
	sess, rtOpts, r, err := framework.NewReplaySession(g, path)
	if err != nil {
		return nil, err
	}
	cfg := sess.Config()
	clock := runtimetest.NewClock()
	ctx, fakes := runtimetest.NewAdapters(clock)
	ctx.Input = nil // input comes from the recording
	size := input.Size{Width: cfg.Window.Width, Height: cfg.Window.Height}
	fakes.Display.Set(func(s *runtime.WindowState) { s.Size, s.Framebuffer = size, size })
	ctx.Renderer = assets.NewUploadingRenderer(sess.Assets(), fakes.Renderer)
	rtOpts.Clock = clock
	s := newSim(sess, clock, fakes, cfg)
	s.step.replay = true
	s.closer = r
	if s.Runtime, err = runtime.New(s.step, ctx, rtOpts); err != nil {
		r.Close()
		return nil, err
	}
	sess.Bind(s.Runtime)
	s.step.rt = s.Runtime
	if err := s.start(); err != nil {
		return nil, err
	}
	return s, nil
}

// newSim is the Sim New and NewReplay share: sess stepped on the fakes, on
// clock.
func newSim(sess *framework.Session, clock *runtimetest.Clock, fakes *runtimetest.Fakes, cfg config.Config) *Sim {
	return &Sim{
		Clock:   clock,
		Input:   fakes.Input.Script,
		Display: fakes.Display,
		Fakes:   fakes,
		App:     sess.App,
		Assets:  sess.Assets(),
		Config:  cfg,
		step: &stepper{Session: sess, clock: clock.ManualClock, held: make(chan timing.Waiter),
			paused: make(chan struct{}), resume: make(chan bool)},
		done: make(chan error, 1),
	}
}

// offlineSound is the device a Sim with [Options.Sound] has: a mixer
// rendered on demand, as far as the virtual clock has come, into one
// growing buffer. It belongs to the stepper's owner, as its other fields.
type offlineSound struct {
	m   *audio.Mixer
	out []float32 // interleaved stereo, from frame 0
}

// open makes the mixer, starts its timeline at origin and gives the
// session the Audio resource that plays through it.
func (o *offlineSound) open(sess *framework.Session, cfg config.Config, origin timing.Instant) error {
	m, err := audio.NewMixer(cfg.AudioOptions())
	if err != nil {
		return fmt.Errorf("frameworktest: [audio]: %w", err)
	}
	sess.UseMixer(m)
	m.Start(origin)
	o.m = m
	return nil
}

// mixUntil mixes up to the frame the device would be playing at t. Every
// sound requested from an update starting at t or later is placed at
// least the latency after it, so none is judged late for being mixed here.
func (o *offlineSound) mixUntil(t timing.Instant) {
	if o.m == nil {
		return
	}
	o.mixTo(o.m.Timeline().FrameOf(t))
}

// mixTo mixes frames up to (not including) frame, pumping the streams
// before each buffer as a device's pump would.
func (o *offlineSound) mixTo(frame int64) {
	const block = 1024 // frames per Render, a device buffer's size
	for have := int64(len(o.out) / 2); have < frame; have = int64(len(o.out) / 2) {
		n := min(frame-have, block)
		o.out = slices.Grow(o.out, int(2*n))[:len(o.out)+int(2*n)]
		o.m.Pump()
		o.m.Render(o.out[2*have:])
	}
}
