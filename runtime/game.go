package runtime

import (
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime/work"
)

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
	// InitPlatform runs once, after input and graphics are initialized,
	// with what the platform thread owns.
	InitPlatform(p *Platform) error
	// InitSimulation runs once on the simulation owner, before timing
	// starts and before the first update, with what the simulation owner
	// uses.
	InitSimulation(s *Simulation) error
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

// Platform is what [Game.InitPlatform] gets: the parts of a session that
// belong to the platform thread. Its fields stay valid for the session;
// everything they hold is for the platform thread unless its own
// documentation says otherwise.
type Platform struct {
	// Adapters are the session's display, input, renderer, presenter and
	// resources.
	Adapters *Adapters
	// Actions is the action set input ticks are summarised with: register
	// the game's actions here.
	Actions *input.Actions
}

// Simulation is what [Game.InitSimulation] gets: the queues through which
// the simulation owner hands work to others and gets their results. Its
// fields stay valid for the session; each queue's methods say which
// goroutines may call them.
type Simulation struct {
	// Mailbox carries work to the simulation owner, run before an update.
	Mailbox *Mailbox
	// Dispatcher carries work to the platform thread; its futures are
	// inspected from updates, never waited for. It is the simulation
	// owner's handle, whose results a recording keeps (see
	// [PlatformDispatcher]): other goroutines submit through its Shared.
	Dispatcher *PlatformDispatcher
	// Workers hands out the session's worker groups, for CPU jobs whose
	// results come back through the mailbox ([work.Go]) or the
	// dispatcher ([work.GoPlatform]).
	Workers *work.Session
}

// Base implements every [Game] hook but Update as a no-op. Embed it:
//
//	type game struct{ runtime.Base }
//
//	func (g *game) Update(tick *runtime.TickContext) error { ... }
type Base struct{}

// InitPlatform does nothing.
func (Base) InitPlatform(*Platform) error { return nil }

// InitSimulation does nothing.
func (Base) InitSimulation(*Simulation) error { return nil }

// PrepareFrame writes nothing: the frame stays empty.
func (Base) PrepareFrame(*render2d.FrameWriter) error { return nil }

// Quiesce does nothing.
func (Base) Quiesce() error { return nil }

// DeinitSimulation does nothing.
func (Base) DeinitSimulation() error { return nil }

// DeinitPlatform does nothing.
func (Base) DeinitPlatform() error { return nil }
