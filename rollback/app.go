package rollback

import (
	"fmt"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/runtime"
)

// Players is the world resource through which an [App]'s systems read
// every player's input for the tick being simulated. It is valid during
// a tick only and is not game state (nothing in it is hashed or saved).
type Players struct{ in *Inputs }

// Len returns the number of players, 0 outside a tick.
func (p *Players) Len() int {
	if p.in == nil {
		return 0
	}
	return p.in.Players()
}

// Input returns player n's action states for the tick, indexed by
// [input.Action].
func (p *Players) Input(n int) []input.Stats { return p.in.Player(n) }

// Predicted reports whether player n's input for the tick is predicted.
func (p *Players) Predicted(n int) bool { return p.in.Predicted(n) }

// App drives an ecs.App as a [Simulation]: the App owns the whole state,
// so a game writes no save or load code. Snapshots are kept in an
// ecs.Snapshots ring of Window+2; every tick the session runs, the
// present one and those run again after a rollback, is one App.Update
// with the present update's context, numbered with the session's tick and
// without device input (systems read [Players]). Frames are prepared by
// the runtime after the update, from the present tick only. The sound
// requests of ticks run again are matched to the voices already playing
// ([ecs.Audio.BeginRollback]).
//
// An App belongs to the simulation goroutine.
type App struct {
	app     *ecs.App
	ring    *ecs.Snapshots
	players Players
	present *runtime.TickContext
	tick    runtime.TickContext
	hash    ecs.Hash
	err     error
	rolling bool
}

// NewApp prepares app for a session with the given prediction window:
// it enables snapshots (failing with their refusals, see
// ecs.App.EnableSnapshots) and adds the [Players] resource.
func NewApp(app *ecs.App, window int) (*App, error) {
	if window < 1 || window > maxWindow {
		return nil, fmt.Errorf("rollback: NewApp window %d is out of range; allowed: 1 to %d", window, maxWindow)
	}
	ring, err := ecs.NewSnapshots(app, window+2)
	if err != nil {
		return nil, err
	}
	a := &App{app: app, ring: ring}
	ecs.AddResource(app.World(), &a.players)
	return a, nil
}

// Update runs one update of s, whose Simulation must be a, with the
// runtime's tick ctx: the resimulation a late input calls for, then the
// present tick (unless s holds it at the window).
func (a *App) Update(s *Session, ctx *runtime.TickContext) (Step, error) {
	a.present = ctx
	st, err := s.Advance()
	if a.rolling {
		a.rolling = false
		if au := ecs.GetResource[ecs.Audio](a.app.World()); au != nil {
			au.EndRollback(audio.InUpdate(ctx.Update), 0)
		}
	}
	if err == nil {
		err, a.err = a.err, nil
	}
	return st, err
}

// Save implements [Simulation].
func (a *App) Save(tick int64) error { return a.ring.Save(uint64(tick)) }

// Restore implements [Simulation].
func (a *App) Restore(tick int64) error { return a.ring.Restore(uint64(tick)) }

// Step implements [Simulation].
func (a *App) Step(in *Inputs, resim bool) error {
	if resim && !a.rolling {
		a.rolling = true
		if au := ecs.GetResource[ecs.Audio](a.app.World()); au != nil {
			au.BeginRollback(uint64(in.Tick()))
		}
	}
	if a.present != nil {
		a.tick = *a.present
	}
	a.tick.Number = uint64(in.Tick())
	a.tick.Input = nil
	a.players.in = in
	err := a.app.Update(&a.tick)
	a.players.in = nil
	return err
}

// Hash implements [Simulation]: the App's world hash.
func (a *App) Hash() uint64 {
	if err := a.app.HashInto(&a.hash); err != nil && a.err == nil {
		a.err = err
	}
	return a.hash.Total
}
