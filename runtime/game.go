package runtime

import "github.com/metronome-go/metronome/render2d"

// Game is the set of hooks a session runs. Each hook runs on one owner:
//
//   - InitPlatform, Quiesce and DeinitPlatform run on the platform thread
//     (the caller of [GameRuntime.Run]) with the graphics context current:
//     upload assets, bind input actions, attach maintenance services.
//   - InitSimulation, Update, PrepareFrame and DeinitSimulation run on the
//     simulation owner: the platform thread in [Sequential] mode, the
//     simulation goroutine in [Concurrent] mode. In concurrent mode they must
//     not touch the window, the renderer or the graphics context; use the
//     [PlatformDispatcher] for that.
//
// A hook that returns an error or panics fails the session. The runtime then
// stops and runs every cleanup hook whose init was attempted (Quiesce and
// DeinitPlatform pair with InitPlatform, DeinitSimulation with
// InitSimulation), also after a partial failure, so cleanup hooks must cope
// with state that was only half built.
//
// Embed [Base] to make every hook but Update optional.
type Game interface {
	// InitPlatform runs once, after input and graphics are initialized.
	InitPlatform(rt *GameRuntime) error
	// InitSimulation runs once on the simulation owner, before timing
	// starts and before the first update.
	InitSimulation(rt *GameRuntime) error
	// Update advances the game by tick.Delta. The tick and everything it
	// lends are valid only until Update returns.
	Update(tick *TickContext) error
	// PrepareFrame writes the render state of the newest update into a
	// free frame slot. It runs at most once per batch of updates and is
	// skipped when no slot is free, so it must not advance game state.
	//
	// Packets carry their placement at the start of the update (Prev) and
	// at its end; the platform draws the frame again at every present
	// between them by the alpha of that instant, over the span the runtime
	// has put in w.Frame().Span (the batch's last update, one step late).
	// A game that draws nothing moving may set Span.Step to zero, so that
	// each frame is presented once.
	PrepareFrame(w *render2d.FrameWriter) error
	// Quiesce stops the game's external producers after the simulation has
	// joined, while every resource is still alive. It must not wait for
	// platform dispatcher work.
	Quiesce() error
	// DeinitSimulation releases simulation-owned state on its owner.
	DeinitSimulation() error
	// DeinitPlatform releases game resources on the platform thread while
	// the adapters are still alive.
	DeinitPlatform() error
}

// Base implements every [Game] hook but Update as a no-op. Embed it:
//
//	type game struct{ runtime.Base }
//
//	func (g *game) Update(tick *runtime.TickContext) error { ... }
type Base struct{}

// InitPlatform does nothing.
func (Base) InitPlatform(*GameRuntime) error { return nil }

// InitSimulation does nothing.
func (Base) InitSimulation(*GameRuntime) error { return nil }

// PrepareFrame writes nothing: the frame stays empty.
func (Base) PrepareFrame(*render2d.FrameWriter) error { return nil }

// Quiesce does nothing.
func (Base) Quiesce() error { return nil }

// DeinitSimulation does nothing.
func (Base) DeinitSimulation() error { return nil }

// DeinitPlatform does nothing.
func (Base) DeinitPlatform() error { return nil }
