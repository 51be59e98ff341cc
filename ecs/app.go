package ecs

import (
	"fmt"
	"github.com/metronome-go/metronome/runtime"
	"math/rand/v2"
	"time"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/schedule"
	"github.com/mlange-42/arche/generic"
)

// Options configures an [App]. The zero Options is valid: seed 0, no command
// error handler, a queue of [DefaultQueueCapacity], interpolation on, no
// text.
type Options struct {
	// Seed seeds the App's random source ([Sys.Rand]). The same seed and
	// the same ticks give the same sequence.
	Seed uint64
	// OnCommandError, if set, receives every queued operation that could not
	// be applied (see [Commands]). It runs on the simulation goroutine.
	OnCommandError func(CommandError)
	// QueueCapacity is the most events the gameplay queue holds at once;
	// zero means [DefaultQueueCapacity]. See [schedule.Options.Capacity] for
	// the allowed range.
	QueueCapacity int
	// NoInterpolation starts the App with interpolation off (see
	// [App.SetInterpolation]).
	NoInterpolation bool
	// Assets lays out [Text] components when frames are prepared. Without
	// it, texts are skipped and counted in [ExtractStats.TextErrors].
	Assets *assets.Library
}

// App runs an ECS game on the runtime: it owns a [World], its resources and
// the systems, and implements the runtime's game hooks.
//
// All methods belong to the simulation goroutine (the one that calls the
// Update hook), except that systems may be added before the session starts
// from the goroutine that builds the App.
type App struct {
	world  *World
	stages [stageCount][]*systemEntry
	// entries holds every system, of the stages and the states, in the
	// order added (for snapshots of the cosmetic systems' skipped time).
	entries []*systemEntry

	ctx    Sys
	time   Time
	window input.Window
	rand   *rand.Rand
	pcg    *rand.PCG

	hashExtras []extraPart
	randState  []byte

	input   Input
	noInput input.Tick

	failure     error
	interpolate bool
	stop        *runtime.StopSignal
	stopped     bool
	leaked      uint64

	queue      *schedule.Queue[Event]
	delivered  []EventDelivery
	queueEntry systemEntry
	ticks      uint64 // ticks of play: the gameplay queue's clock

	// Game time and pause: see SetPaused, AfterTime and States.
	timers     *schedule.Queue[Event]
	timed      []EventDelivery
	timerEntry systemEntry
	states     []stateMachine
	gameStart  time.Duration // game time at the start of this tick
	paused     bool          // this tick
	pauseReq   bool          // from SetPaused, applied at the start of the next tick

	// Built-in loops run to completion, so they use Arche's queries as
	// plain values, which keeps the iterator in registers.
	animators *generic.Filter2[Animator, Sprite]
	animStats AnimationStats
	extract   extractor
	draw      Draw
	marks     []Mark // this tick's markers (inspect.go)

	// observer sees every system of a tick, for analysis (analysis.go).
	observer func(*SystemStep)
	sysStep  SystemStep
}

// NewApp returns an App with an empty world. The world's resources already
// hold the App's [*Time], [*input.Window], [*Input], [*rand.Rand] and gameplay queue
// ([*schedule.Queue] of [Event]). It fails when an option is out of range.
func NewApp(opts Options) (*App, error) {
	capacity := opts.QueueCapacity
	if capacity == 0 {
		capacity = DefaultQueueCapacity
	}
	queue, err := schedule.New[Event](schedule.Options{Capacity: capacity})
	if err != nil {
		return nil, fmt.Errorf("ecs: Options.QueueCapacity: %w", err)
	}
	timers, err := schedule.New[Event](schedule.Options{Capacity: capacity})
	if err != nil {
		return nil, fmt.Errorf("ecs: Options.QueueCapacity: %w", err)
	}
	a := &App{world: NewWorld(), queue: queue, timers: timers, interpolate: !opts.NoInterpolation}
	a.queueEntry = systemEntry{System: System{Name: "gameplay queue"}, stage: PreUpdate}
	a.timerEntry = systemEntry{System: System{Name: "timers"}, stage: PreUpdate}
	a.pcg = rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15)
	a.rand = rand.New(a.pcg)
	a.hashExtras = []extraPart{
		{name: "ecs.rand", fn: a.hashRand},
		{name: "ecs.queue", fn: a.hashQueue},
		{name: "ecs.timers", fn: a.hashTimers},
		{name: "ecs.clock", fn: a.hashClock},
	}
	a.world.cmds.OnError(opts.OnCommandError)
	a.ctx = Sys{World: a.world, Commands: &a.world.cmds, Time: &a.time, Window: &a.window, Rand: a.rand, Queue: queue, Timers: timers, app: a}
	AddResource(a.world, &a.time)
	AddResource(a.world, &a.window)
	AddResource(a.world, a.rand)
	AddResource(a.world, &a.input)
	AddResource(a.world, queue)
	a.extract.init(a.world)
	a.draw.x = &a.extract
	a.extract.gizmos = &a.draw
	a.ctx.Draw = &a.draw
	a.extract.lib = opts.Assets
	a.animators = generic.NewFilter2[Animator, Sprite]()
	a.AddSystem(PostUpdate, System{Name: "ecs.animate", Cosmetic: true, Run: a.animate})
	return a, nil
}

// World returns the App's world.
func (a *App) World() *World { return a.world }

// AddSystem appends s to stage. Systems of a stage run in the order they
// were added. It returns a for chaining.
//
// AddSystem panics if s.Run is nil or stage is not one of the defined
// stages: both are programming errors.
func (a *App) AddSystem(stage Stage, s System) *App {
	if s.Run == nil {
		panic(fmt.Sprintf("ecs: AddSystem: system %q has a nil Run", s.Name))
	}
	if stage >= stageCount {
		panic(fmt.Sprintf("ecs: AddSystem: system %q: stage %d is out of range [0, %d]", s.Name, stage, stageCount-1))
	}
	e := &systemEntry{System: s, stage: stage}
	a.stages[stage] = append(a.stages[stage], e)
	a.entries = append(a.entries, e)
	return a
}

// Systems returns the run statistics of every system, stage by stage.
func (a *App) Systems() []SystemStats {
	var out []SystemStats
	for _, st := range a.stages {
		for _, e := range st {
			out = append(out, SystemStats{Name: e.Name, Stage: e.stage, Cosmetic: e.Cosmetic, Runs: e.runs, Skipped: e.skips})
		}
	}
	return out
}

// Stats returns counters of the App's bookkeeping.
func (a *App) Stats() AppStats {
	return AppStats{Commands: a.world.cmds.stats, LeakedQueries: a.leaked, Extract: a.extract.stats, Animation: a.animStats}
}

// AppStats gathers the App's counters.
type AppStats struct {
	Commands CommandStats
	// LeakedQueries counts queries a system left open and the App closed at
	// the sync point after it. Each one is a bug in that system.
	LeakedQueries uint64
	Extract       ExtractStats
	Animation     AnimationStats
}

func (a *App) startup() error {
	a.failure = nil
	a.runStage(Startup, false)
	for _, sm := range a.states {
		if a.failure == nil {
			sm.enterInitial()
		}
	}
	return a.failure
}

func (a *App) shutdown() error {
	a.failure = nil
	a.world.Apply()
	a.runStage(Shutdown, false)
	return a.failure
}

// step runs one simulation tick whose Time and window are in place; in is
// the tick's input (nil for a tick without input).
func (a *App) step(in *input.Tick) error {
	a.failure = nil
	a.marks = a.marks[:0]
	a.draw.reset() // the last tick's debug drawings are shown; this one starts afresh
	t := &a.time
	t.Elapsed += t.Delta
	if in == nil {
		// A headless tick: an empty input where every action is idle, so
		// systems need no nil checks.
		a.noInput = input.Tick{}
		in = &a.noInput
	}
	// A tick run again (a rollback, a sync-test) starts from its recorded
	// input, without what the UI fired on its previous run.
	in.ClearFired()
	a.input.Tick = in
	a.ctx.Input = in
	a.sysStep.Index = -1

	// A leftover from a panicking system must not reach this tick.
	a.leaked += uint64(a.world.Apply())
	// Whether this tick is paused depends on the state it runs in, so it
	// is settled first; then the tick's time counts, so that every system
	// of the tick, the state's enter and exit systems included, sees it.
	a.paused = a.pauseReq
	for _, sm := range a.states {
		a.paused = a.paused || sm.pausedNext()
	}
	t.Paused = a.paused
	a.gameStart = t.Game
	if !a.paused {
		t.Game += t.Delta
	}
	a.delivered, a.timed = a.delivered[:0], a.timed[:0]
	// The queue moves to this tick before the state's enter and exit
	// systems run, so that After(n) there counts from this tick, as
	// everywhere else in it; what falls due is delivered after them.
	var queueErr error
	if !a.paused && a.failure == nil {
		queueErr = a.advanceQueue()
	}
	for _, sm := range a.states {
		if a.failure == nil {
			sm.transition()
		}
	}
	if !a.paused && a.failure == nil {
		// Timers are due by game time at the start of the tick.
		if err := a.advanceTimers(uint64(a.gameStart)); err != nil && a.failure == nil {
			a.failure = fmt.Errorf("ecs: timers: %w", err)
		}
		if len(a.delivered) > 0 && a.failure == nil {
			a.dispatch(&a.queueEntry, a.delivered)
		}
		if queueErr != nil && a.failure == nil {
			a.failure = fmt.Errorf("ecs: gameplay queue: %w", queueErr)
		}
	}
	for s := PreUpdate; s <= PostUpdate && a.failure == nil; s++ {
		a.runStage(s, true)
	}
	a.ctx.Input = nil
	a.input.Tick = nil
	return a.failure
}

func (a *App) runStage(stage Stage, perTick bool) { a.runList(a.stages[stage], perTick) }

// runList runs systems in order, each followed by a sync point; perTick
// says whether this is a tick's stage, where cosmetic systems may skip.
func (a *App) runList(list []*systemEntry, perTick bool) {
	for i := 0; i < len(list) && a.failure == nil; i++ {
		e := list[i]
		// Paused or out of its state, a system does not run and its time
		// does not pass.
		if e.Gameplay && a.paused {
			e.skips++
			continue
		}
		if e.When != nil {
			a.ctx.entry = e
			a.ctx.delta = 0
			if !e.When(&a.ctx) {
				e.skips++
				continue
			}
		}
		delta := a.time.Delta
		if perTick && e.Cosmetic {
			e.pending += delta
			if !a.time.RunCosmetic() {
				e.skips++
				continue
			}
			delta, e.pending = e.pending, 0
		}
		a.ctx.entry = e
		a.ctx.delta = delta
		a.world.cmds.source = e.Name
		e.runs++
		e.Run(&a.ctx)
		a.leaked += uint64(a.world.Apply())
		if a.observer != nil {
			a.observe(e)
		}
	}
	a.ctx.entry = nil
	a.world.cmds.source = ""
}

// prepare runs the built-in extraction into fw, then the Extract stage.
func (a *App) prepare(fw *render2d.FrameWriter) error {
	a.failure = nil
	if !a.interpolate {
		// Present the frame once, as it is: nothing moves between presents.
		fw.Frame().Span.Step = 0
	}
	a.extract.run(fw, a.interpolate, &a.window)
	a.ctx.Frame = fw
	a.runStage(Extract, false)
	a.ctx.Frame = nil
	return a.failure
}

// SetInterpolation turns interpolation between frames on or off; it is on
// unless [Options.NoInterpolation] is set. On, each draw packet and camera
// pass carries the placement its entity had in the previous frame
// extracted, and the platform moves it from there to the current one at
// every present, by the time since the frame's update over its step (see
// render2d.Span): motion at any display rate is smooth, one step late. Off,
// packets carry their current placement only and the frame's span has no
// step, so the platform presents each frame once as it is. The change
// applies from the next frame prepared; the first frame after turning it
// on draws every entity where it is.
func (a *App) SetInterpolation(on bool) { a.interpolate = on }

// Interpolation reports whether interpolation is on (see
// [App.SetInterpolation]).
func (a *App) Interpolation() bool { return a.interpolate }

// Hash returns the hash of the App's world ([World.Hash]) together with the
// state the App keeps outside it: the random source ("ecs.rand") and the
// gameplay queue's clock and number of pending events ("ecs.queue"; the
// events' payloads may hold functions and are not hashed). A replay
// compares these at each checkpoint.
func (a *App) Hash() (Hash, error) {
	var h Hash
	err := a.HashInto(&h)
	return h, err
}

// HashInto is [App.Hash] into h, reusing h.Types.
func (a *App) HashInto(h *Hash) error { return a.world.hashInto(h, a.hashExtras) }

func (a *App) hashRand() (uint64, int) {
	var err error
	a.randState, err = a.pcg.AppendBinary(a.randState[:0])
	if err != nil { // PCG's encoding cannot fail; hash the failure all the same
		return seedOf(err.Error()), 0
	}
	return finish(hashString(0x7261_6e64, string(a.randState))), 1
}

func (a *App) hashQueue() (uint64, int) {
	return finish(mix(0x7175_6575, a.queue.Now())), a.queue.Len()
}

func (a *App) hashTimers() (uint64, int) {
	return finish(mix(0x7469_6d65, a.timers.Now())), a.timers.Len()
}

func (a *App) hashClock() (uint64, int) {
	h := mix(0x636c_6f63, a.ticks)
	h = mix(h, uint64(a.time.Game))
	h = mix(h, uint64(a.time.Elapsed))
	if a.pauseReq {
		h = mix(h, 1)
	}
	return finish(h), 1
}

// SetPaused pauses the game or resumes it from the start of the next tick.
// While the game is paused, [System.Gameplay] systems do not run, and game
// time ([Time.Game]), the gameplay queue ([Sys.Queue]) and the timers
// ([Sys.AfterTime]) stand still, so a serve delay or a power-up's
// remaining time is where it was when play resumes; every other system
// (menus, the overlay, input handling) runs as usual, and simulation time
// ([Time.Elapsed]) goes on. A [States] machine can pause the game too
// ([States.PauseIn]); the game is paused while either says so.
func (a *App) SetPaused(paused bool) { a.pauseReq = paused }

// Paused reports whether the current tick is paused (see [App.SetPaused]).
func (a *App) Paused() bool { return a.paused }

func (a *App) requestStop() {
	a.stopped = true
	if a.stop != nil {
		a.stop.Request()
	}
}

// StopRequested reports whether a system has called [Sys.RequestStop].
func (a *App) StopRequested() bool { return a.stopped }
