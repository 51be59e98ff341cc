package framework

import (
	"errors"
	"fmt"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/inputtest"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/rendertest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// SimulationOptions configure [NewSimulation].
type SimulationOptions struct {
	// Config is the configuration to run with; nil means [config.Default].
	Config *config.Config
	// RenderCost is the time each rendered frame takes on the manual
	// clock. Zero renders instantly.
	RenderCost time.Duration
}

// Simulation runs a game without a window or GPU, through the real runtime
// loop, on a manual clock whose waits return at once having moved the clock
// to their target. A run is as fast as the CPU allows and sees exactly the
// times the scheduler chose, so tests of game logic are exact and never sleep.
//
// Script input on Input with instants from [Simulation.At] before calling
// [Simulation.RunTicks]; afterwards inspect App's world and the recorded
// Frames. A Simulation runs one session.
type Simulation struct {
	// Clock is the manual clock the session runs on.
	Clock *timing.ManualClock
	// Input replays scripted events as the session's input source.
	Input *inputtest.Script
	// App is the game's ECS app.
	App *ecs.App
	// Assets is the game's asset library, uploaded into a recording renderer.
	Assets *assets.Library
	// Runtime is the session's runtime, available once NewSimulation returns.
	Runtime *runtime.GameRuntime
	// Frames holds every frame rendered, in order, after RunTicks.
	Frames []render2d.Frame
	// Presents counts presented frames.
	Presents int

	sess   *simSession
	rec    *keepingRecorder
	start  timing.Instant
	ran    bool
	width  int
	height int
}

// simStart is the manual clock's first reading: far from zero so that
// scripted instants before it are still valid instants.
const simStart = timing.Instant(time.Hour)

// NewSimulation prepares a headless session of g. The window size comes
// from the configuration.
func NewSimulation(g Game, opts SimulationOptions) (*Simulation, error) {
	cfg := config.Default()
	if opts.Config != nil {
		cfg = *opts.Config
	}
	rtOpts, err := cfg.RuntimeOptions("simulation config")
	if err != nil {
		return nil, err
	}
	sess, err := newSession(g, cfg, "simulation config")
	if err != nil {
		return nil, err
	}
	clock := timing.NewManualClock(simStart)
	s := &Simulation{
		Clock:  clock,
		Input:  inputtest.NewScript(),
		App:    sess.App,
		Assets: sess.lib,
		start:  simStart,
		width:  cfg.Window.Width,
		height: cfg.Window.Height,
	}
	s.sess = &simSession{session: sess}
	s.rec = &keepingRecorder{Recorder: rendertest.NewRecorder(s.width, s.height, 4096), clock: clock, cost: opts.RenderCost}
	s.Input.Init(simStart, input.State{Window: input.Window{
		Size: input.Size{Width: s.width, Height: s.height}, Framebuffer: input.Size{Width: s.width, Height: s.height}, Focused: true,
	}})
	rtOpts.Clock = clock
	ctx := &runtime.Context{
		Display:   &simDisplay{w: s.width, h: s.height},
		Input:     scriptInput{s.Input},
		Renderer:  assets.NewUploadingRenderer(sess.lib, s.rec),
		Presenter: &simPresenter{presents: &s.Presents},
	}
	s.Runtime, err = runtime.New(s.sess, ctx, rtOpts)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// At returns the instant offset after the session's clock starts, for
// scripting input.
func (s *Simulation) At(offset time.Duration) timing.Instant {
	return s.start.AddSaturating(offset)
}

// RunTicks runs the session until n updates have completed, then stops it
// the way a game does (a stop request) and waits for the orderly shutdown.
// It returns the session's error, if any. A Simulation runs once.
func (s *Simulation) RunTicks(n int) error {
	if s.ran {
		return errors.New("framework: a Simulation runs one session; RunTicks was already called")
	}
	if n < 1 {
		return fmt.Errorf("framework: RunTicks(%d): run at least 1 tick", n)
	}
	s.ran = true
	s.sess.limit = uint64(n)
	err := s.Runtime.Run()
	s.Frames = s.rec.kept
	return err
}

// Ticks reports how many updates ran.
func (s *Simulation) Ticks() uint64 { return s.sess.ticks }

// LastFrame returns the last rendered frame, or nil before any.
func (s *Simulation) LastFrame() *render2d.Frame {
	if len(s.Frames) == 0 {
		return nil
	}
	return &s.Frames[len(s.Frames)-1]
}

// simSession stops the session after a number of updates.
type simSession struct {
	*session
	limit, ticks uint64
}

func (s *simSession) Update(tick *runtime.TickContext) error {
	if err := s.session.Update(tick); err != nil {
		return err
	}
	s.ticks++
	if s.ticks >= s.limit && !tick.StopRequested() {
		return tick.RequestStop()
	}
	return nil
}

type simDisplay struct{ w, h int }

func (d *simDisplay) PollEvents() {}
func (d *simDisplay) State() runtime.WindowState {
	sz := input.Size{Width: d.w, Height: d.h}
	return runtime.WindowState{Window: input.Window{Size: sz, Framebuffer: sz, Focused: true}}
}
func (d *simDisplay) Close() error { return nil }

type simPresenter struct{ presents *int }

func (p *simPresenter) Init() error    { return nil }
func (p *simPresenter) Present() error { *p.presents++; return nil }
func (p *simPresenter) Close() error   { return nil }

type scriptInput struct{ *inputtest.Script }

func (scriptInput) Init() error  { return nil }
func (scriptInput) Close() error { return nil }

// keepingRecorder keeps the recorded frames past Close and charges the
// render cost to the manual clock.
type keepingRecorder struct {
	*rendertest.Recorder
	clock *timing.ManualClock
	cost  time.Duration
	kept  []render2d.Frame
}

func (r *keepingRecorder) Render(f *render2d.Frame) error {
	if r.cost > 0 {
		r.clock.Advance(r.cost)
	}
	return r.Recorder.Render(f)
}

func (r *keepingRecorder) Close() error {
	r.kept = r.Recorder.Frames
	return r.Recorder.Close()
}
