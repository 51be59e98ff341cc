package ecs

import (
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
)

var _ runtime.Game = (*App)(nil)

// InitPlatform does nothing. A game that uploads textures or binds input
// embeds *App in its own type and defines InitPlatform there.
func (a *App) InitPlatform(*runtime.Platform) error { return nil }

// InitSimulation runs the [Startup] systems on the simulation owner.
func (a *App) InitSimulation(*runtime.Simulation) error { return a.startup() }

// Update runs one simulation tick: it copies the tick into the [Time] and
// [input.Window] resources and runs the [PreUpdate], [Update] and
// [PostUpdate] systems, applying queued commands after each. It does
// nothing per entity of its own: interpolation is extraction's business. It returns the first failure a system reported with
// [Sys.Fail].
func (a *App) Update(tick *runtime.TickContext) error {
	a.time.Update = tick.Update
	a.time.Timing = tick.Timing
	a.window = tick.Window
	if tick.Stop != nil {
		a.stop = tick.Stop
	}
	return a.step(tick.Input)
}

// PrepareFrame draws every visible [Sprite] and [Text] into one pass per
// [Camera], each packet and pass with its current placement and, while
// interpolation is on, the one it had in the previous frame prepared (see
// [App.SetInterpolation]), then runs the [Extract] systems. It changes no
// game state.
func (a *App) PrepareFrame(w *render2d.FrameWriter) error { return a.prepare(w) }

// Quiesce does nothing; embed *App to stop external producers.
func (a *App) Quiesce() error { return nil }

// DeinitSimulation applies pending commands and runs the [Shutdown]
// systems.
func (a *App) DeinitSimulation() error { return a.shutdown() }

// DeinitPlatform does nothing; embed *App to release game resources.
func (a *App) DeinitPlatform() error { return nil }
