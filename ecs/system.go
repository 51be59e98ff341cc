package ecs

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/schedule"
	"github.com/metronome-go/metronome/timing"
)

// Stage is a step of the App's schedule. Systems run stage by stage, and in
// the order they were added inside a stage.
type Stage uint8

const (
	// Startup systems run once, in the InitSimulation hook.
	Startup Stage = iota
	// PreUpdate, Update and PostUpdate systems run on every simulation tick,
	// in that order, inside the Update hook.
	PreUpdate
	Update
	PostUpdate
	// Extract systems run in the PrepareFrame hook, after the built-in
	// extraction of sprites, text and cameras: through [Sys.Frame] they
	// may add passes drawn on top (a HUD, debug overlays) or append to the
	// passes already there. Frame preparation can be skipped when no frame
	// slot is free, so Extract systems must not change game state.
	Extract
	// Shutdown systems run once, in the DeinitSimulation hook.
	Shutdown

	stageCount
)

var stageNames = [...]string{"Startup", "PreUpdate", "Update", "PostUpdate", "Extract", "Shutdown"}

func (s Stage) String() string {
	if s < stageCount {
		return stageNames[s]
	}
	return fmt.Sprintf("Stage(%d)", uint8(s))
}

// System is one step of game logic.
type System struct {
	// Name identifies the system in errors and statistics.
	Name string
	// Run does the work. It must not keep ctx or anything borrowed from it
	// past its return.
	Run func(ctx *Sys)
	// Cosmetic systems do work nobody would miss for a tick (particles,
	// animation, screen shake): they skip quiet ticks and, while the
	// simulation repays time debt with coarse cosmetic steps, run only on
	// the ticks the timing policy marks. When they run, [Sys.RunDelta] is
	// the simulation time since they last ran, so they stay in step.
	// Sounds are not cosmetic: play them from ordinary systems, on every
	// tick's own span, so none of a burst's is lost and a replay plays
	// them all (see the package doc's Audio section).
	// Only meaningful in the per-tick stages.
	Cosmetic bool
	// Gameplay systems stop while the game is paused ([App.SetPaused],
	// [States.PauseIn]): they do not run, and no time passes for them.
	// Systems that are not gameplay (menus, the overlay, input handling)
	// run whether or not the game is paused.
	Gameplay bool
	// When, if set, is asked before each run whether the system runs now
	// (for instance [InState]); a system it turns away does not run and no
	// time passes for it. It must not change state.
	When func(ctx *Sys) bool
}

type systemEntry struct {
	System
	stage   Stage
	pending time.Duration // delta accumulated while a cosmetic system was skipped
	runs    uint64
	skips   uint64
}

// SystemStats counts how often a system ran and was skipped (a cosmetic
// system on a tick without cosmetic work, a gameplay system while paused, a
// system its When condition turned away).
type SystemStats struct {
	Name     string
	Stage    Stage
	Cosmetic bool
	Runs     uint64
	Skipped  uint64
}

// Sys is what a system sees while it runs (its world, commands, tick, input
// and queues); the name keeps it apart from context.Context. It is valid only during the
// call to [System.Run].
type Sys struct {
	// World holds the entities. Queries are safe; structural changes go
	// through Commands.
	World *World
	// Commands queues structural changes, applied right after the system.
	Commands *Commands
	// Time describes the current tick.
	Time *Time
	// Window holds the window's sizes and focus as of this tick's input.
	Window *input.Window
	// Input is the input this tick consumed: per action down, pressed and
	// released, counts, hold time, ordered records and text. On a tick
	// without input (a headless run) it is an empty tick where every action
	// is idle. It is nil outside the per-tick stages.
	Input *input.Tick
	// Rand is the App's deterministic random source, seeded by
	// [Options.Seed]. Use it from systems only, so a replay sees the same
	// sequence.
	Rand *rand.Rand
	// Queue is the gameplay queue: schedule [Event] values some ticks ahead
	// ([Sys.TicksFor] converts a delay in seconds). It advances once
	// per tick of play, before the PreUpdate systems, and stands still
	// while the game is paused.
	Queue *schedule.Queue[Event]
	// Timers is the queue of events due by game time, in nanoseconds of
	// [Time.Game]: schedule with [Sys.AfterTime] and
	// [Sys.EveryTime]; cancel with its Cancel. It advances at the
	// start of each tick of play, before the gameplay queue.
	Timers *schedule.Queue[Event]
	// Frame is the frame being prepared; non-nil only in the Extract stage.
	Frame *render2d.FrameWriter
	// Draw draws debug lines, circles and shapes that last until the next
	// tick starts ([Draw]).
	Draw *Draw

	app   *App
	entry *systemEntry
	delta time.Duration
}

// RunDelta returns the simulation time this run of the system stands for:
// the tick's delta ([Time].Delta), or for a cosmetic system that skips
// ticks the total since it last ran.
func (c *Sys) RunDelta() time.Duration { return c.delta }

// RunDeltaSeconds returns [Sys.RunDelta] in seconds.
func (c *Sys) RunDeltaSeconds() float64 { return c.delta.Seconds() }

// System returns the name of the running system.
func (c *Sys) System() string { return c.entry.Name }

// Fail records err as the failure of the current hook: the remaining systems
// of the hook are skipped and the hook returns err (wrapped with the
// system's name), which stops the session. Only the first failure is kept.
func (c *Sys) Fail(err error) {
	if err != nil && c.app.failure == nil {
		c.app.failure = fmt.Errorf("ecs: system %q in %v: %w", c.entry.Name, c.entry.stage, err)
	}
}

// SetPaused pauses or resumes the game from the next tick
// ([App.SetPaused]).
func (c *Sys) SetPaused(paused bool) { c.app.SetPaused(paused) }

// RequestStop asks the runtime to end the session after the current tick.
// It is safe to call more than once.
func (c *Sys) RequestStop() { c.app.requestStop() }

// Time describes the current simulation tick. The App stores it as a world
// resource and in [Sys.Time]; it is rewritten at the start of each tick.
//
// The embedded [timing.Update] is the runtime's update under its own names:
// Kind, Delta, the real span [Start, End), Number, Steps, Dropped (on the
// Final tick of a batch), Quiet and Coarse; [timing.Update.RunCosmetic]
// says whether cosmetic systems run.
type Time struct {
	timing.Update
	// Elapsed is the total simulation time up to the end of this tick.
	Elapsed time.Duration
	// Game is the game time up to the end of this tick: Elapsed less the
	// time spent paused. It is what the timers count.
	Game time.Duration
	// Paused reports that the game is paused this tick (see
	// [App.SetPaused]).
	Paused bool
	// Timing holds the scheduler's statistics as of this batch: debt, rate,
	// alpha, the debt mechanisms acting, dropped and suspended totals.
	Timing timing.Stats
}

// Input is the world resource that holds the current tick's input, the
// same value as [Sys.Input]; its Tick is nil between ticks.
type Input struct {
	Tick *input.Tick
}
